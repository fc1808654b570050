import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOwner } from '../../../core/index.js';
import { besidesNobodyImports, runIn } from '../../support/cli.js';
import { historyHome, IDS, KITCHEN, SECRET, SUBAGENT_SESSION } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-history-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

/** The flags a page's "More: add …" line says to add, or undefined when it has none. */
function moreFlags(out: string): string[] | undefined {
  const hint = /^More: add (.+)$/m.exec(out);
  return hint ? hint[1]!.split(' ') : undefined;
}

/** Runs the command a minute later than now, as when a person reads a page and then asks for the next. */
async function aMinuteLater<T>(action: () => Promise<T>): Promise<T> {
  const now = Date.now.bind(Date);
  const later = vi.spyOn(Date, 'now').mockImplementation(() => now() + 60_000);
  try {
    return await action();
  } finally {
    later.mockRestore();
  }
}

describe('steward search', () => {
  it('prints {hits} with --json, words joined into one query', async () => {
    const { code, out } = await cli('search', 'apple', 'crumble', '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as { hits: Array<{ sessionId: string; partId: string; projectKey: string; ts: number; role: string; snippet: string }> };
    expect(result.hits.length).toBeGreaterThan(0);
    expect(new Set(result.hits.map((h) => h.sessionId))).toEqual(new Set([IDS.kitchen]));
    expect(Object.keys(result.hits[0]!)).toEqual(expect.arrayContaining(['sessionId', 'partId', 'projectKey', 'ts', 'role', 'snippet']));
  });

  it('--mine: only your own words, not the /clear echo or the prompt written for a subagent', async () => {
    const mine = JSON.parse((await cli('search', 'frost', 'OR', 'clear', '--mine', '--json')).out) as { hits: Array<{ sessionId: string; snippet: string }> };
    expect(mine.hits.map((h) => h.sessionId)).toEqual([IDS.pruning]);
    expect(mine.hits[0]!.snippet).toContain('before the frost arrives');
    const userText = JSON.parse((await cli('search', 'frost', 'OR', 'clear', '--role', 'user', '--kind', 'text', '--json')).out) as { hits: Array<{ sessionId: string }> };
    expect(new Set(userText.hits.map((h) => h.sessionId))).toEqual(new Set([IDS.pruning, SUBAGENT_SESSION, IDS.kitchen]));
  });

  it('groups hits under their conversation in a terminal, and takes the filters', async () => {
    const { code, out } = await cli('search', 'frost', '--sort', 'newest', '--limit', '5');
    expect(code).toBe(0);
    expect(out).toContain(`Winter pruning plan — orchard · Claude Code · ${IDS.pruning}`);
    expect(out).toContain(SUBAGENT_SESSION);
    const commands = await cli('search', 'calendar', '--kind', 'tool_use', '--json');
    expect((JSON.parse(commands.out) as { hits: Array<{ kind: string }> }).hits.map((h) => h.kind)).toEqual(['tool_use']);
    const projects = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string; cwd: string }> };
    const kitchen = projects.projects.find((p) => p.cwd === KITCHEN)!.projectKey;
    const narrowed = JSON.parse((await cli('search', 'apple', '--project', kitchen, '--from', '30d', '--json')).out) as { hits: Array<{ sessionId: string }> };
    expect(new Set(narrowed.hits.map((h) => h.sessionId))).toEqual(new Set([IDS.kitchen]));
  });

  it('follows its own "More" hint to the next page when --from counts back from now (7d)', async () => {
    const argv = ['search', 'apple', '--from', '7d', '--sort', 'newest', '--limit', '1'];
    const first = await cli(...argv);
    expect(first.code).toBe(0);
    const flags = moreFlags(first.out)!;
    // The hint's flags are added to the command as it was, its `--from 7d` included.
    const second = await aMinuteLater(() => cli(...argv, ...flags));
    expect(besidesNobodyImports(second.err)).toBe('');
    expect(second.code).toBe(0);
    expect(flags.slice(0, 2)).toEqual(['--from', expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)]);
    const firstHit = first.out.split('\n').find((line) => line.startsWith('  '));
    const secondHit = second.out.split('\n').find((line) => line.startsWith('  '));
    expect(secondHit).toBeDefined();
    expect(secondHit).not.toBe(firstHit);
  });

  it('with --json, gives the flags of the next page as `more`, its span pinned, so a script pages the same search', async () => {
    const argv = ['search', 'apple', '--from', '7d', '--sort', 'newest', '--limit', '1', '--json'];
    type Page = { hits: Array<{ partId: string }>; cursor?: string; more?: string[] };
    const first = JSON.parse((await cli(...argv)).out) as Page;
    expect(first.more).toEqual(['--from', expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), '--cursor', first.cursor]);
    const second = await aMinuteLater(() => cli(...argv, ...first.more!));
    expect(besidesNobodyImports(second.err)).toBe('');
    const page = JSON.parse(second.out) as Page;
    expect(page.hits).toHaveLength(1);
    expect(page.hits[0]!.partId).not.toBe(first.hits[0]!.partId);
    // A page with no next one says nothing more.
    const all = JSON.parse((await cli('search', 'apple', '--limit', '100', '--json')).out) as Page;
    expect(all).not.toHaveProperty('more');
  });

  it('with filters and no words, lists what they select newest first, and pages it', async () => {
    type Page = { hits: Array<{ sessionId: string; partId: string; ts: number; snippet: string; highlights: unknown[] }>; cursor?: string; more?: string[] };
    const mine = JSON.parse((await cli('search', '--mine', '--json')).out) as Page;
    expect(mine.hits.map((h) => h.snippet)).toEqual([
      'Write a recipe for apple crumble with winter spices.',
      'Remind me to order apple saplings',
      'Why does parseConfig throw ERR_MODULE_NOT_FOUND when loading src/config/load_settings.ts?',
      'Here is a photo of the bark damage.',
      'How should I prune the apple trees before the frost arrives?',
    ]);
    expect(mine.hits.every((h) => h.highlights.length === 0)).toBe(true);
    const projects = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string; cwd: string }> };
    const kitchen = projects.projects.find((p) => p.cwd === KITCHEN)!.projectKey;
    const { code, out } = await cli('search', '--project', kitchen, '--kind', 'text', '--limit', '2');
    expect(code).toBe(0);
    expect(out).toMatch(/^note: There are no words to rank by, so the matching messages are shown newest first\.\n/);
    expect(out).toContain(`— kitchen · Claude Code · ${IDS.kitchen}`);
    const lines = out.split('\n').filter((line) => line.startsWith('  '));
    expect(lines.map((line) => line.replace(/^ {2}\S+ \S+ \S+ {2}/, ''))).toEqual([
      'Assistant: Apple crumble: apples, oats, butter, cinnamon and a little nutmeg. Serve it warm with cream or custard.',
      'You: Write a recipe for apple crumble with winter spices.',
    ]);
    const flags = moreFlags(out)!;
    const next = await cli('search', '--project', kitchen, '--kind', 'text', '--limit', '2', ...flags);
    expect(next.code).toBe(0);
    expect(next.out).toContain('<command-name>/clear</command-name>');
    expect(moreFlags(next.out)).toBeUndefined();
  });

  it('says when it searched a phrase instead, and rejects bad options as usage errors', async () => {
    expect((await cli('search', 'cream', 'OR')).out).toMatch(/^note: That was not valid search syntax/);
    expect((await cli('search', 'x', '--kind', 'files')).code).toBe(2);
    expect((await cli('search', 'x', '--from', 'yesterday-ish')).code).toBe(2);
    // A project nothing is called is not_found (exit 1), as an unknown key or conversation id is.
    const json = await cli('search', 'x', '--project', 'not-a-key', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('steward sessions', () => {
  it('lists conversations as {sessions} with --json and in lines without', async () => {
    const json = JSON.parse((await cli('sessions', 'list', '--json', '--limit', '2')).out) as { sessions: Array<{ sessionId: string }>; cursor?: string };
    expect(json.sessions.map((s) => s.sessionId)).toEqual([IDS.kitchen, `oc:main:${IDS.openclawHeader}`]);
    expect(json.cursor).toBeDefined();
    const text = (await cli('sessions', 'list')).out;
    expect(text).toMatch(new RegExp(`^${IDS.pruning} .* 4 messages, 2 tool calls, 1 subagent {2}orchard {2}Winter pruning plan$`, 'm'));
  });

  it('follows its own "More" hint to the next page when --from counts back from now (7d)', async () => {
    const argv = ['sessions', 'list', '--from', '7d', '--limit', '1'];
    const first = await cli(...argv);
    expect(first.code).toBe(0);
    expect(first.out.startsWith(`${IDS.kitchen} `)).toBe(true);
    const second = await aMinuteLater(() => cli(...argv, ...moreFlags(first.out)!));
    expect(second.err).toBe('');
    expect(second.code).toBe(0);
    expect(second.out.startsWith(`oc:main:${IDS.openclawHeader} `)).toBe(true);
  });

  it('shows a conversation with tools folded to one line and the subagent where it started', async () => {
    const { code, out } = await cli('sessions', 'show', IDS.pruning);
    expect(code).toBe(0);
    expect(out).toContain('  ▸ Bash: npm run build:calendar');
    expect(out).toContain('  ◂ exit code 2: src/calendar.ts(14,7): error TS2345');
    expect(out).toMatch(/▸ Task: Survey frost dates\n {2}⤷ subagent Explore /);
    expect(out).toContain('[Image · PNG, 27 bytes]');
  });

  it('exports Markdown redacted by default, raw when asked, and to a file', async () => {
    const redacted = await cli('sessions', 'export', IDS.config);
    expect(redacted.code).toBe(0);
    expect(redacted.out).not.toContain(SECRET);
    expect(redacted.out).toContain('[REDACTED]');
    const raw = (await cli('sessions', 'export', IDS.config, '--raw')).out;
    expect(raw).toContain(SECRET);
    expect(raw).toMatch(/^> \*\*Not redacted\.\*\* /);
    expect(redacted.out).not.toMatch(/Not redacted/);
    const file = join(home.dir, 'export.json');
    expect((await cli('sessions', 'export', IDS.config, '--format', 'json', '--output', file)).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'steward.session.v1', redacted: true });
    expect((await cli('sessions', 'show', 'no-such-session')).code).toBe(1);
  });

  it('an export heading counts as the list does: tool calls and subagents only when there are any (QA)', async () => {
    const list = (await cli('sessions', 'list')).out;
    for (const id of [IDS.pruning, IDS.kitchen]) {
      const counts = new RegExp(`^${id} .*? (\\d[\\d,]* messages?(?:, \\d[\\d,]* (?:tool calls?|subagents?))*) {2}`, 'm').exec(list)![1]!;
      const heading = (await cli('sessions', 'export', id)).out.split('\n\n')[1]!;
      expect(heading.split('\n')).toContain(`- ${counts}`);
    }
    expect((await cli('sessions', 'export', IDS.pruning)).out).toContain('\n- 4 messages, 2 tool calls, 1 subagent\n');
    expect((await cli('sessions', 'export', IDS.kitchen)).out).not.toMatch(/\b0 tool calls\b/);
  });

  it('show --raw says first that it is not redacted, as export --raw does, and its --json says `redacted` (QA)', async () => {
    const raw = await cli('sessions', 'show', IDS.config, '--raw');
    expect(raw.code).toBe(0);
    expect(raw.out.split('\n')[0]).toMatch(/^Not redacted\. This view shows secrets .* exactly as the transcript holds them/);
    expect((await cli('sessions', 'show', IDS.config)).out).not.toMatch(/Not redacted/);
    expect(JSON.parse((await cli('sessions', 'show', IDS.config, '--raw', '--json')).out)).toMatchObject({ redacted: false });
    expect(JSON.parse((await cli('sessions', 'show', IDS.config, '--json')).out)).toMatchObject({ redacted: true });
  });

  it('says one tool call in the singular, and "no match" (not "not yet") when a filter leaves nothing', async () => {
    expect((await cli('sessions', 'list')).out).toMatch(new RegExp(`^${IDS.config} .* 3 messages, 1 tool call {2}orchard `, 'm'));
    const none = await cli('sessions', 'list', '--provider', 'gemini');
    expect(none.code).toBe(0);
    expect(none.out).toBe('No conversations match.\n');
  });

  it('refuses --json with --output, and says in words when the file cannot be written', async () => {
    const file = join(home.dir, 'both.md');
    const both = await cli('sessions', 'export', IDS.config, '--json', '--output', file);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.out)).toMatchObject({ error: { code: 'invalid_params' } });
    const missing = await cli('sessions', 'export', IDS.config, '--output', join(home.dir, 'no-such-folder', 'x.md'));
    // Refused before the export is made, naming the folder as the person typed it (cli-export-output-place).
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`steward: The folder ${join(home.dir, 'no-such-folder')} does not exist; create it first, or give the path of a file to write\n`);
  });
});

