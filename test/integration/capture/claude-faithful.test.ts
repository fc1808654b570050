import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SKIP_REASONS } from '../../../core/api/index.js';
import { formatSweepResult } from '../../../core/cli/commands/sweep.js';
import { GatewayReader, HistoryReader } from '../../../core/gateway/index.js';
import { GatewayDigestSource } from '../../../core/sweeper/gateway-source.js';
import { appendJsonl, claudeLine, desktopSession, uuid, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'capture', 'agentsview', 'claude-code');
const DAY = 86_400_000;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The agentsview fixtures are from 2024: an open window reads them on a scheduled tick. */
function harness(): CaptureHarness {
  h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
  return h;
}

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');
const rows = (c: CaptureHarness, sql: string, ...args: unknown[]) => c.db.prepare(sql).all(...args) as Array<Record<string, unknown>>;
const one = (c: CaptureHarness, sql: string, ...args: unknown[]) => c.db.prepare(sql).get(...args) as Record<string, unknown> | undefined;

describe('Claude: nothing is dropped silently', () => {
  it('counts every complete line that yields no part by reason, in the tick result, telemetry and the CLI line', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 30 } } }, sweep: { max_line_bytes: 2_048 } });
    const c = h;
    const s = 'sess-count';
    const now = new Date().toISOString();
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      claudeLine({ sessionId: s, text: 'a real question' }),
      claudeLine({ sessionId: s, type: 'assistant', text: 'an answer' }),
      { type: 'summary', summary: 'Counting lines', leafUuid: 'not-stored-anywhere' },
      { type: 'custom-title', customTitle: 'Counted', sessionId: s },
      { type: 'file-history-snapshot', messageId: 'm', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false },
      { type: 'queue-operation', operation: 'enqueue', timestamp: now, sessionId: s },
      { parentUuid: null, sessionId: s, type: 'progress', data: { type: 'hook_progress' }, uuid: uuid(), timestamp: now },
      { type: 'system', subtype: 'compact_boundary', sessionId: s, uuid: uuid(), timestamp: now },
      // Context riding a turn (a queued prompt is a part: see the 2.1 rows below).
      { type: 'attachment', attachment: { type: 'deferred_tools_delta', addedNames: ['WebFetch'] }, sessionId: s },
      { type: 'a-type-from-the-future', sessionId: s },
      claudeLine({ sessionId: s, content: [] }),
      '',
      '{"type":"user","uuid":"broken',
      claudeLine({ sessionId: s, text: 'x'.repeat(3_000) }),
    ]);
    // One line older than the 30-day window, one inside it.
    writeJsonl(join(c.claudeRoot, 'projects', 'p', 'sess-old.jsonl'), [claudeLine({ sessionId: 'sess-old', ts: new Date(Date.now() - 40 * DAY) }), claudeLine({ sessionId: 'sess-old' })]);

    const stats = await claude(c);
    expect(stats).toMatchObject({ read: 2, partsWritten: 3, failedLines: 2 });
    expect(stats.skipped).toEqual({ meta_only: 7, unknown_type: 1, empty: 2, malformed: 1, too_large: 1, outside_window: 1 });
    // Every complete line is accounted for: 3 gave a part each, the other 13 are counted with a reason.
    const counted = Object.values(stats.skipped ?? {}).reduce((a, b) => a + b, 0);
    expect(counted + 3).toBe(16);
    expect(Object.keys(stats.skipped ?? {}).every((r) => (SKIP_REASONS as readonly string[]).includes(r))).toBe(true);

    const [entry] = c.telemetry.recent(1, 'sweep.tick');
    expect((entry?.data as { providers: Array<{ skipped: unknown }> }).providers[0]!.skipped).toEqual(stats.skipped);
    expect(formatSweepResult({ providers: [stats] })).toContain('13 lines held nothing to import (1 of a kind Steward does not import, 7 bookkeeping, 1 too large, 1 that did not parse, 1 older than the retention window, 2 empty)');
  });
});

