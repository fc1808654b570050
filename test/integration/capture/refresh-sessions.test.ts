import { appendFileSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Materializer, Sink, Spool } from '../../../core/gateway/index.js';
import { CODEX_PARSER_VERSION } from '../../../core/transcripts/providers/codex/provider.js';
import { PART_FLAGS, type PartRow, type SessionRow, type TranscriptBatch } from '../../../core/transcripts/index.js';
import { partRow, sessionRow } from '../../support/rows.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A read of a whole file from its start (a newer parser's, after its version changed) rewrites the
 * parts it holds; the session row follows: its first request is what a fresh import of the same
 * files keeps, even none (a subagent's prompt is the main agent's, not the person's words).
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const GEMINI_PARENT = '92f625c6-a764-48e3-b922-3766d41f9c4c';
const GEMINI_SUBAGENT = 'e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b';
const GEMINI_PROMPT = 'Find every caller of upload()';
const CODEX_PARENT = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const CODEX_SPAWNED = '019f5c6b-1a20-7b55-9d12-0e9f8a7b6c5d';
const CODEX_PROMPT = 'List every retry helper in the repository';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An open retention window: the fixtures carry their real (past) timestamps. */
const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A Gemini chat and the subagent it ran (a chat of its own in a folder named after its parent). */
function geminiChats(root: string): void {
  const chats = join(root, 'tmp', 'site', 'chats');
  write(join(chats, 'session-2026-05-22T14-59-92f625c6.jsonl'), readFileSync(join(FIXTURES, 'gemini', 'current-session.jsonl'), 'utf8'));
  write(join(chats, GEMINI_PARENT, `${GEMINI_SUBAGENT}.jsonl`), readFileSync(join(FIXTURES, 'gemini', 'subagent-session.jsonl'), 'utf8'));
}

const codexLine = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
const said = (timestamp: string, role: string, text: string) =>
  codexLine(timestamp, 'response_item', { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] });

/** A Codex rollout and a thread it spawned: a rollout of its own whose meta names the parent thread. */
function codexRollouts(root: string): { parent: string; spawned: string } {
  const day = join(root, 'sessions', '2026', '07', '13');
  mkdirSync(day, { recursive: true });
  const parent = join(day, `rollout-2026-07-13T18-41-30-${CODEX_PARENT}.jsonl`);
  copyFileSync(join(FIXTURES, 'codex', `rollout-2026-07-13T18-41-30-${CODEX_PARENT}.jsonl`), parent);
  const meta = {
    id: CODEX_SPAWNED,
    timestamp: '2026-07-13T16:45:00.001Z',
    cwd: '/home/ana/src/uploader',
    originator: 'codex-tui',
    source: { subagent: { thread_spawn: { parent_thread_id: CODEX_PARENT, depth: 1, agent_role: 'explorer' } } },
    model_provider: 'openai',
  };
  const lines = [
    codexLine('2026-07-13T16:45:00.010Z', 'session_meta', meta),
    said('2026-07-13T16:45:01.000Z', 'user', CODEX_PROMPT),
    said('2026-07-13T16:45:05.000Z', 'assistant', 'One retry helper: withJitter in src/retry.ts.'),
  ];
  const spawned = write(join(day, `rollout-2026-07-13T18-45-00-${CODEX_SPAWNED}.jsonl`), `${lines.join('\n')}\n`);
  return { parent, spawned };
}

/** Every column a read decides, for every session of a provider (updated_at is when, not what). */
const sessionRows = (harness: CaptureHarness, provider: string) =>
  harness.db
    .prepare(
      'SELECT session_id, provider, source, project_key, cwd, project_cwd, parent_session_id, parent_kind, agent_type, title, title_source, model, first_request, first_ts, last_ts FROM sessions WHERE provider = ? ORDER BY session_id',
    )
    .all(provider);

const firstRequest = (harness: CaptureHarness, sessionId: string) => harness.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(sessionId);

/** What a parser before subagents' prompts were side-chain parts stored: the prompt as the person's words and the subagent's first request. */
function storeAsOlderParser(harness: CaptureHarness, provider: string, subagent: string, prompt: string, version: number): void {
  harness.db.prepare('UPDATE parts SET genuine_user_turn = (role = ?), is_sidechain = 0 WHERE session_id = ?').run('user', subagent);
  harness.db.prepare('UPDATE sessions SET first_request = ? WHERE session_id = ?').run(prompt, subagent);
  harness.db.prepare('UPDATE file_checkpoints SET parser_version = ? WHERE provider = ?').run(version, provider);
}