describe('steward forget / unforget', () => {
  it('forgets, lists, refuses a half-given target, and lifts', async () => {
    expect((await cli('forget')).code).toBe(2);
    expect((await cli('forget', '--session', 'a', '--project', 'p_0123456789abcdef')).code).toBe(2);
    const forgot = await cli('forget', '--session', IDS.kitchen);
    // No subagent: none is mentioned, and no count of parts.
    expect(forgot.out).toBe(`Forgot conversation ${IDS.kitchen}: deleted it from Steward. It stays out of future imports; \`steward unforget --session ${IDS.kitchen}\` lifts that.\n`);
    const list = JSON.parse((await cli('forget', '--list', '--json')).out) as { tombstones: Array<{ kind: string; id: string }> };
    expect(list.tombstones).toMatchObject([{ kind: 'session', id: IDS.kitchen }]);
    expect((await cli('forget', '--list')).out).toMatch(new RegExp(`^session {2}${IDS.kitchen} {2}\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} (UTC|[+-]\\d{2}:\\d{2}) {2}Write a recipe`, 'm'));
    expect(JSON.parse((await cli('search', 'crumble', '--json')).out)).toMatchObject({ hits: [] });
    expect((await cli('unforget', '--session', IDS.kitchen)).out).toContain("Steward's next check imports that conversation again");
    expect((await cli('unforget', '--session', IDS.kitchen)).out).toContain('Nothing was forgotten');
    await cli('backfill', '--all');
    expect((JSON.parse((await cli('search', 'crumble', '--json')).out) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
  });

  it('names the subagents it removed with a conversation, and never counts parts: the pruning plan has one subagent', async () => {
    const frost = async () => new Set((JSON.parse((await cli('search', 'frost', '--json')).out) as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId));
    expect(await frost()).toEqual(new Set([IDS.pruning, SUBAGENT_SESSION]));
    const forgot = await cli('forget', '--session', IDS.pruning);
    expect(forgot.code).toBe(0);
    expect(forgot.out).toMatch(/^Forgot conversation .*: deleted it and its 1 subagent from Steward\. /);
    expect(forgot.out).not.toMatch(/\bparts?\b/);
    expect(await frost()).toEqual(new Set());
    // Unforgotten and imported again, it (and its subagent) is found as before: later tests read it.
    expect((await cli('unforget', '--session', IDS.pruning)).code).toBe(0);
    expect((await cli('backfill', '--all')).code).toBe(0);
    expect(await frost()).toEqual(new Set([IDS.pruning, SUBAGENT_SESSION]));
  });

  it('goes through the running owner when one runs', async () => {
    const owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, strictPort: true, schedule: false });
    try {
      const { code, out } = await cli('search', 'saplings', '--json');
      expect(code).toBe(0);
      expect((JSON.parse(out) as { hits: Array<{ provider: string }> }).hits.map((h) => h.provider)).toContain('openclaw');
      expect((await cli('sessions', 'list', '--provider', 'openclaw', '--json')).code).toBe(0);
    } finally {
      await owner.stop();
    }
  });
});