describe('Claude: identity of lines without ids and files without session ids', () => {
  it('keys a message line without a uuid by its content and position, and a file without sessionId by its base name', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', '-Users-alice-code-my-app');
    mkdirSync(dir, { recursive: true });
    for (const name of ['valid_session.jsonl', 'tool_call_pending.jsonl', 'truncated.jsonl']) {
      copyFileSync(join(FIXTURES, name), join(dir, name));
    }
    const first = await claude(c);
    // valid_session: 1 + 2 + 1 + 1 parts; tool_call_pending: 1 + 2; truncated: 1 + 1 and a cut-off line, counted.
    expect(first).toMatchObject({ read: 3, partsWritten: 10, skipped: { malformed: 1 } });
    const sessions = rows(c, 'SELECT session_id AS id, cwd, model, first_request AS firstRequest FROM sessions ORDER BY session_id');
    expect(sessions).toEqual([
      { id: 'tool_call_pending', cwd: '/Users/alice/code/my-app', model: 'claude-sonnet-4-20250514', firstRequest: 'Read auth.ts' },
      { id: 'truncated', cwd: '/Users/alice/code/my-app', model: 'claude-sonnet-4-20250514', firstRequest: 'hello' },
      { id: 'valid_session', cwd: '/Users/alice/code/my-app', model: 'claude-sonnet-4-20250514', firstRequest: 'Fix the login bug' },
    ]);
    expect(c.projects.list()).toMatchObject([{ cwd: '/Users/alice/code/my-app', name: 'my-app', sessions: 3 }]);
    const ids = rows(c, "SELECT part_id AS id FROM parts WHERE session_id = 'valid_session' ORDER BY ts, part_id").map((r) => r.id as string);
    expect(ids).toHaveLength(5);
    expect(new Set(ids.map((id) => id.slice(0, id.lastIndexOf(':')))).size).toBe(4);

    // An appended line without a uuid is the only new part; a full re-read (manual backfill) adds nothing.
    appendFileSync(join(dir, 'valid_session.jsonl'), '{"type":"user","timestamp":"2024-01-01T10:06:00Z","message":{"content":"Thanks"}}\n');
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 1 });
    expect((await c.driver.backfill({ all: true }))[0]).toMatchObject({ read: 3, partsWritten: 0 });
    expect(c.count('SELECT COUNT(*) FROM parts')).toBe(11);
    expect(rows(c, 'SELECT part_id FROM parts WHERE session_id = ?', 'valid_session').map((r) => r.part_id)).toEqual(expect.arrayContaining(ids));
    expect(c.count("SELECT COUNT(*) FROM parts WHERE session_id = 'valid_session'")).toBe(6);
  });

  it('two byte-identical lines without a uuid are two messages, told apart by where they start; a full re-read adds none', async () => {
    const c = harness();
    // As Claude Code 1.0 wrote a repeated prompt: the same bytes twice, no uuid, no sessionId.
    const line = '{"type":"user","timestamp":"2024-01-01T10:00:00Z","message":{"role":"user","content":"continue"}}';
    writeJsonl(join(c.claudeRoot, 'projects', 'p', 'twice.jsonl'), [line, line]);
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 2 });
    const ids = rows(c, "SELECT part_id AS id FROM parts WHERE session_id = 'twice'").map((r) => r.id as string);
    expect(new Set(ids).size).toBe(2);
    expect((await c.driver.backfill({ all: true }))[0]).toMatchObject({ read: 1, partsWritten: 0 });
    expect(c.count('SELECT COUNT(*) FROM parts')).toBe(2);
  });

  it('reads a plain string inside a content array as a text part', async () => {
    const c = harness();
    writeJsonl(join(c.claudeRoot, 'projects', 'p', 'strings.jsonl'), [claudeLine({ sessionId: 'strings', content: ['plain words', { type: 'text', text: 'a block' }] })]);
    await claude(c);
    expect(rows(c, 'SELECT kind, text FROM parts ORDER BY part_id')).toEqual([
      { kind: 'text', text: 'plain words' },
      { kind: 'text', text: 'a block' },
    ]);
  });
});

