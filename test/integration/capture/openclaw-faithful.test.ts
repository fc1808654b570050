import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJsonl, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, inLastHour, tickOf, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const openclaw = (c: CaptureHarness) => tickOf(c, 'openclaw');
const at = inLastHour;
const iso = (minutes: number) => at(minutes).toISOString();

/**
 * A pi/OpenClaw v1 session as pi wrote it until its tree format (badlogic/pi-mono, session-manager.ts
 * before 2025-12-22): a header without `version`, carrying the model; entries with no `id`/`parentId`;
 * compaction by `firstKeptEntryIndex`.
 */
function v1Session(id: string, extraHeader: Record<string, unknown> = {}): Array<Record<string, unknown>> {
  return [
    { type: 'session', id, timestamp: iso(0), cwd: '/home/sam/pi-project', provider: 'anthropic', modelId: 'claude-sonnet-4-5', thinkingLevel: 'off', ...extraHeader },
    { type: 'message', timestamp: iso(1), message: { role: 'user', content: [{ type: 'text', text: 'rename the config loader' }], timestamp: at(1).getTime() } },
    {
      type: 'message',
      timestamp: iso(2),
      message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed it.' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', timestamp: at(2).getTime() },
    },
    { type: 'thinking_level_change', timestamp: iso(3), thinkingLevel: 'high' },
    { type: 'compaction', timestamp: iso(4), summary: 'The user renamed the config loader.', firstKeptEntryIndex: 2, tokensBefore: 120_000 },
    { type: 'message', timestamp: iso(5), message: { role: 'user', content: 'now add tests', timestamp: at(5).getTime() } },
  ];
}

/** pi's own v1 → v3 migration on load: random 8-hex ids and a parent chain appended to each entry, the header's version set, the file rewritten (temp + rename). */
function migrateToV3(lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  let previous: string | null = null;
  return lines.map((line, i) => {
    if (line.type === 'session') return { ...line, version: 3 };
    const id = (0x1f2e3d4c + i * 7919).toString(16).slice(-8);
    const out: Record<string, unknown> = { ...line, id, parentId: previous };
    previous = id;
    if (line.type === 'compaction') {
      delete out.firstKeptEntryIndex;
      out.firstKeptEntryId = 'whatever';
    }
    return out;
  });
}

