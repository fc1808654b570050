import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StewardError, type StewardClient } from '../../../core/api/index.js';
import type { Core } from '../../../core/index.js';
import { formatSweeperRun } from '../../../core/cli/commands/sweeper.js';
import { SessionEraser } from '../../../core/gateway/index.js';
import { registerProjectTools } from '../../../core/mcp/projects.js';
import { hookAnswer } from '../../../core/sweeper/context/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Forgetting a conversation reaches the project's notes: until they are rebuilt from what is still
 * stored, agents are not handed them (SessionStart hook, MCP `project_overview`), and the rebuild
 * leaves nothing of the forgotten conversation in OVERVIEW.md or CHANGELOG.md.
 */

const DAY = 86_400_000;
const KEPT = '2b3c4d5e-0000-4000-8000-00000000000a';
const GONE = '2b3c4d5e-0000-4000-8000-00000000000b';
const LATER = '2b3c4d5e-0000-4000-8000-00000000000c';
const KEPT_ASK = 'Add retries with backoff to the orchard sync job';
const GONE_ASK = 'Migrate the quincebarrow ledger to the new schema';
const GONE_WORD = 'quincebarrow';

const temp = coreHome('steward-forget-notes-');

function conversation(root: string, sessionId: string, cwd: string, at: number, ask: string): void {
  writeJsonl(join(root, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), [
    claudeLine({ sessionId, cwd, ts: new Date(at), text: ask }),
    claudeLine({ sessionId, cwd, ts: new Date(at + 60_000), type: 'assistant', text: `Done: ${ask.toLowerCase()}.` }),
  ]);
}

/** The orchard project with two conversations on different days, backfilled and swept. */
async function swept(): Promise<{ c: Core; key: string; cwd: string; notes: { overview: string; changelog: string } }> {
  const cwd = join(temp.home.dir, 'work', 'orchard');
  mkdirSync(cwd, { recursive: true });
  const roots = join(temp.home.dir, 'claude-roots');
  const now = Date.now();
  conversation(roots, KEPT, cwd, now - 6 * DAY, KEPT_ASK);
  conversation(roots, GONE, cwd, now - 3 * DAY, GONE_ASK);
  const c = temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } });
  await c.call('Backfill.Run', { all: true });
  const key = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === cwd)!.projectKey;
  await c.call('Sweeper.Run', { projectKey: key });
  const { notesPath } = await c.call('Projects.Get', { projectKey: key });
  const notes = { overview: join(notesPath, 'OVERVIEW.md'), changelog: join(notesPath, 'CHANGELOG.md') };
  // Both conversations are in the notes before the forget.
  expect(readFileSync(notes.overview, 'utf8')).toContain(GONE_WORD);
  expect(readFileSync(notes.changelog, 'utf8')).toContain(GONE_WORD);
  return { c, key, cwd, notes };
}