describe('Claude: titles', () => {
  const title = (c: CaptureHarness, id: string) => one(c, 'SELECT title, title_source AS source FROM sessions WHERE session_id = ?', id);

  it('custom-title beats ai-title beats summary, whatever order they arrive in; a summary titles the session holding its leaf', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const leaf = uuid();
    // The summarised conversation lives in one file; the summary line sits at the top of a later one.
    writeJsonl(join(dir, 'earlier.jsonl'), [claudeLine({ sessionId: 'earlier', text: 'start the uploader' }), claudeLine({ sessionId: 'earlier', type: 'assistant', uuid: leaf })]);
    writeJsonl(join(dir, 'later.jsonl'), [
      { type: 'summary', summary: 'Add retry to uploader', leafUuid: leaf },
      { type: 'summary', summary: 'Own file fallback', leafUuid: 'a-uuid-no-stored-message-has' },
      claudeLine({ sessionId: 'later', text: 'go on' }),
      { type: 'ai-title', aiTitle: 'Uploader retries', sessionId: 'later' },
    ]);
    await claude(c);
    expect(title(c, 'earlier')).toEqual({ title: 'Add retry to uploader', source: 'summary' });
    // 'later' had only a summary naming no stored message, then an ai-title: the ai-title wins.
    expect(title(c, 'later')).toEqual({ title: 'Uploader retries', source: 'ai-title' });

    appendJsonl(join(dir, 'later.jsonl'), [{ type: 'custom-title', customTitle: 'My uploader work', sessionId: 'later' }]);
    await claude(c);
    expect(title(c, 'later')).toEqual({ title: 'My uploader work', source: 'custom-title' });
    // A later ai-title (appended alone: the read holds no part) does not replace the user's rename.
    appendJsonl(join(dir, 'later.jsonl'), [{ type: 'ai-title', aiTitle: 'Something else', sessionId: 'later' }]);
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(title(c, 'later')).toEqual({ title: 'My uploader work', source: 'custom-title' });
    // A summary whose leaf is unknown titles its own file's session.
    writeJsonl(join(dir, 'own.jsonl'), [{ type: 'summary', summary: 'Own summary', leafUuid: 'unknown-leaf' }, claudeLine({ sessionId: 'own' })]);
    await claude(c);
    expect(title(c, 'own')).toEqual({ title: 'Own summary', source: 'summary' });
    expect(c.projects.list()[0]!.latestSession).toMatchObject({ name: expect.any(String) as string });
  });

  it('a summary titles the session holding its leaf when the summary file is read first (name order)', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const leaf = uuid();
    // Read in name order: the summary's file before the file holding its leaf.
    writeJsonl(join(dir, 'aa-later.jsonl'), [{ type: 'summary', summary: 'Add retry to uploader', leafUuid: leaf }, claudeLine({ sessionId: 'aa-later', text: 'go on' })]);
    writeJsonl(join(dir, 'zz-earlier.jsonl'), [claudeLine({ sessionId: 'zz-earlier', text: 'start the uploader' }), claudeLine({ sessionId: 'zz-earlier', type: 'assistant', uuid: leaf })]);
    await claude(c);
    expect(title(c, 'zz-earlier')).toEqual({ title: 'Add retry to uploader', source: 'summary' });
    // The stand-in the summary's own session held until the leaf was stored is withdrawn.
    expect(title(c, 'aa-later')).toEqual({ title: null, source: null });
    expect(c.count('SELECT COUNT(*) FROM title_claims')).toBe(0);
  });

  it("a summary's title moves to its leaf's session when that file arrives in a later tick, after a restart; higher titles stay", async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const leaf = uuid();
    writeJsonl(join(dir, 'aa-later.jsonl'), [
      { type: 'summary', summary: 'Own words', sessionId: 'aa-later' },
      { type: 'summary', summary: 'Add retry to uploader', leafUuid: leaf },
      claudeLine({ sessionId: 'aa-later', text: 'go on' }),
    ]);
    writeJsonl(join(dir, 'ab-named.jsonl'), [
      { type: 'summary', summary: 'Add retry to uploader', leafUuid: leaf },
      claudeLine({ sessionId: 'ab-named', text: 'and again' }),
      { type: 'ai-title', aiTitle: 'Its own name', sessionId: 'ab-named' },
    ]);
    await claude(c);
    // No stored message has the leaf yet: the summary titles its own file's session.
    expect(title(c, 'aa-later')).toEqual({ title: 'Add retry to uploader', source: 'summary' });
    expect(title(c, 'ab-named')).toEqual({ title: 'Its own name', source: 'ai-title' });

    await c.restart();
    writeJsonl(join(dir, 'zz-earlier.jsonl'), [claudeLine({ sessionId: 'zz-earlier', text: 'start the uploader' }), claudeLine({ sessionId: 'zz-earlier', type: 'assistant', uuid: leaf })]);
    expect(await claude(c)).toMatchObject({ read: 1 });
    expect(title(c, 'zz-earlier')).toEqual({ title: 'Add retry to uploader', source: 'summary' });
    // The stand-in leaves: the session's own summary is back; an ai-title was never replaced.
    expect(title(c, 'aa-later')).toEqual({ title: 'Own words', source: 'summary' });
    expect(title(c, 'ab-named')).toEqual({ title: 'Its own name', source: 'ai-title' });
    expect(c.count('SELECT COUNT(*) FROM title_claims')).toBe(0);
  });

  it('the Cowork sidecar titles a session only until a title of its own arrives', async () => {
    const c = harness();
    const file = desktopSession(c.desktopRoot, 'cowork-t', 2, 'Sidecar title');
    await claude(c);
    expect(title(c, 'cowork-t')).toEqual({ title: 'Sidecar title', source: 'sidecar' });
    appendJsonl(file, [{ type: 'ai-title', aiTitle: 'Agent title', sessionId: 'cowork-t' }]);
    await claude(c);
    expect(title(c, 'cowork-t')).toEqual({ title: 'Agent title', source: 'ai-title' });
  });
});