describe('OpenClaw: pi v1 sessions', () => {
  it('keys v1 entries by (header id, line index); the v3 rewrite with random ids stores nothing again; entries after it are stored', async () => {
    h = captureHarness();
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    const file = join(sessions, 'v1-sess.jsonl');
    const v1 = v1Session('v1-sess');
    writeJsonl(file, v1);
    expect(await openclaw(h)).toMatchObject({ read: 1, partsWritten: 4, skipped: { meta_only: 2 } });
    const ids = h.db.prepare("SELECT part_id FROM parts WHERE session_id = 'oc:main:v1-sess' ORDER BY ts").pluck().all();
    expect(ids).toEqual(['oc:main:v1-sess:l1:0', 'oc:main:v1-sess:l2:0', 'oc:main:v1-sess:l4:0', 'oc:main:v1-sess:l5:0']);
    expect(h.db.prepare("SELECT model, cwd FROM sessions WHERE session_id = 'oc:main:v1-sess'").get()).toEqual({ model: 'claude-sonnet-4-5', cwd: '/home/sam/pi-project' });

    // pi loads the session again and rewrites the file as v3.
    writeJsonl(`${file}.tmp`, migrateToV3(v1));
    renameSync(`${file}.tmp`, file);
    expect(await openclaw(h)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'oc:main:v1-sess'")).toBe(4);

    appendJsonl(file, [{ type: 'message', id: 'c0ffee01', parentId: 'whatever', timestamp: iso(6), message: { role: 'assistant', content: [{ type: 'text', text: 'Tests added.' }], stopReason: 'stop', timestamp: at(6).getTime() } }]);
    expect(await openclaw(h)).toMatchObject({ read: 1, partsWritten: 1 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'oc:main:v1-sess'")).toBe(5);
  });

  it('a branched session names its parent (v1 branchedFrom, a path; later parentSession, an id) and stays a conversation', async () => {
    h = captureHarness();
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    writeJsonl(join(sessions, 'root-sess.jsonl'), v1Session('root-sess'));
    writeJsonl(join(sessions, 'branch-a.jsonl'), v1Session('branch-a', { branchedFrom: join(sessions, 'root-sess.jsonl') }));
    writeJsonl(join(sessions, 'branch-b.jsonl'), [{ type: 'session', version: 3, id: 'branch-b', timestamp: iso(0), cwd: '/home/sam/pi-project', parentSession: 'root-sess' }, ...migrateToV3(v1Session('x')).slice(1)]);
    await openclaw(h);
    const parents = h.db.prepare("SELECT session_id AS id, parent_session_id AS parent, parent_kind AS kind FROM sessions WHERE session_id LIKE 'oc:main:branch-%' ORDER BY session_id").all();
    expect(parents).toEqual([
      { id: 'oc:main:branch-a', parent: 'oc:main:root-sess', kind: 'branch' },
      { id: 'oc:main:branch-b', parent: 'oc:main:root-sess', kind: 'branch' },
    ]);
    expect(h.projects.list()).toMatchObject([{ cwd: '/home/sam/pi-project', sessions: 3 }]);
  });
});

describe('OpenClaw: what an entry says', () => {
  it('compaction and branch summaries are parts of their own kinds, and a failed assistant turn is an error part', async () => {
    h = captureHarness();
    const header = { type: 'session', version: 3, id: 'kinds', timestamp: iso(0), cwd: '/home/sam/claw' };
    writeJsonl(join(h.openclawRoot, 'agents', 'main', 'sessions', 'kinds.jsonl'), [
      header,
      { type: 'message', id: 'a0000001', parentId: null, timestamp: iso(1), message: { role: 'user', content: [{ type: 'text', text: 'book the flight' }], timestamp: at(1).getTime() } },
      {
        type: 'message',
        id: 'a0000002',
        parentId: 'a0000001',
        timestamp: iso(2),
        message: { role: 'assistant', content: [], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-4-5', stopReason: 'error', errorMessage: '529 overloaded_error: Overloaded', timestamp: at(2).getTime() },
      },
      { type: 'compaction', id: 'a0000003', parentId: 'a0000002', timestamp: iso(3), summary: 'User is booking a flight to Lyon.', firstKeptEntryId: 'a0000001', tokensBefore: 182_344 },
      { type: 'branch_summary', id: 'a0000004', parentId: 'a0000001', timestamp: iso(4), fromId: 'a0000003', summary: 'An abandoned attempt via Paris.' },
    ]);
    expect(await openclaw(h)).toMatchObject({ partsWritten: 4 });
    const parts = h.db.prepare("SELECT role, kind, text, is_compact_summary AS compact, genuine_user_turn AS genuine FROM parts WHERE session_id = 'oc:main:kinds' ORDER BY ts").all();
    expect(parts).toEqual([
      { role: 'user', kind: 'text', text: 'book the flight', compact: 0, genuine: 1 },
      { role: 'assistant', kind: 'error', text: '529 overloaded_error: Overloaded', compact: 0, genuine: 0 },
      { role: 'system', kind: 'compaction', text: 'User is booking a flight to Lyon.', compact: 1, genuine: 0 },
      { role: 'system', kind: 'branch_summary', text: 'An abandoned attempt via Paris.', compact: 0, genuine: 0 },
    ]);
  });

  it('counts every line that yields no part by reason', async () => {
    h = captureHarness();
    const file = join(h.openclawRoot, 'agents', 'main', 'sessions', 'counted.jsonl');
    const entry = (id: string, role: string, minutes: number) => ({ type: 'message', id, parentId: null, timestamp: iso(minutes), message: { role, content: [{ type: 'text', text: `${role} says` }], timestamp: at(minutes).getTime() } });
    writeJsonl(file, [
      entry('e0000000', 'user', 0),
      { type: 'session', version: 3, id: 'counted', timestamp: iso(0), cwd: '/home/sam/claw' },
      { type: 'model_change', id: 'e0000001', parentId: null, timestamp: iso(1), provider: 'anthropic', modelId: 'claude-opus-4-5' },
      { type: 'thinking_level_change', id: 'e0000002', parentId: 'e0000001', timestamp: iso(1), thinkingLevel: 'low' },
      { type: 'custom', id: 'e0000003', parentId: 'e0000002', timestamp: iso(1), customType: 'model-snapshot', data: {} },
      { type: 'label', id: 'e0000004', parentId: 'e0000003', timestamp: iso(1), targetId: 'e0000001', label: 'start' },
      entry('e0000005', 'user', 2),
      { type: 'message', id: 'e0000006', parentId: 'e0000005', timestamp: iso(3), message: { role: 'a-role-from-the-future', content: 'hm', timestamp: at(3).getTime() } },
      { type: 'a-type-from-the-future', id: 'e0000007', parentId: null, timestamp: iso(3) },
      // OpenClaw moves a tree's tip with a `leaf` entry: a known control entry, not an unknown one.
      { type: 'leaf', id: 'e0000008', parentId: 'e0000007', targetId: 'e0000005' },
      '',
      '{"type":"message","id":"broken',
    ]);
    const stats = await openclaw(h);
    expect(stats).toMatchObject({ partsWritten: 1, failedLines: 1 });
    expect(stats.skipped).toEqual({ no_id: 1, meta_only: 6, unknown_type: 2, empty: 1, malformed: 1 });
    expect(h.db.prepare("SELECT model FROM sessions WHERE session_id = 'oc:main:counted'").pluck().get()).toBe('claude-opus-4-5');
  });
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

/** A session file as pi/OpenClaw writes it: the header, then entries chained by `parentId`. */
function session(c: CaptureHarness, id: string, entries: Array<Record<string, unknown>>, version = 3): string {
  const file = join(c.openclawRoot, 'agents', 'main', 'sessions', `${id}.jsonl`);
  let parent: string | null = null;
  const chained = entries.map((entry) => {
    const out = { parentId: parent, ...entry };
    parent = entry.id as string;
    return out;
  });
  writeJsonl(file, [{ type: 'session', version, id, timestamp: iso(0), cwd: '/home/sam/claw' }, ...chained]);
  return file;
}

const user = (id: string, minutes: number, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'message',
  id,
  timestamp: iso(minutes),
  message: { role: 'user', content, timestamp: at(minutes).getTime(), ...extra },
});

interface Row {
  role: string;
  kind: string;
  text: string | null;
  meta: Record<string, unknown> | null;
  isMeta: number;
  genuine: number;
}

function parts(c: CaptureHarness, sessionId: string): Row[] {
  const rows = c.db
    .prepare('SELECT role, kind, text, meta, is_meta AS isMeta, genuine_user_turn AS genuine FROM parts WHERE session_id = ? ORDER BY ts, part_id')
    .all(sessionId) as Array<Omit<Row, 'meta'> & { meta: string | null }>;
  return rows.map((r) => ({ ...r, meta: r.meta === null ? null : (JSON.parse(r.meta) as Record<string, unknown>) }));
}

const firstRequest = (c: CaptureHarness, sessionId: string) => c.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(sessionId);

describe('OpenClaw: messages that are not user, assistant or tool result', () => {
  it('a command the person ran with `!` (role bashExecution) is a call and its result', async () => {
    h = captureHarness();
    session(h, 'bash', [
      { type: 'message', id: 'b0000001', timestamp: iso(1), message: { role: 'bashExecution', command: 'git status', output: 'On branch main\nnothing to commit', exitCode: 0, cancelled: false, truncated: false, timestamp: at(1).getTime() } },
      {
        type: 'message',
        id: 'b0000002',
        timestamp: iso(2),
        message: { role: 'bashExecution', command: 'npm test', output: '1 failing', exitCode: 1, cancelled: false, truncated: true, fullOutputPath: '/tmp/pi-bash-1.log', excludeFromContext: true, timestamp: at(2).getTime() },
      },
    ]);
    const stats = await openclaw(h);
    expect(stats).toMatchObject({ partsWritten: 4 });
    expect(stats.skipped?.unknown_type).toBeUndefined();
    expect(parts(h, 'oc:main:bash')).toEqual([
      { role: 'user', kind: 'tool_use', text: '{"command":"git status"}', meta: { name: 'bash' }, isMeta: 0, genuine: 0 },
      { role: 'user', kind: 'tool_result', text: 'On branch main\nnothing to commit', meta: { name: 'bash', exitCode: 0 }, isMeta: 0, genuine: 0 },
      { role: 'user', kind: 'tool_use', text: '{"command":"npm test"}', meta: { name: 'bash', excludeFromContext: true }, isMeta: 0, genuine: 0 },
      { role: 'user', kind: 'tool_result', text: '1 failing', meta: { name: 'bash', isError: true, exitCode: 1, agentTruncated: true }, isMeta: 0, genuine: 0 },
    ]);
  });

  it("an extension's message (custom_message, role custom, v2 hookMessage) is stored but is not the person's turn", async () => {
    h = captureHarness();
    session(h, 'ext-v3', [
      { type: 'custom_message', id: 'c0000001', timestamp: iso(1), customType: 'skill', content: 'Base context the skill injected', display: true },
      { type: 'custom_message', id: 'c0000002', timestamp: iso(2), customType: 'image-context', content: [{ type: 'text', text: 'hidden screenshot' }, { type: 'image', data: PNG, mimeType: 'image/png' }], display: false },
      { type: 'message', id: 'c0000003', timestamp: iso(3), message: { role: 'custom', customType: 'todo', content: 'Open todos: 2', display: true, timestamp: at(3).getTime() } },
      user('c0000004', 4, 'fix the login bug'),
    ]);
    session(h, 'ext-v2', [{ type: 'message', id: 'd0000001', timestamp: iso(1), message: { role: 'hookMessage', customType: 'reminder', content: [{ type: 'text', text: 'Remember the style guide' }], display: true, timestamp: at(1).getTime() } }], 2);
    const stats = await openclaw(h);
    expect(stats).toMatchObject({ partsWritten: 6 });
    expect(parts(h, 'oc:main:ext-v3')).toEqual([
      { role: 'user', kind: 'text', text: 'Base context the skill injected', meta: { customType: 'skill' }, isMeta: 1, genuine: 0 },
      { role: 'user', kind: 'text', text: 'hidden screenshot', meta: { customType: 'image-context', display: false }, isMeta: 1, genuine: 0 },
      { role: 'user', kind: 'image', text: null, meta: expect.objectContaining({ media_type: 'image/png', bytes: 16, customType: 'image-context', display: false }) as unknown, isMeta: 1, genuine: 0 },
      { role: 'user', kind: 'text', text: 'Open todos: 2', meta: { customType: 'todo' }, isMeta: 1, genuine: 0 },
      { role: 'user', kind: 'text', text: 'fix the login bug', meta: null, isMeta: 0, genuine: 1 },
    ]);
    expect(firstRequest(h, 'oc:main:ext-v3')).toBe('fix the login bug');
    expect(parts(h, 'oc:main:ext-v2')).toEqual([{ role: 'user', kind: 'text', text: 'Remember the style guide', meta: { customType: 'reminder' }, isMeta: 1, genuine: 0 }]);
  });

  it("a user message OpenClaw routed from another session or from itself is not the person's; the envelope stays out of the first request", async () => {
    h = captureHarness();
    session(h, 'routed', [
      user('r0000001', 1, 'The queue is clear.', { provenance: { kind: 'inter_session', sourceTool: 'sessions_send', sourceSessionKey: 'agent:main:cron:daily-report' } }),
      user('r0000002', 2, [{ type: 'text', text: 'Read HEARTBEAT.md if it exists.' }], { provenance: { kind: 'internal_system', sourceTool: 'heartbeat' } }),
      user('r0000003', 3, [{ type: 'text', text: "[Telegram Sam +2m Wed 2026-04-08 03:03 GMT+2] what's on my calendar tomorrow?" }], { provenance: { kind: 'external_user' } }),
    ]);
    await openclaw(h);
    expect(parts(h, 'oc:main:routed').map(({ text, meta, isMeta, genuine }) => ({ text, meta, isMeta, genuine }))).toEqual([
      { text: 'The queue is clear.', meta: { provenance: 'inter_session', sourceTool: 'sessions_send' }, isMeta: 1, genuine: 0 },
      { text: 'Read HEARTBEAT.md if it exists.', meta: { provenance: 'internal_system', sourceTool: 'heartbeat' }, isMeta: 1, genuine: 0 },
      // The part keeps what was written; only the session's first request drops the envelope.
      { text: "[Telegram Sam +2m Wed 2026-04-08 03:03 GMT+2] what's on my calendar tomorrow?", meta: null, isMeta: 0, genuine: 1 },
    ]);
    expect(firstRequest(h, 'oc:main:routed')).toBe("what's on my calendar tomorrow?");
  });
});

describe('OpenClaw: content blocks as pi-ai writes them', () => {
  it('thinking with a signature, redacted thinking, toolCall arguments, a tool result with an image and an error, Responses-style text', async () => {
    h = captureHarness();
    session(h, 'blocks', [
      user('f0000001', 1, ['plain string in an array', { type: 'image', data: PNG, mimeType: 'image/png' }]),
      {
        type: 'message',
        id: 'f0000002',
        timestamp: iso(2),
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Take a screenshot first.', thinkingSignature: 'EqQBCkYIBxgCKkB' },
            { type: 'thinking', thinking: '', thinkingSignature: 'opaque-encrypted', redacted: true },
            { type: 'toolCall', id: 'toolu_01', name: 'browser', arguments: { action: 'screenshot', url: 'http://localhost:3000' } },
          ],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-opus-4-5',
          usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: 'toolUse',
          timestamp: at(2).getTime(),
        },
      },
      {
        type: 'message',
        id: 'f0000003',
        timestamp: iso(3),
        message: { role: 'toolResult', toolCallId: 'toolu_01', toolName: 'browser', content: [{ type: 'text', text: 'page failed to load' }, { type: 'image', data: PNG, mimeType: 'image/png' }], details: { status: 500 }, isError: true, timestamp: at(3).getTime() },
      },
      { type: 'message', id: 'f0000004', timestamp: iso(4), message: { role: 'assistant', content: [{ type: 'output_text', text: 'The page returns 500.' }], model: 'gpt-5', stopReason: 'stop', timestamp: at(4).getTime() } },
    ]);
    await openclaw(h);
    const rows = parts(h, 'oc:main:blocks').map(({ role, kind, text, meta }) => ({ role, kind, text, meta }));
    const image = { media_type: 'image/png', bytes: 16, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown };
    expect(rows).toEqual([
      { role: 'user', kind: 'text', text: 'plain string in an array', meta: null },
      { role: 'user', kind: 'image', text: null, meta: image },
      { role: 'assistant', kind: 'thinking', text: 'Take a screenshot first.', meta: { model: 'claude-opus-4-5' } },
      { role: 'assistant', kind: 'thinking', text: '', meta: { redacted: true, model: 'claude-opus-4-5' } },
      { role: 'assistant', kind: 'tool_use', text: '{"action":"screenshot","url":"http://localhost:3000"}', meta: { name: 'browser', toolUseId: 'toolu_01', model: 'claude-opus-4-5' } },
      { role: 'toolResult', kind: 'tool_result', text: 'page failed to load', meta: { toolUseId: 'toolu_01', name: 'browser', isError: true } },
      { role: 'toolResult', kind: 'image', text: null, meta: { ...image, toolUseId: 'toolu_01', name: 'browser', isError: true } },
      { role: 'assistant', kind: 'text', text: 'The page returns 500.', meta: { model: 'gpt-5' } },
    ]);
    expect(JSON.stringify(rows)).not.toContain(PNG);
  });
});

describe('OpenClaw: what names a session', () => {
  it('the name a person set (/name, session_info) titles the session, the latest one wins, and an appended rename reaches it', async () => {
    h = captureHarness();
    const file = session(h, 'named', [
      user('n0000001', 1, 'refactor the auth module'),
      { type: 'session_info', id: 'n0000002', timestamp: iso(2), name: 'Auth refactor' },
      { type: 'session_info', id: 'n0000003', timestamp: iso(3), name: 'Auth refactor, part 1' },
    ]);
    await openclaw(h);
    const title = () => h!.db.prepare("SELECT title, title_source AS source, cwd FROM sessions WHERE session_id = 'oc:main:named'").get();
    expect(title()).toEqual({ title: 'Auth refactor, part 1', source: 'custom-title', cwd: '/home/sam/claw' });
    appendJsonl(file, [{ type: 'session_info', id: 'n0000004', parentId: 'n0000003', timestamp: iso(4), name: 'Auth refactor (done)' }]);
    await openclaw(h);
    expect(title()).toMatchObject({ title: 'Auth refactor (done)', source: 'custom-title' });
  });
});