/** What the SessionStart hook hands an agent starting in `cwd` ('' for nothing). */
function hookContext(cwd: string): string {
  const answer = hookAnswer(JSON.stringify({ cwd }), temp.home.env);
  return answer === '' ? '' : (JSON.parse(answer) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

type ToolHandler = (args: { cwd: string }) => Promise<{ content: Array<{ text: string }>; structuredContent?: { overview: string | null } }>;

/** MCP `project_overview` answered in process through the Core. */
async function projectOverview(c: Core, cwd: string) {
  const tools = new Map<string, ToolHandler>();
  const server = { registerTool: (name: string, _definition: unknown, handler: ToolHandler) => tools.set(name, handler) } as unknown as McpServer;
  registerProjectTools(server, (use) => use(c as unknown as StewardClient), { home: temp.home.env.HOME!, stewardHome: temp.home.env.STEWARD_HOME! });
  return tools.get('project_overview')!({ cwd });
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');

describe('forgetting a conversation the notes mention', () => {
  it('withholds the notes from agents until they are rebuilt', async () => {
    const { c, key, cwd } = await swept();
    expect(hookContext(cwd)).toContain(GONE_WORD);

    await c.call('Forget.Session', { sessionId: GONE });
    expect(hookContext(cwd)).not.toContain(GONE_WORD);
    expect(hookContext(cwd)).toContain('being rebuilt after a forget');
    const mcp = await projectOverview(c, cwd);
    expect(JSON.stringify(mcp)).not.toContain(GONE_WORD);
    expect(mcp.content[0]?.text).toContain('being rebuilt after a forget');
    const got = await c.call('Projects.Get', { projectKey: key });
    expect([got.overview, got.changelog]).toEqual([null, null]);
    expect(got.state.notesStaleSince).toEqual(expect.any(Number));
  });

  it('the next sweep, with nothing new, rebuilds them from the conversations still stored', async () => {
    const { c, key, cwd, notes } = await swept();
    await c.call('Forget.Session', { sessionId: GONE });

    // The changelog's day before the forgotten conversation began is kept as it was: nothing to add.
    expect(await c.call('Sweeper.Run', { projectKey: key })).toMatchObject({ outcome: 'ok', overview: 'written', changelog: 'empty' });
    for (const file of [notes.overview, notes.changelog]) {
      expect(read(file)).not.toContain(GONE_WORD);
      expect(read(file)).toContain('orchard sync job');
    }
    expect(read(notes.changelog).match(/^## \S+$/gm)).toHaveLength(1);
    expect(hookContext(cwd)).toContain('orchard sync job');
    expect(hookContext(cwd)).not.toContain(GONE_WORD);
    expect((await projectOverview(c, cwd)).content[0]?.text).toContain('orchard sync job');
    expect((await c.call('Projects.Get', { projectKey: key })).state.notesStaleSince).toBeNull();
  });

  it('with every conversation forgotten one by one, the notes go and agents get nothing', async () => {
    const { c, key, cwd, notes } = await swept();
    await c.call('Forget.Session', { sessionId: GONE });
    await c.call('Forget.Session', { sessionId: KEPT });

    expect(await c.call('Sweeper.Run', { projectKey: key, force: true })).toMatchObject({ outcome: 'ok' });
    expect([existsSync(notes.overview), existsSync(notes.changelog)]).toEqual([false, false]);
    expect(hookContext(cwd)).toBe('');
    const mcp = await projectOverview(c, cwd);
    expect(JSON.stringify(mcp)).not.toMatch(/quincebarrow|orchard sync job/);
    expect((await c.call('Projects.Get', { projectKey: key })).state.notesStaleSince).toBeNull();
  });

  it('keeps the changelog days before the forgotten conversation began as they were, hand edits included, and redoes the days from it on', async () => {
    const { c, key, cwd, notes } = await swept();
    // A later conversation, swept too: its day comes after the forgotten one's.
    const LATER_ASK = 'Document the orchard sync retries in the runbook';
    conversation(join(temp.home.dir, 'claude-roots'), LATER, cwd, Date.now() - DAY, LATER_ASK);
    await c.call('Backfill.Run', { all: true });
    await c.call('Sweeper.Run', { projectKey: key });
    // The person adds a line by hand under the first day, and a note above the days.
    const before = read(notes.changelog);
    const firstDay = /^## (\S+)$/m.exec(before)![1]!;
    const edited = before.replace('# Changelog\n', '# Changelog\n\nKept by hand: the orchard notes.\n').replace(`## ${firstDay}\n\n`, `## ${firstDay}\n\n- Also tuned the backoff by hand\n`);
    writeFileSync(notes.changelog, edited);
    const keptPart = edited.slice(0, edited.indexOf('\n## ', edited.indexOf(`## ${firstDay}`)) + 1);
    expect(keptPart).toContain('tuned the backoff by hand');
    expect(keptPart).not.toContain(GONE_WORD);

    await c.call('Forget.Session', { sessionId: GONE });
    await c.call('Sweeper.Run', { projectKey: key });

    const after = read(notes.changelog);
    expect(after.startsWith(keptPart)).toBe(true);
    expect(after).not.toContain(GONE_WORD);
    // The later day is written again from the conversation still stored.
    expect(after).toContain('runbook');
    expect(after.match(/^## \S+$/gm)).toHaveLength(2);
    expect(read(notes.overview)).not.toContain(GONE_WORD);
  });

  it('redoes every day when a forget reaches back before the first one', async () => {
    const { c, key, notes } = await swept();
    writeFileSync(notes.changelog, read(notes.changelog).replace('# Changelog\n', '# Changelog\n\n## 2020-01-01\n\n- A day long before, written by hand\n'));
    // Two forgets before the rebuild: the earlier first day counts.
    await c.call('Forget.Session', { sessionId: GONE });
    await c.call('Forget.Session', { sessionId: KEPT });
    await c.call('Sweeper.Run', { projectKey: key, force: true });
    // Only the hand-written day from long before either conversation is left.
    expect(read(notes.changelog)).toContain('A day long before, written by hand');
    expect(read(notes.changelog)).not.toMatch(/quincebarrow|orchard sync job/);
  });

  it('keeps what the person wrote above the days even when every day is written again', async () => {
    const { c, key, notes } = await swept();
    writeFileSync(notes.changelog, read(notes.changelog).replace('# Changelog\n', '# Changelog\n\nRelease notes live in docs/, written by hand.\n'));
    await c.call('Forget.Session', { sessionId: KEPT });
    await c.call('Forget.Session', { sessionId: GONE });
    await c.call('Sweeper.Run', { projectKey: key, force: true });
    expect(read(notes.changelog)).toBe('# Changelog\n\nRelease notes live in docs/, written by hand.\n');
  });
});

describe('the sweep after a forget', () => {
  it('with the kept day already in the changelog, says there was nothing new for it, not that it is empty', async () => {
    const { c, key, notes } = await swept();
    await c.call('Forget.Session', { sessionId: GONE });
    const run = await c.call('Sweeper.Run', { projectKey: key });
    // The kept day's entry is still in CHANGELOG.md, so "changelog empty" would be untrue.
    expect(readFileSync(notes.changelog, 'utf8').match(/^## \S+$/gm)).toHaveLength(1);
    const words = formatSweeperRun(run);
    expect(words).not.toContain('changelog empty');
    expect(words).toContain('no changelog entry (nothing new since the last sweep)');
  });
});

describe('a forget cut short (a stop between its pieces; the next start finishes the rows alone)', () => {
  const stopped = () => new StewardError('cancelled', 'Steward is stopping.');
  afterEach(() => vi.restoreAllMocks());

  it('of a conversation, has withheld the notes before any row went', async () => {
    const { c, cwd } = await swept();
    vi.spyOn(SessionEraser.prototype, 'erase').mockRejectedValueOnce(stopped());
    await expect(c.call('Forget.Session', { sessionId: GONE })).rejects.toMatchObject({ code: 'cancelled' });
    expect(hookContext(cwd)).not.toContain(GONE_WORD);
    expect(hookContext(cwd)).toContain('being rebuilt after a forget');
  });

  it('of a project, has removed its notes before any row went', async () => {
    const { c, key, cwd, notes } = await swept();
    vi.spyOn(SessionEraser.prototype, 'eraseProject').mockRejectedValueOnce(stopped());
    await expect(c.call('Forget.Project', { projectKey: key })).rejects.toMatchObject({ code: 'cancelled' });
    expect(hookContext(cwd)).toBe('');
    for (const file of [notes.overview, notes.changelog]) expect(existsSync(file)).toBe(false);
    // Still listed, to be finished at the next start; but no sweep writes notes from what is left of it.
    expect((await c.call('Projects.List', {})).projects.map((p) => p.projectKey)).toContain(key);
    await expect(c.call('Sweeper.Run', { projectKey: key, force: true })).rejects.toMatchObject({ code: 'not_found', message: `Project ${key} is forgotten: Steward keeps no notes for it, and writes none` });
    for (const file of [notes.overview, notes.changelog]) expect(existsSync(file)).toBe(false);
    expect(hookContext(cwd)).toBe('');
  });
});