describe('Claude: subagents', () => {
  const agentType = (c: CaptureHarness, id: string) => one(c, 'SELECT parent_session_id AS parent, agent_type AS type FROM sessions WHERE session_id = ?', id);

  it("takes a subagent's type from the parent's Task call, matched by agent id, when no sidecar says; a sidecar then wins", async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const parent = join(dir, 'par.jsonl');
    const call = claudeLine({ sessionId: 'par', type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_T1', name: 'Task', input: { description: 'find callers', prompt: 'p'.repeat(20_000), subagent_type: 'Explore' } }] });
    writeJsonl(parent, [claudeLine({ sessionId: 'par', text: 'find the callers' }), call]);
    const sub = join(dir, 'par', 'subagents', 'agent-a77.jsonl');
    writeJsonl(sub, [claudeLine({ sessionId: 'par', agentId: 'a77', text: 'find callers' })]);
    await claude(c);
    expect(agentType(c, 'par:agent-a77')).toEqual({ parent: 'par', type: null });
    // The result arrives in a later pass (read from the checkpoint, which kept the open call).
    appendJsonl(parent, [
      claudeLine({
        sessionId: 'par',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_T1', content: [{ type: 'text', text: 'Found 3 callers.\nagentId: a77 (for resuming)' }] }],
        extra: { toolUseResult: { status: 'completed', agentId: 'a77', totalDurationMs: 1200 } },
      }),
    ]);
    const second = await claude(c);
    expect(second).toMatchObject({ read: 1, partsWritten: 1 });
    expect(second.bytesRead).toBeLessThan(readFileSync(parent).length);
    expect(agentType(c, 'par:agent-a77')).toEqual({ parent: 'par', type: 'Explore' });

    writeFileSync(join(dir, 'par', 'subagents', 'agent-a77.meta.json'), JSON.stringify({ agentType: 'general-purpose', spawnDepth: 1 }));
    appendJsonl(sub, [claudeLine({ sessionId: 'par', agentId: 'a77', type: 'assistant' })]);
    await claude(c);
    expect(agentType(c, 'par:agent-a77')).toEqual({ parent: 'par', type: 'general-purpose' });
  });

  it("takes a subagent's type from a sidecar written after its transcript, with no new line; a restart then reads nothing", async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    writeJsonl(join(dir, 'par.jsonl'), [claudeLine({ sessionId: 'par', text: 'find the callers' })]);
    // Both layouts: <session>/subagents/agent-<id>.jsonl, and the older agent-<id>.jsonl beside the parent.
    writeJsonl(join(dir, 'par', 'subagents', 'agent-a78.jsonl'), [claudeLine({ sessionId: 'par', agentId: 'a78', text: 'find callers' })]);
    writeJsonl(join(dir, 'agent-f1.jsonl'), [claudeLine({ sessionId: 'par', agentId: 'f1', text: 'list the tests' })]);
    expect(await claude(c)).toMatchObject({ read: 3 });
    expect(agentType(c, 'par:agent-a78')).toEqual({ parent: 'par', type: null });
    expect(agentType(c, 'par:agent-f1')).toEqual({ parent: 'par', type: null });

    // Seconds with a fraction of a millisecond, as file systems keep them.
    const later = (Date.now() + 5_000) / 1000 + 0.000_456;
    for (const [meta, type] of [[join(dir, 'par', 'subagents', 'agent-a78.meta.json'), 'Explore'], [join(dir, 'agent-f1.meta.json'), 'Plan']] as const) {
      writeFileSync(meta, JSON.stringify({ agentType: type, spawnDepth: 1 }));
      utimesSync(meta, later, later);
    }
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 0 });
    expect(agentType(c, 'par:agent-a78')).toEqual({ parent: 'par', type: 'Explore' });
    expect(agentType(c, 'par:agent-f1')).toEqual({ parent: 'par', type: 'Plan' });
    expect(await claude(c)).toMatchObject({ read: 0 });
    // After a restart the checkpoints answer: the sidecars' time compares equal.
    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 0, unchanged: 3, bytesRead: 0 });
  });

  it('a subagent whose parent transcript is gone is a conversation of its project, and the sweeper sees its turns', async () => {
    const c = harness();
    writeJsonl(join(c.claudeRoot, 'projects', '-work-orphan', 'gone-parent', 'subagents', 'agent-o1.jsonl'), [
      claudeLine({ sessionId: 'gone-parent', agentId: 'o1', cwd: '/work/orphan', text: 'survey the repo' }),
      claudeLine({ sessionId: 'gone-parent', agentId: 'o1', cwd: '/work/orphan', type: 'assistant', text: 'The repo has three packages.' }),
    ]);
    await claude(c);
    const [project] = c.projects.list();
    expect(project).toMatchObject({ cwd: '/work/orphan', sessions: 1 });
    const digest = new GatewayDigestSource(c.projects, new GatewayReader(c.db)).recentSessions(project!.projectKey, { sessions: 5, messages: 10 });
    expect(digest).toMatchObject([{ sessionId: 'gone-parent:agent-o1', messages: [{ role: 'assistant', text: 'The repo has three packages.' }] }]);
  });

  it('a subagent read before its parent transcript existed is linked to it once a tick reads the parent', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', '-work-x');
    const s = '5d1c0e2a-7b3f-4c11-9e0a-2f6b8d4c9a10';
    const agent = `${s}:agent-cc99887`;
    writeJsonl(join(dir, s, 'subagents', 'agent-cc99887.jsonl'), [
      claudeLine({ sessionId: s, agentId: 'cc99887', cwd: '/work/x', text: 'survey the repo' }),
      claudeLine({ sessionId: s, agentId: 'cc99887', cwd: '/work/x', type: 'assistant', text: 'The repo has three packages.' }),
    ]);
    await claude(c);
    // Its parent's transcript is not there yet: a conversation of its own meanwhile.
    expect(one(c, 'SELECT parent_session_id AS parent FROM sessions WHERE session_id = ?', agent)).toEqual({ parent: null });

    writeJsonl(join(dir, `${s}.jsonl`), [
      claudeLine({ sessionId: s, cwd: '/work/x', text: 'Plan the release' }),
      claudeLine({ sessionId: s, cwd: '/work/x', type: 'assistant', text: 'Here is the plan.' }),
    ]);
    expect(await claude(c)).toMatchObject({ read: 1 });
    expect(one(c, 'SELECT parent_session_id AS parent, parent_kind AS kind FROM sessions WHERE session_id = ?', agent)).toEqual({ parent: s, kind: 'subagent' });
    const [project] = c.projects.list();
    expect(project).toMatchObject({ cwd: '/work/x', sessions: 1 });
    expect(new HistoryReader(c.db).subagents(s).map((r) => r.sessionId)).toEqual([agent]);
    // The sweeper sees one conversation, the parent's; the subagent's turns are part of it.
    const digest = new GatewayDigestSource(c.projects, new GatewayReader(c.db)).recentSessions(project!.projectKey, { sessions: 5, messages: 10 });
    expect(digest.map((d) => d.sessionId)).toEqual([s]);
  });
});

