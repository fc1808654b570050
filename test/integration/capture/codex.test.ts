import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkipReason } from '../../../core/api/index.js';
import { SearchIndex } from '../../../core/gateway/index.js';
import { CodexProvider } from '../../../core/transcripts/providers/codex/index.js';
import type { LineStats, TranscriptBatch, TranscriptFile } from '../../../core/transcripts/index.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
const MODERN = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const BARE = 'rollout-2025-08-20T11-12-03-5a3f1c2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b.jsonl';
const FORK = 'rollout-2026-07-13T19-20-00-019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c.jsonl';
const MODERN_ID = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const FORK_ID = '019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c';
/** A current rollout (0.151): a bundled first-turn context, a skill, a worker agent, goal and warning notes. */
const AGENTS = join('current', 'rollout-2026-08-02T09-15-00-019f6a10-3c4d-7e5f-8a9b-0c1d2e3f4a5b.jsonl');
const AGENTS_ID = '019f6a10-3c4d-7e5f-8a9b-0c1d2e3f4a5b';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** An open retention window: the fixtures carry their real (past) timestamps. */
const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });

function place(root: string, fixture: string, folder = join('sessions', '2026', '07', '13'), name = basename(fixture)): string {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, name);
  copyFileSync(join(FIXTURES, fixture), target);
  return target;
}

interface PartRow {
  part_id: string;
  session_id: string;
  role: string;
  kind: string;
  text: string | null;
  meta: string | null;
}

const partsOf = (harness: CaptureHarness, sessionId: string) =>
  harness.db.prepare('SELECT part_id, session_id, role, kind, text, meta FROM parts WHERE session_id = ? ORDER BY ts, part_id').all(sessionId) as PartRow[];

/** Reads one file straight through the provider, for the per-line accounting the run does not report yet. */
async function readDirect(path: string): Promise<{ batches: TranscriptBatch[]; stats: LineStats }> {
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'codex' };
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const batches: TranscriptBatch[] = [];
  for await (const batch of new CodexProvider([]).read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 250 }, stats)) batches.push(batch);
  return { batches, stats };
}