describe('a re-read by a newer parser: the session row is a fresh import’s', () => {
  it("a Gemini subagent an older parser gave the agent's prompt as its first request has none after the re-read, as a fresh import", async () => {
    h = openWindow();
    geminiChats(h.geminiRoot);
    await h.driver.tick();
    const fresh = sessionRows(h, 'gemini');
    expect(firstRequest(h, GEMINI_SUBAGENT)).toBeNull();
    expect(firstRequest(h, GEMINI_PARENT)).toBe('run the tests and fix what fails');

    storeAsOlderParser(h, 'gemini', GEMINI_SUBAGENT, GEMINI_PROMPT, 3);
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 2, partsWritten: 0 });
    expect(h.count('SELECT COUNT(*) FROM parts WHERE session_id = ? AND genuine_user_turn = 1', GEMINI_SUBAGENT)).toBe(0);
    expect(sessionRows(h, 'gemini')).toEqual(fresh);
  });

  it("a Codex spawned thread an older parser gave the agent's prompt as its first request has none after the re-read, as a fresh import", async () => {
    h = openWindow();
    codexRollouts(h.codexRoot);
    await h.driver.tick();
    const fresh = sessionRows(h, 'codex');
    expect(firstRequest(h, CODEX_SPAWNED)).toBeNull();

    storeAsOlderParser(h, 'codex', CODEX_SPAWNED, CODEX_PROMPT, 4);
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 2, partsWritten: 0 });
    expect(h.count('SELECT COUNT(*) FROM parts WHERE session_id = ? AND genuine_user_turn = 1', CODEX_SPAWNED)).toBe(0);
    expect(sessionRows(h, 'codex')).toEqual(fresh);
  });

  it('an append read from its offset after the re-read clears no first request and replaces none', async () => {
    h = openWindow();
    const { parent, spawned } = codexRollouts(h.codexRoot);
    await h.driver.tick();
    const asked = firstRequest(h, CODEX_PARENT);
    expect(asked).toEqual(expect.any(String));
    storeAsOlderParser(h, 'codex', CODEX_SPAWNED, CODEX_PROMPT, 4);
    await h.restart();
    await h.driver.tick();
    expect(firstRequest(h, CODEX_SPAWNED)).toBeNull();

    // The parent gets the person's next words, the thread the main agent's next prompt: both read from their checkpoints.
    const checkpoint = h.db.prepare("SELECT byte_offset AS offset, parser_version AS version FROM file_checkpoints WHERE provider = 'codex' AND path = ?");
    for (const path of [parent, spawned]) expect(checkpoint.get(path)).toEqual({ offset: statSync(path).size, version: CODEX_PARSER_VERSION });
    appendFileSync(parent, `${said('2026-07-13T17:30:00.000Z', 'user', 'and now the download path')}\n`);
    appendFileSync(spawned, `${[said('2026-07-13T16:46:00.000Z', 'user', 'Now list the callers of withJitter'), said('2026-07-13T16:46:04.000Z', 'assistant', 'Three callers.')].join('\n')}\n`);
    const appended = byProvider(await h.driver.tick(), 'codex');
    expect(appended).toMatchObject({ read: 2, partsWritten: 3 });
    expect(firstRequest(h, CODEX_PARENT)).toBe(asked);
    expect(firstRequest(h, CODEX_SPAWNED)).toBeNull();
  });
});

/**
 * A session whose lines two files hold (lines a transcript copied, a session continued in another
 * file), read through the materializer as a run reads files: whichever comes first.
 */
describe('a re-read of a session two files hold', () => {
  const START = 'Caveat: the messages below were generated by the user while running local commands.';
  const ASKED = 'Fix the flaky login test';
  const part = (s: string, id: string, ts: number, text: string, genuine: boolean): PartRow =>
    partRow({ partId: `cc:${s}-${id}:0`, sessionId: s, ts, text, flags: genuine ? PART_FLAGS.genuineUserTurn : 0 });
  const session = (s: string, fields: Partial<SessionRow>): SessionRow => sessionRow({ sessionId: s, cwd: '/work/app', ...fields });
  /** The file holding the session's start: a line an older parser took for the person's words, a newer one does not. */
  const fileA = (s: string, olderParser: boolean): TranscriptBatch => ({
    parts: [part(s, 'a1', 1000, START, olderParser), part(s, 'a2', 1100, 'ok', false)],
    sessions: [session(s, { firstTs: 1000, lastTs: 1100, firstRequest: olderParser ? START : null })],
  });
  /** The file holding its later lines, the person's first words among them. */
  const fileB = (s: string): TranscriptBatch => ({
    parts: [part(s, 'b1', 2000, ASKED, true), part(s, 'b2', 2100, 'Done.', false)],
    sessions: [session(s, { firstTs: 2000, lastTs: 2100, firstRequest: ASKED })],
  });

  function gateway(harness: CaptureHarness): Materializer {
    return new Materializer(harness.db, new Spool(harness.db), new Sink(harness.db, harness.projects));
  }

  /** One run reading files from their start. */
  const read = (materializer: Materializer, batches: TranscriptBatch[]) => {
    const run = {};
    for (const batch of batches) materializer.materialize(run, batch, { refresh: true });
  };

  it.each([
    ['A then B', (s: string) => [fileA(s, false), fileB(s)]],
    ['B then A', (s: string) => [fileB(s), fileA(s, false)]],
  ])('whichever file the re-read meets first (%s), the first request is a fresh import’s', (_order, files) => {
    h = openWindow();
    const materializer = gateway(h);
    read(materializer, files('fresh'));
    expect(firstRequest(h, 'fresh')).toBe(ASKED);
    // What the older parser left: the start's line as the person's words and the session's first request.
    read(materializer, [fileA('upgraded', true), fileB('upgraded')]);
    expect(firstRequest(h, 'upgraded')).toBe(START);
    read(materializer, files('upgraded'));
    expect(firstRequest(h, 'upgraded')).toBe(firstRequest(h, 'fresh'));
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'upgraded' AND genuine_user_turn = 1")).toBe(1);
  });

  it("a re-read that does not reach the session's earliest line (a window cut it off, another file holds it) keeps the first request held", () => {
    h = openWindow();
    const materializer = gateway(h);
    const s = 'cut';
    read(materializer, [fileA(s, true), fileB(s)]);
    expect(firstRequest(h, s)).toBe(START);
    read(materializer, [fileB(s)]);
    read(materializer, [{ parts: [part(s, 'a2', 1100, 'ok', false)], sessions: [session(s, { firstTs: 1100, lastTs: 1100 })] }]);
    expect(firstRequest(h, s)).toBe(START);
    // A re-read of both meets the whole session, and the newer parser's answer is taken.
    read(materializer, [fileA(s, false), fileB(s)]);
    expect(firstRequest(h, s)).toBe(ASKED);
  });
});