describe('Claude: flags decided once at parse time', () => {
  const lines = (s: string) => [
    claudeLine({ sessionId: s, text: 'Please add frost warnings' }),
    claudeLine({ sessionId: s, text: '<command-name>/clear</command-name>' }),
    claudeLine({ sessionId: s, text: '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>' }),
    claudeLine({ sessionId: s, text: '<task-notification>\n<task-id>t1</task-id>\n<status>completed</status>\n</task-notification>' }),
    claudeLine({ sessionId: s, text: '<user-prompt-submit-hook>lint passed</user-prompt-submit-hook>' }),
    claudeLine({ sessionId: s, text: 'Base directory for this skill: /home/u/.claude/skills/pdf\n\n# PDF', extra: { isMeta: true } }),
    claudeLine({ sessionId: s, text: 'This session is being continued from a previous conversation that ran out of context. Summary: …', extra: { isCompactSummary: true, isVisibleInTranscriptOnly: true } }),
    claudeLine({ sessionId: s, type: 'assistant', text: 'Done.' }),
  ];

  it('keeps isMeta, isCompactSummary and isSidechain, and marks only the user’s own words as genuine', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    writeJsonl(join(dir, 'flags.jsonl'), lines('flags'));
    writeJsonl(join(dir, 'flags', 'subagents', 'agent-f1.jsonl'), [claudeLine({ sessionId: 'flags', agentId: 'f1', text: 'Prompt written by the parent agent' })]);
    await claude(c);
    const flags = rows(
      c,
      'SELECT substr(text, 1, 14) AS text, is_meta AS meta, is_compact_summary AS compact, is_sidechain AS side, genuine_user_turn AS genuine FROM parts ORDER BY ts, part_id',
    );
    expect(flags).toEqual([
      { text: 'Please add fro', meta: 0, compact: 0, side: 0, genuine: 1 },
      { text: '<command-name>', meta: 0, compact: 0, side: 0, genuine: 0 },
      { text: '<local-command', meta: 0, compact: 0, side: 0, genuine: 0 },
      { text: '<task-notifica', meta: 0, compact: 0, side: 0, genuine: 0 },
      { text: '<user-prompt-s', meta: 0, compact: 0, side: 0, genuine: 0 },
      { text: 'Base directory', meta: 1, compact: 0, side: 0, genuine: 0 },
      { text: 'This session i', meta: 0, compact: 1, side: 0, genuine: 0 },
      { text: 'Done.', meta: 0, compact: 0, side: 0, genuine: 0 },
      { text: 'Prompt written', meta: 0, compact: 0, side: 1, genuine: 0 },
    ]);
    expect(one(c, "SELECT first_request AS r FROM sessions WHERE session_id = 'flags'")).toEqual({ r: 'Please add frost warnings' });
  });

  it("the sink's new-turn trigger and the sweeper's digest read the flag", async () => {
    const c = harness();
    const file = join(c.claudeRoot, 'projects', 'p', 'turns.jsonl');
    writeJsonl(file, [claudeLine({ sessionId: 'turns', text: 'Plan the garden' })]);
    const turns: string[][] = [];
    c.driver.onUserTurns((live) => turns.push(live.map((t) => t.projectKey)));
    await claude(c);
    expect(turns).toHaveLength(1);
    // Harness lines the old copies of the rule let through: a task notification and a skill expansion.
    appendJsonl(file, [lines('turns')[3], lines('turns')[5], lines('turns')[2]]);
    await claude(c);
    expect(turns).toHaveLength(1);
    const [project] = c.projects.list();
    const digest = new GatewayDigestSource(c.projects, new GatewayReader(c.db)).recentSessions(project!.projectKey, { sessions: 1, messages: 10 });
    expect(digest[0]!.messages.map((m) => m.text)).toEqual(['Plan the garden']);
    appendJsonl(file, [claudeLine({ sessionId: 'turns', text: 'Now water it' })]);
    await claude(c);
    expect(turns).toEqual([[project!.projectKey], [project!.projectKey]]);
  });
});

describe('Claude Desktop (Cowork) projects', () => {
  it("puts a session under the folder the user selected, and sessions without one under one 'Claude Desktop' project", async () => {
    const c = harness();
    desktopSession(c.desktopRoot, 'cw-1', 2, 'Sort my invoices', ['/Users/ana/Documents/invoices']);
    desktopSession(c.desktopRoot, 'cw-2', 2, 'Draft a letter');
    desktopSession(c.desktopRoot, 'cw-3', 2, 'Plan a trip');
    await claude(c);
    const projects = c.projects.list().map((p) => ({ name: p.name, cwd: p.cwd, sessions: p.sessions }));
    expect(projects.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'Claude Desktop', cwd: 'Claude Desktop', sessions: 2 },
      { name: 'invoices', cwd: '/Users/ana/Documents/invoices', sessions: 1 },
    ]);
    expect(c.count("SELECT COUNT(*) FROM projects WHERE cwd LIKE '/sessions/%'")).toBe(0);
  });
});