/** A rollout in the 0.46 shape (transcript-formats §3.1) whose messages hold plain strings in their content arrays. */
const STRING_ID = '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5';
function writeStringRollout(root: string): string {
  const line = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
  const lines = [
    line('2025-10-29T00:59:38.317Z', 'session_meta', { id: STRING_ID, timestamp: '2025-10-29T00:59:38.308Z', cwd: '/home/ana/proj', originator: 'codex_cli_rs', cli_version: '0.46.0', instructions: null, source: 'cli', git: { branch: 'main' } }),
    line('2025-10-29T00:59:38.317Z', 'turn_context', { cwd: '/home/ana/proj', approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: 'gpt-5-codex', effort: 'high', summary: 'auto' }),
    line('2025-10-29T00:59:38.317Z', 'response_item', { type: 'message', role: 'user', content: ['<environment_context>\n  <cwd>/home/ana/proj</cwd>\n</environment_context>'] }),
    line('2025-10-29T00:59:38.318Z', 'response_item', { type: 'message', role: 'user', content: ['run the tests'] }),
    line('2025-10-29T00:59:53.101Z', 'response_item', { type: 'message', role: 'assistant', content: ['12 passing.'] }),
  ];
  const path = join(mkdirp(join(root, 'sessions', '2025', '10', '29')), `rollout-2025-10-29T00-59-38-${STRING_ID}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const skippedTotal = (stats: LineStats) => Object.values(stats.skipped ?? {}).reduce((a, b) => a + b, 0);

describe('Codex CLI provider', () => {
  it('stores messages, reasoning summaries, tool calls and results of a rollout; harness context and UI events are not the conversation', async () => {
    h = openWindow();
    place(h.codexRoot, MODERN);
    const stats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ discovered: 1, read: 1, failed: 0, failedLines: 0, partsWritten: 11 });

    const parts = partsOf(h, MODERN_ID);
    expect(parts.map((p) => [p.role, p.kind])).toEqual([
      ['user', 'text'],
      ['assistant', 'thinking'],
      ['assistant', 'tool_use'],
      ['tool', 'tool_result'],
      ['assistant', 'tool_use'],
      ['tool', 'tool_result'],
      ['assistant', 'tool_use'],
      ['tool', 'tool_result'],
      ['assistant', 'tool_use'],
      ['assistant', 'text'],
      ['assistant', 'compaction'],
    ]);
    // The user's words only: AGENTS.md, <environment_context> and the developer's permissions are harness context.
    expect(parts.filter((p) => p.role === 'user').map((p) => p.text)).toEqual(['Add exponential backoff to upload() and run the tests']);
    expect(parts.some((p) => /AGENTS\.md|environment_context|permissions instructions/.test(p.text ?? ''))).toBe(false);
    // The agent's message is stored once, though event_msg mirrors it.
    expect(parts.filter((p) => p.text?.startsWith('Backoff is in place'))).toHaveLength(1);
    const [shell, patch, tests, search] = parts.filter((p) => p.kind === 'tool_use');
    expect(JSON.parse(shell!.text!)).toEqual({ command: 'sed -n 1,80p src/upload.ts', workdir: '/home/ana/src/uploader' });
    expect(JSON.parse(shell!.meta!)).toMatchObject({ name: 'shell_command', toolUseId: 'call_7Hq2' });
    expect(patch!.text).toContain('*** Begin Patch');
    expect(JSON.parse(patch!.meta!)).toMatchObject({ name: 'apply_patch', toolUseId: 'call_Pz81', status: 'completed' });
    expect(JSON.parse(tests!.meta!)).toMatchObject({ toolUseId: 'call_Tt03' });
    expect(JSON.parse(search!.meta!)).toMatchObject({ name: 'web_search' });
    const results = parts.filter((p) => p.kind === 'tool_result').map((p) => JSON.parse(p.meta!) as { toolUseId: string; isError?: boolean });
    expect(results).toEqual([{ toolUseId: 'call_7Hq2' }, { toolUseId: 'call_Pz81' }, { toolUseId: 'call_Tt03', isError: true }]);
    // Every part id is keyed by its line's bytes (which carry the line's own timestamp), never by the path.
    for (const p of parts) expect(p.part_id).toMatch(/^cx:[0-9a-f]{24}:\d+$/);

    const session = h.db.prepare('SELECT provider, source, cwd, project_key, parent_session_id, model FROM sessions WHERE session_id = ?').get(MODERN_ID);
    // The model is the one the turn context names.
    expect(session).toMatchObject({ provider: 'codex', source: 'codex', cwd: '/home/ana/src/uploader', parent_session_id: null, model: 'gpt-5.6-sol' });
    expect(h.projects.list().map((p) => p.name)).toEqual(['uploader']);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 0, unchanged: 1, partsWritten: 0 });
  });

  it('a shell output in text form marks a failed call by its header, never by what the command printed', async () => {
    h = openWindow();
    const id = '019f7b20-1a2b-7c3d-8e4f-5a6b7c8d9e0f';
    const line = (second: number, type: string, payload: unknown) => JSON.stringify({ timestamp: `2026-08-03T10:00:${String(second).padStart(2, '0')}.000Z`, type, payload });
    const call = (second: number, callId: string, name: string) => line(second, 'response_item', { type: 'function_call', name, arguments: JSON.stringify({ cmd: 'npm test' }), call_id: callId });
    const output = (second: number, callId: string, text: string) => line(second, 'response_item', { type: 'function_call_output', call_id: callId, output: text });
    const lines = [
      line(0, 'session_meta', { id, timestamp: '2026-08-03T10:00:00.000Z', cwd: '/home/ana/src/uploader', originator: 'codex_cli_rs', cli_version: '0.80.0', source: 'cli' }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] }),
      // Unified exec: a process that exited non-zero, one that exited 0 printing an exit code, one still running.
      call(2, 'call_u1', 'exec_command'),
      output(3, 'call_u1', 'Chunk ID: 5f1e\nWall time: 0.0512 seconds\nProcess exited with code 2\nOriginal token count: 9\nOutput:\nrg: nope: No such file\n'),
      call(4, 'call_u2', 'exec_command'),
      output(5, 'call_u2', 'Chunk ID: 6a2f\nWall time: 1.2000 seconds\nProcess exited with code 0\nOriginal token count: 12\nOutput:\nExit code: 1\nProcess exited with code 3\n'),
      call(6, 'call_u3', 'exec_command'),
      output(7, 'call_u3', 'Chunk ID: 7b30\nWall time: 10.0000 seconds\nProcess running with session ID 4\nOriginal token count: 3\nOutput:\nwatching\n'),
      // The freeform shell's header.
      call(8, 'call_f1', 'shell'),
      output(9, 'call_f1', 'Exit code: 1\nWall time: 0.3 seconds\nOutput:\n1 failing\n'),
      call(10, 'call_f2', 'shell'),
      output(11, 'call_f2', 'Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok\n'),
    ];
    writeFileSync(join(mkdirp(join(h.codexRoot, 'sessions', '2026', '08', '03')), `rollout-2026-08-03T10-00-00-${id}.jsonl`), `${lines.join('\n')}\n`);
    await h.driver.tick();
    const results = partsOf(h, id)
      .filter((p) => p.kind === 'tool_result')
      .map((p) => JSON.parse(p.meta!) as { toolUseId: string; isError?: boolean });
    expect(results).toEqual([{ toolUseId: 'call_u1', isError: true }, { toolUseId: 'call_u2' }, { toolUseId: 'call_u3' }, { toolUseId: 'call_f1', isError: true }, { toolUseId: 'call_f2' }]);
  });

  it('counts every line that yields no part, by reason', async () => {
    h = openWindow();
    const { batches, stats } = await readDirect(place(h.codexRoot, MODERN));
    const partLines = new Set(batches.flatMap((b) => b.parts.map((p) => p.partId.slice(0, p.partId.lastIndexOf(':')))));
    expect(stats.lines).toBe(25);
    expect(partLines.size + skippedTotal(stats)).toBe(stats.lines);
    const expected: Partial<Record<SkipReason, number>> = {
      // session_meta, world_state, turn_context, 7 event_msg, 3 harness messages, 1 encrypted-only reasoning, the state marker
      meta_only: 14,
    };
    expect(stats.skipped).toEqual(expected);
  });

  it("a plain string in a message's content array is text: the person's words and the session's first request", async () => {
    h = openWindow();
    const path = writeStringRollout(h.codexRoot);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 2 });
    const parts = h.db.prepare('SELECT role, kind, text, genuine_user_turn AS g FROM parts WHERE session_id = ? ORDER BY ts').all(STRING_ID);
    expect(parts).toEqual([
      { role: 'user', kind: 'text', text: 'run the tests', g: 1 },
      { role: 'assistant', kind: 'text', text: '12 passing.', g: 0 },
    ]);
    expect(h.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(STRING_ID)).toBe('run the tests');
    // The harness context written as a string is context all the same: counted, not the person's words.
    const { stats } = await readDirect(path);
    expect(stats.skipped).toEqual({ meta_only: 3 });
  });

  it('a store parser version 4 wrote, with such a string as an unknown block {}, is rewritten when the rollout is read again', async () => {
    h = openWindow();
    writeStringRollout(h.codexRoot);
    await h.driver.tick();
    // What version 4 stored (and indexed): the string as `{}`, not the person's words, no first request.
    const index = new SearchIndex(h.db);
    const rowid = h.db.prepare("SELECT rowid FROM parts WHERE text = 'run the tests'").pluck().get() as number;
    index.removeParts([rowid]);
    h.db.prepare("UPDATE parts SET kind = 'unknown', text = '{}', genuine_user_turn = 0 WHERE rowid = ?").run(rowid);
    index.indexParts([rowid]);
    h.db.prepare('UPDATE sessions SET first_request = NULL WHERE session_id = ?').run(STRING_ID);
    h.db.prepare("UPDATE file_checkpoints SET parser_version = 4 WHERE provider = 'codex'").run();
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, partsWritten: 0 });
    expect(h.db.prepare('SELECT kind, text, genuine_user_turn AS g FROM parts WHERE rowid = ?').get(rowid)).toEqual({ kind: 'text', text: 'run the tests', g: 1 });
    expect(h.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(STRING_ID)).toBe('run the tests');
    h.db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
    expect(h.db.prepare("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH 'tests'").pluck().get()).toBe(1);
  });

  it("the context current Codex writes as user messages is not the person's words: plugin lists, skills, subagent and goal notes, warnings", async () => {
    h = openWindow();
    place(h.codexRoot, AGENTS, join('sessions', '2026', '08', '02'));
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, failedLines: 0 });
    const words = 'Use $release to cut 1.4.0';
    expect(h.db.prepare("SELECT text FROM parts WHERE session_id = ? AND role = 'user'").pluck().all(AGENTS_ID)).toEqual([words]);
    expect(h.db.prepare('SELECT text FROM parts WHERE session_id = ? AND genuine_user_turn = 1').pluck().all(AGENTS_ID)).toEqual([words]);
    expect(h.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(AGENTS_ID)).toBe(words);
  });

  it('a message between agents is stored with who sent it to whom, not counted as an unknown item', async () => {
    h = openWindow();
    const { batches, stats } = await readDirect(place(h.codexRoot, AGENTS, join('sessions', '2026', '08', '02')));
    expect(stats.skipped?.unknown_type).toBeUndefined();
    const parts = batches.flatMap((b) => b.parts).filter((p) => p.kind === 'agent_message');
    expect(parts.map((p) => [p.role, p.text, p.flags])).toEqual([['system', 'Changelog drafted: 3 fixes, 1 feature.', 0]]);
    expect(JSON.parse(parts[0]!.meta!)).toMatchObject({ author: '/root/worker', recipient: '/root' });
  });

  it('a rollout moved to archived_sessions/ keeps its identity: the move adds nothing and reads nothing, after a restart too', async () => {
    h = openWindow();
    const live = place(h.codexRoot, MODERN);
    expect(byProvider(await h.driver.tick(), 'codex').partsWritten).toBe(11);
    const before = partsOf(h, MODERN_ID);
    mkdirSync(join(h.codexRoot, 'archived_sessions'));
    renameSync(live, join(h.codexRoot, 'archived_sessions', MODERN));

    // Its checkpoint goes with it (the same device and inode at a new path, the old one gone).
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 1, read: 0, unchanged: 1, partsWritten: 0, bytesRead: 0 });
    expect(partsOf(h, MODERN_ID)).toEqual(before);
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    // An append to the archived copy is a change like any other.
    writeFileSync(
      join(h.codexRoot, 'archived_sessions', MODERN),
      `${readFileSync(join(h.codexRoot, 'archived_sessions', MODERN), 'utf8')}${JSON.stringify({ timestamp: '2026-07-14T08:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one more thing' }] } })}\n`,
    );
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, partsWritten: 1 });
  });

  it('a rollout Codex compressed once it went cold (.jsonl.zst) is the same rollout: its parts are the ones already stored', async () => {
    h = openWindow();
    const live = place(h.codexRoot, MODERN);
    expect(byProvider(await h.driver.tick(), 'codex').partsWritten).toBe(11);
    rmSync(live);
    const cold = place(h.codexRoot, join('cold', `${MODERN}.zst`));
    // Its compressed bytes are counted as read, as a line file's are.
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 1, read: 1, failed: 0, failedLines: 0, partsWritten: 0, bytesRead: statSync(cold).size });
    // Read on its own, it yields the same parts.
    const { batches, stats } = await readDirect(join(h.codexRoot, 'sessions', '2026', '07', '13', `${MODERN}.zst`));
    expect(batches.flatMap((b) => b.parts.map((p) => p.partId)).sort()).toEqual(partsOf(h, MODERN_ID).map((p) => p.part_id).sort());
    expect(stats.lines).toBe(25);
  });

  it('a rollout written with CRLF line ends reads the same live and compressed: the same parts, the blank line counted empty in both', async () => {
    h = openWindow();
    const live = place(h.codexRoot, join('crlf', MODERN));
    const first = byProvider(await h.driver.tick(), 'codex');
    expect(first).toMatchObject({ read: 1, partsWritten: 11 });
    const plain = await readDirect(live);
    rmSync(live);
    place(h.codexRoot, join('crlf', `${MODERN}.zst`));
    // The cold copy is the rollout already stored: nothing new, nothing counted malformed.
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 0 });
    const cold = await readDirect(join(h.codexRoot, 'sessions', '2026', '07', '13', `${MODERN}.zst`));
    expect(cold.stats.skipped).toEqual(plain.stats.skipped);
    expect(cold.stats.skipped?.empty).toBe(1);
    expect(cold.batches.flatMap((b) => b.parts.map((p) => [p.partId, p.text]))).toEqual(plain.batches.flatMap((b) => b.parts.map((p) => [p.partId, p.text])));
  });

  it('a forked rollout replays its parent: the copies collapse onto the parent, the fork keeps its own turns and names its parent', async () => {
    h = openWindow();
    place(h.codexRoot, MODERN);
    place(h.codexRoot, FORK);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 2, partsWritten: 11 + 2 });
    expect(partsOf(h, FORK_ID).map((p) => p.text)).toEqual(['Instead, make the retry count configurable', 'Done: UPLOAD_ATTEMPTS sets it.']);
    expect(h.db.prepare('SELECT parent_session_id, cwd FROM sessions WHERE session_id = ?').get(FORK_ID)).toEqual({ parent_session_id: MODERN_ID, cwd: '/home/ana/src/uploader' });
  });

  it('reads the oldest rollouts: a bare meta line, bare items, state markers, the cwd from <environment_context>', async () => {
    h = openWindow();
    place(h.codexRoot, BARE, 'sessions', BARE);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 1, read: 1, failedLines: 0, partsWritten: 5 });
    const id = '5a3f1c2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b';
    expect(partsOf(h, id).map((p) => `${p.role} ${p.kind} ${p.text?.slice(0, 24)}`).sort()).toEqual([
      'assistant text A module import is wrong',
      'assistant thinking **Checking the build scr',
      'assistant tool_use {"command":["bash","-lc"',
      'tool tool_result {"output":"error TS2307:',
      'user text why does the build fail?',
    ]);
    // No line has a timestamp: every part takes the session's start.
    expect(h.db.prepare('SELECT DISTINCT ts FROM parts WHERE session_id = ?').pluck().all(id)).toEqual([Date.parse('2025-08-20T09:12:03.512Z')]);
    expect(h.db.prepare('SELECT cwd FROM sessions WHERE session_id = ?').pluck().get(id)).toBe('/home/ana/src/legacy-tool');
  });

  it('the oldest rollouts have no timestamps: the same words typed twice are two parts, and two sessions never share one', async () => {
    h = openWindow();
    const yes = JSON.stringify({ type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'yes' }] });
    for (const id of ['0198aaaa-0000-4000-8000-000000000001', '0198aaaa-0000-4000-8000-000000000002']) {
      const meta = JSON.stringify({ id, timestamp: '2025-08-01T10:00:00.000Z', instructions: null });
      writeFileSync(join(mkdirp(join(h.codexRoot, 'sessions')), `rollout-2025-08-01T12-00-00-${id}.jsonl`), [meta, yes, '{"record_type":"state"}', yes].join('\n') + '\n');
    }
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 2, partsWritten: 4 });
  });

  it('a rollout whose lines name no session is the session its file name carries', async () => {
    h = openWindow();
    const name = 'rollout-2026-08-01T10-00-00-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000.jsonl';
    const dir = join(h.codexRoot, 'sessions', '2026', '08', '01');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, name),
      `${JSON.stringify({ timestamp: '2026-08-01T08:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } })}\n`,
    );
    expect(byProvider(await h.driver.tick(), 'codex').partsWritten).toBe(1);
    expect(h.db.prepare("SELECT session_id FROM parts WHERE provider = 'codex'").pluck().all()).toEqual(['0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000']);
  });

  it('reads the agentsview fixtures: payloads without a type, arguments as objects, repeated call ids', async () => {
    h = openWindow();
    for (const name of ['standard_session.jsonl', 'function_calls.jsonl', 'fc_args_2.jsonl', 'blockquotes_session.jsonl']) place(h.codexRoot, join('agentsview', name), 'sessions', `rollout-${name}`);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 4, failedLines: 0, partsWritten: 2 + 3 + 2 + 2 });
    expect(partsOf(h, 'abc-123').map((p) => [p.role, p.text])).toEqual([
      ['user', 'Add rate limiting'],
      ['assistant', "I'll add rate limiting to the API."],
    ]);
    expect(h.db.prepare('SELECT cwd FROM sessions WHERE session_id = ?').pluck().get('abc-123')).toBe('/Users/alice/code/my-api');
    // Two calls that share a call id are two parts.
    expect(partsOf(h, 'fc-1').filter((p) => p.kind === 'tool_use').map((p) => (JSON.parse(p.meta!) as { name: string }).name)).toEqual(['shell_command', 'apply_patch']);
    expect(JSON.parse(partsOf(h, 'fc-args-2').find((p) => p.kind === 'tool_use')!.text!)).toMatchObject({ patch: expect.stringContaining('*** Begin Patch') });
    expect(partsOf(h, 'quote-123').filter((p) => p.role === 'assistant')).toHaveLength(1);
  });

  it('finds the thread name Codex keeps in session_index.jsonl', async () => {
    h = openWindow();
    place(h.codexRoot, MODERN);
    writeFileSync(
      join(h.codexRoot, 'session_index.jsonl'),
      [
        { id: MODERN_ID, thread_name: 'Uploader backoff', updated_at: '2026-07-13T16:42:00Z' },
        { id: 'someone-else', thread_name: 'Other', updated_at: '2026-07-13T16:43:00Z' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    await h.driver.tick();
    expect(h.db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get(MODERN_ID)).toBe('Uploader backoff');
    // A thread Codex does not hold here is not made from its name alone.
    expect(h.db.prepare('SELECT COUNT(*) FROM sessions WHERE session_id = ?').pluck().get('someone-else')).toBe(0);
  });

  it('a thread renamed after its rollout was read takes the new name, and only the index is read again', async () => {
    h = openWindow();
    place(h.codexRoot, MODERN);
    const index = join(h.codexRoot, 'session_index.jsonl');
    writeFileSync(index, `${JSON.stringify({ id: MODERN_ID, thread_name: 'Uploader backoff', updated_at: '2026-07-13T16:42:00Z' })}\n`);
    await h.driver.tick();
    const before = statSync(index).size;
    // Codex appends a line per rename; the last one wins.
    writeFileSync(index, `${readFileSync(index, 'utf8')}${JSON.stringify({ id: MODERN_ID, thread_name: 'Retry with jitter', updated_at: '2026-07-14T09:00:00Z' })}\n`);
    const renamed = byProvider(await h.driver.tick(), 'codex');
    // The index is read, and counted as no transcript: one rollout, unchanged.
    expect(renamed).toMatchObject({ discovered: 1, read: 0, unchanged: 1, partsWritten: 0 });
    // The rollout is not read again: only the index's new line (and the bytes that vouch for where it resumed).
    expect(renamed.bytesRead).toBeLessThan(statSync(index).size - before + 64 * 1024);
    expect(renamed.bytesRead).toBeLessThan(statSync(index).size + 64 * 1024);
    expect(h.db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get(MODERN_ID)).toBe('Retry with jitter');
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });
});