describe('Claude: rows as Claude Code 2.1, its VS Code extension and Cowork write them', () => {
  interface Part {
    role: string;
    kind: string;
    text: string | null;
    genuine: number;
  }
  const parts = (c: CaptureHarness, session: string) =>
    (c.db.prepare('SELECT role, kind, text, genuine_user_turn AS genuine FROM parts WHERE session_id = ? ORDER BY ts, part_id').all(session) as Part[]).map((p) => ({ ...p, text: p.text?.slice(0, 24) ?? null }));
  const firstRequest = (c: CaptureHarness, session: string) => one(c, 'SELECT first_request AS r FROM sessions WHERE session_id = ?', session)?.r;
  /** An `attachment` row of 2.1: the common envelope (uuid, sessionId, cwd…) around `attachment`. */
  const attachment = (sessionId: string, ts: Date, body: Record<string, unknown>) => ({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/work/fixture-project',
    sessionId,
    version: '2.1.220',
    type: 'attachment',
    attachment: body,
    uuid: uuid(),
    timestamp: ts.toISOString(),
  });
  const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);

  it("keeps a prompt typed while the agent worked (a queued_command attachment) as the user's words; a queued task notification or peer message is not", async () => {
    const c = harness();
    const s = 'queued';
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      claudeLine({ sessionId: s, ts: at(0), text: 'Run the test suite', extra: { origin: { kind: 'human' }, promptSource: 'typed' } }),
      claudeLine({ sessionId: s, ts: at(1), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_B1', name: 'Bash', input: { command: 'npm test' } }] }),
      attachment(s, at(2), { type: 'queued_command', prompt: 'Also add a test for leap years', commandMode: 'prompt', origin: { kind: 'human' }, timestamp: at(2).toISOString() }),
      // The shape agentsview keeps as a fixture: no uuid, no sessionId, the prompt as content blocks.
      { type: 'attachment', timestamp: at(3).toISOString(), attachment: { type: 'queued_command', commandMode: 'prompt', prompt: [{ type: 'text', text: 'and keep it short' }] } },
      attachment(s, at(4), { type: 'queued_command', commandMode: 'task-notification', prompt: 'Background agent "review" finished.' }),
      attachment(s, at(5), { type: 'queued_command', commandMode: 'prompt', prompt: '[Subagent hand-back] review written', origin: { kind: 'peer', from: 'a1' } }),
      attachment(s, at(6), { type: 'task_reminder', content: [], itemCount: 0 }),
      { type: 'file-history-delta', messageId: uuid(), snapshotMessageId: uuid(), trackingPath: 'src/a.ts', backup: {}, timestamp: at(6).toISOString() },
      { type: 'pr-link', sessionId: s, url: 'https://example.invalid/pr/1' },
    ]);
    const stats = await claude(c);
    expect(stats).toMatchObject({ partsWritten: 6, skipped: { meta_only: 3 } });
    expect(parts(c, s)).toEqual([
      { role: 'user', kind: 'text', text: 'Run the test suite', genuine: 1 },
      { role: 'assistant', kind: 'tool_use', text: '{"command":"npm test"}', genuine: 0 },
      { role: 'user', kind: 'text', text: 'Also add a test for leap', genuine: 1 },
      { role: 'user', kind: 'text', text: 'and keep it short', genuine: 1 },
      { role: 'user', kind: 'text', text: 'Background agent "review', genuine: 0 },
      { role: 'user', kind: 'text', text: '[Subagent hand-back] rev', genuine: 0 },
    ]);
  });

  it("marks the user's words by what the row says of its origin, and a prompt that only starts with a harness tag as the user's", async () => {
    const c = harness();
    const s = 'origins';
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      // A background agent's completion notice, in prose: only `origin` and `promptSource` say it is the harness's.
      claudeLine({ sessionId: s, ts: at(0), text: 'Agent "review" completed with 3 findings.', extra: { origin: { kind: 'task-notification' }, promptSource: 'system' } }),
      claudeLine({ sessionId: s, ts: at(1), text: '<command-name> shows up in my transcripts: where does it come from?', extra: { origin: { kind: 'human' }, promptSource: 'typed' } }),
      claudeLine({ sessionId: s, ts: at(2), text: 'Fix the flaky login test', extra: { promptSource: 'suggestion_accepted' } }),
      claudeLine({ sessionId: s, ts: at(3), content: [{ type: 'text', text: '[Request interrupted by user]' }], extra: { interruptedMessageId: 'msg_01X' } }),
      claudeLine({ sessionId: s, ts: at(4), text: '<bash-input>git status</bash-input>' }),
      claudeLine({ sessionId: s, ts: at(5), text: '<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>' }),
    ]);
    await claude(c);
    expect(parts(c, s).map((p) => p.genuine)).toEqual([0, 1, 1, 0, 0, 0]);
    expect(firstRequest(c, s)).toBe('<command-name> shows up in my transcripts: where does it come from?');
  });

  it('does not take the IDE context the VS Code extension sends with a prompt, or a leading reminder, for the request', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const opened = '<ide_opened_file>The user opened the file /work/app/src/auth.ts in the IDE. This may or may not be related to the current task.</ide_opened_file>';
    writeJsonl(join(dir, 'ide-blocks.jsonl'), [claudeLine({ sessionId: 'ide-blocks', content: [{ type: 'text', text: opened }, { type: 'text', text: 'Why does login fail?' }] })]);
    writeJsonl(join(dir, 'ide-alone.jsonl'), [
      claudeLine({ sessionId: 'ide-alone', ts: at(0), text: '<ide_selection>The user selected the lines 3 to 9 from /work/app/src/auth.ts:\nexport function login() {}\n</ide_selection>' }),
      claudeLine({ sessionId: 'ide-alone', ts: at(1), text: 'Rename it to signIn' }),
    ]);
    writeJsonl(join(dir, 'ide-prefix.jsonl'), [
      claudeLine({ sessionId: 'ide-prefix', text: '<ide_selection>The user selected the lines 3 to 9 from /work/app/src/auth.ts:\nexport function login() {}\n</ide_selection>\n\nWhat does this do?' }),
    ]);
    writeJsonl(join(dir, 'reminder.jsonl'), [claudeLine({ sessionId: 'reminder', text: '<system-reminder>\nThe task tools have not been used recently.\n</system-reminder>\nShip the login fix' })]);
    await claude(c);
    expect(parts(c, 'ide-blocks').map((p) => p.genuine)).toEqual([0, 1]);
    expect(parts(c, 'ide-alone').map((p) => p.genuine)).toEqual([0, 1]);
    expect(parts(c, 'ide-prefix').map((p) => p.genuine)).toEqual([1]);
    expect(parts(c, 'reminder').map((p) => p.genuine)).toEqual([1]);
    expect([firstRequest(c, 'ide-blocks'), firstRequest(c, 'ide-alone'), firstRequest(c, 'ide-prefix'), firstRequest(c, 'reminder')]).toEqual([
      'Why does login fail?',
      'Rename it to signIn',
      'What does this do?',
      'Ship the login fix',
    ]);
  });

  it("keeps the session's model when Claude Code writes a <synthetic> message, and an API error is an error part, not the assistant's words", async () => {
    const c = harness();
    const s = 'synthetic';
    const synthetic = (ts: Date, text: string, apiError: boolean) =>
      claudeLine({ sessionId: s, ts, type: 'assistant', model: '<synthetic>', content: [{ type: 'text', text }], extra: { isApiErrorMessage: apiError } });
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      claudeLine({ sessionId: s, ts: at(0), text: 'Summarize the diff' }),
      claudeLine({ sessionId: s, ts: at(1), type: 'assistant', model: 'claude-opus-4-1-20250805', text: 'The diff adds retries.' }),
      claudeLine({ sessionId: s, ts: at(2), text: 'And the tests?' }),
      synthetic(at(3), 'API Error: 529 Overloaded. This is a server-side issue, usually temporary.', true),
      synthetic(at(4), 'No response requested.', false),
    ]);
    await claude(c);
    expect(one(c, 'SELECT model FROM sessions WHERE session_id = ?', s)).toEqual({ model: 'claude-opus-4-1-20250805' });
    expect(parts(c, s).map((p) => `${p.role}/${p.kind}`)).toEqual(['user/text', 'assistant/text', 'user/text', 'assistant/error', 'assistant/text']);
  });

  it('reads a ToolSearch result (tool_reference blocks) as the tools it names, and redacted thinking as thinking without text', async () => {
    const c = harness();
    const s = 'blocks';
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      claudeLine({ sessionId: s, ts: at(0), type: 'assistant', content: [{ type: 'redacted_thinking', data: 'EuYBCkQYAiJAr'.repeat(200) }] }),
      claudeLine({ sessionId: s, ts: at(1), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_S1', name: 'ToolSearch', input: { query: 'select:mcp__github__create_pr', max_results: 1 } }] }),
      claudeLine({
        sessionId: s,
        ts: at(2),
        content: [{ type: 'tool_result', tool_use_id: 'toolu_S1', content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_pr' }] }],
        extra: { toolUseResult: { matches: ['mcp__github__create_pr'], query: 'select:mcp__github__create_pr', total_deferred_tools: 117 } },
      }),
    ]);
    await claude(c);
    expect(rows(c, 'SELECT kind, text, meta FROM parts WHERE session_id = ? ORDER BY ts', s)).toEqual([
      { kind: 'thinking', text: null, meta: '{"redacted":true}' },
      { kind: 'tool_use', text: '{"query":"select:mcp__github__create_pr","max_results":1}', meta: '{"name":"ToolSearch","toolUseId":"toolu_S1"}' },
      { kind: 'tool_result', text: 'mcp__github__create_pr', meta: '{"toolUseId":"toolu_S1"}' },
    ]);
  });

  it('keeps plain strings and blocks of unknown kinds inside a tool_result as its text', async () => {
    const c = harness();
    const s = 'results';
    const png = Buffer.from('not really a png').toString('base64');
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      claudeLine({ sessionId: s, ts: at(0), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_M1', name: 'mcp__docs__search', input: { query: 'retention' } }] }),
      claudeLine({
        sessionId: s,
        ts: at(1),
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_M1',
            content: [
              'Found 1 page.',
              { type: 'text', text: 'Retention is 30 days.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
              { type: 'search_result', source: 'https://docs.example/retention', title: 'Retention' },
              // A PDF the tool read, inline: its facts, never its base64.
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF-1.7 twelve').toString('base64') } },
            ],
          },
        ],
        extra: { toolUseResult: [{ type: 'text', text: 'Retention is 30 days.' }] },
      }),
    ]);
    await claude(c);
    expect(rows(c, "SELECT text, meta FROM parts WHERE session_id = ? AND kind = 'tool_result'", s)).toEqual([
      {
        text: 'Found 1 page.\nRetention is 30 days.\n{"type":"search_result","source":"https://docs.example/retention","title":"Retention"}\n[document application/pdf, 15 bytes]',
        meta: '{"toolUseId":"toolu_M1","images":1,"imageFacts":[{"media_type":"image/png","bytes":16}]}',
      },
    ]);
  });

  it('keeps a file the person attached inline (a document with a base64 source) as its facts, never its base64', async () => {
    const c = harness();
    const s = 'attached';
    const pdf = Buffer.alloc(60_000, 0x25);
    const data = pdf.toString('base64');
    writeJsonl(join(c.claudeRoot, 'projects', 'p', `${s}.jsonl`), [
      claudeLine({ sessionId: s, ts: at(0), content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data }, title: 'invoice.pdf' }, { type: 'text', text: 'what is the total?' }] }),
    ]);
    await claude(c);
    expect(rows(c, 'SELECT kind, text, meta FROM parts WHERE session_id = ? ORDER BY part_id', s)).toEqual([
      { kind: 'document', text: null, meta: JSON.stringify({ media_type: 'application/pdf', bytes: pdf.length, sha256: createHash('sha256').update(pdf).digest('hex'), title: 'invoice.pdf' }) },
      { kind: 'text', text: 'what is the total?', meta: null },
    ]);
    expect(c.count("SELECT COUNT(*) FROM parts WHERE text LIKE '%' || ? || '%' OR meta LIKE '%' || ? || '%'", data.slice(0, 64), data.slice(0, 64))).toBe(0);
  });

  it('does not read prompt-suggestion agents as subagents, and links workflow subagents nested under subagents/workflows/ to their parent', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 30 } } } });
    const c = h;
    const dir = join(c.claudeRoot, 'projects', 'p');
    // The parent's own lines are older than the window: only the path says its transcript is there.
    writeJsonl(join(dir, 'wf.jsonl'), [claudeLine({ sessionId: 'wf', ts: new Date(Date.now() - 40 * DAY), text: 'run the review workflow' })]);
    writeJsonl(join(dir, 'wf', 'subagents', 'agent-direct.jsonl'), [claudeLine({ sessionId: 'wf', agentId: 'direct', text: 'review the API' })]);
    writeJsonl(join(dir, 'wf', 'subagents', 'workflows', 'wf-123', 'agent-deep.jsonl'), [claudeLine({ sessionId: 'wf', agentId: 'deep', text: 'review the schema' })]);
    writeJsonl(join(dir, 'wf', 'subagents', 'agent-aprompt_suggestion-a12dbf.jsonl'), [claudeLine({ sessionId: 'wf', agentId: 'aprompt_suggestion-a12dbf', text: 'Suggest the next prompt' })]);
    expect(await claude(c)).toMatchObject({ discovered: 3 });
    expect(rows(c, 'SELECT session_id AS id, parent_session_id AS parent FROM sessions ORDER BY session_id')).toEqual([
      { id: 'wf:agent-deep', parent: 'wf' },
      { id: 'wf:agent-direct', parent: 'wf' },
    ]);
  });

  it('takes the title of a Cowork session renamed in Claude Desktop, though only its sidecar changed', async () => {
    const c = harness();
    desktopSession(c.desktopRoot, 'cw-r', 2, 'First title', ['/Users/ana/Documents/taxes']);
    await claude(c);
    const sidecar = join(c.desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1', 'local_cw-r.json');
    const meta = JSON.parse(readFileSync(sidecar, 'utf8')) as Record<string, unknown>;
    writeFileSync(sidecar, JSON.stringify({ ...meta, title: 'Taxes 2025', lastActivityAt: 3 }));
    // Seconds with a fraction of a millisecond, as file systems keep them.
    const later = (Date.now() + 5_000) / 1000 + 0.000_456;
    utimesSync(sidecar, later, later);
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(one(c, "SELECT title, title_source AS source, project_cwd AS project FROM sessions WHERE session_id = 'cw-r'")).toEqual({
      title: 'Taxes 2025',
      source: 'sidecar',
      project: '/Users/ana/Documents/taxes',
    });
    expect(await claude(c)).toMatchObject({ read: 0 });
    // After a restart the checkpoint answers: the sidecar's time compares equal.
    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 0 });
  });
});
