import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { openDatabase } from '../../../core/store/index.js';
import { GeminiProvider } from '../../../core/transcripts/providers/gemini/index.js';
import { documentCap, GEMINI_DOCUMENT_BYTES } from '../../../core/transcripts/providers/gemini/provider.js';
import type { LineStats, TranscriptFile } from '../../../core/transcripts/index.js';
import { tempHome } from '../../support/home.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));
const SITE = '/home/ana/src/site';
/** Gemini CLI's old project folder name: the sha256 of the project path. */
const SITE_HASH = '6f193382ff22044c43b6f28809b1cbb16d8d9da89bcb44954c0a506d81b6960a';
const LEGACY_ID = '5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6';
const CURRENT_ID = '92f625c6-a764-48e3-b922-3766d41f9c4c';
const SUB_ID = 'e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b';
/** A chat in the shape Gemini CLI writes since mid 2026: history turns recorded, a compression, a hook. */
const COMPRESSED_ID = '3b7e0c2a-5f4d-4e8b-9a1c-6d2e8f0b4c7a';
/** A chat whose history Gemini CLI recorded again under new ids and times: a compression, then a tool-output masking. */
const RERECORDED_ID = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const legacyPath = (root: string, folder = SITE_HASH) => join(root, 'tmp', folder, 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json');
const currentPath = (root: string) => join(root, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl');

/** The registry newer Gemini CLI versions keep: project path → folder slug. */
function registry(root: string): void {
  write(join(root, 'projects.json'), JSON.stringify({ projects: { [SITE]: 'site' } }, null, 2));
}

interface PartRow {
  part_id: string;
  role: string;
  kind: string;
  text: string | null;
  meta: string | null;
}

/** Reads one chat straight through the provider: its parts and its per-line accounting. */
async function readChat(path: string, maxLineBytes = 1 << 20): Promise<{ parts: number; stats: LineStats }> {
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'gemini' };
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  let parts = 0;
  for await (const batch of new GeminiProvider([]).read(file, { maxLineBytes, windowStartMs: null, batchParts: 250 }, stats)) parts += batch.parts.length;
  return { parts, stats };
}

/** The lines of a JSONL chat that stored a part: each one that adds parts to a read of the lines before it. */
async function linesWithParts(path: string): Promise<number> {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const prefix = `${path}.prefix.jsonl`;
  let before = 0;
  let stored = 0;
  for (let n = 1; n <= lines.length; n += 1) {
    writeFileSync(prefix, `${lines.slice(0, n).join('\n')}\n`);
    const { parts } = await readChat(prefix);
    if (parts > before) stored += 1;
    before = parts;
  }
  rmSync(prefix);
  return stored;
}

const skippedTotal = (stats: LineStats) => Object.values(stats.skipped ?? {}).reduce((a, b) => a + b, 0);
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

const partsOf = (harness: CaptureHarness, sessionId: string) =>
  harness.db.prepare('SELECT part_id, role, kind, text, meta FROM parts WHERE session_id = ? ORDER BY ts, rowid').all(sessionId) as PartRow[];

describe('Gemini CLI provider', () => {
  it('reads a legacy chat (one JSON document): thoughts, text, tool calls and their results, notices, errors, images', async () => {
    h = openWindow();
    write(legacyPath(h.geminiRoot), fixture('legacy-session.json'));
    registry(h.geminiRoot);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ discovered: 1, read: 1, failed: 0, failedLines: 0, partsWritten: 9 });
    const parts = partsOf(h, LEGACY_ID);
    expect(parts.map((p) => [p.part_id.split(':').at(-1), p.role, p.kind])).toEqual([
      ['c0', 'user', 'text'],
      ['th0', 'assistant', 'thinking'],
      // The answer is stamped after the call it read (gemini-call-order.test.ts): drawn after it.
      ['tu-read_file-1768383022901-0', 'assistant', 'tool_use'],
      ['tr-read_file-1768383022901-0', 'tool', 'tool_result'],
      ['c0', 'assistant', 'text'],
      ['c0', 'system', 'notice'],
      ['c0', 'user', 'text'],
      ['c1', 'user', 'image'],
      ['c0', 'system', 'error'],
    ]);
    expect(parts[0]!.part_id).toBe(`gm:${LEGACY_ID}:3c0a9b1e-2f4d-4c6b-9a8e-7d6c5b4a3f21:c0`);
    expect(parts[1]!.text).toBe('Reading the script\nI should open build.sh before answering.');
    expect(JSON.parse(parts[2]!.text!)).toEqual({ absolute_path: '/home/ana/src/site/build.sh' });
    expect(JSON.parse(parts[2]!.meta!)).toMatchObject({ name: 'read_file', toolUseId: 'read_file-1768383022901-0', model: 'gemini-2.5-pro' });
    expect(parts[3]!.text).toContain('tsc -p .');
    expect(JSON.parse(parts[7]!.meta!)).toMatchObject({ media_type: 'image/png', bytes: 70 });
    // The project folder is a hash of the path; the registry names the path that hashes to it.
    expect(h.db.prepare('SELECT cwd, provider, source FROM sessions WHERE session_id = ?').get(LEGACY_ID)).toEqual({ cwd: SITE, provider: 'gemini', source: 'gemini' });
    expect(h.projects.list().map((p) => p.name)).toEqual(['site']);
  });

  it('a legacy chat rewritten on the next turn adds only its new blocks', async () => {
    h = openWindow();
    registry(h.geminiRoot);
    const full = JSON.parse(fixture('legacy-session.json')) as { messages: Array<Record<string, unknown>> };
    // Mid-turn: the tool call is still running and the later messages do not exist yet.
    const running = structuredClone(full);
    running.messages = running.messages.slice(0, 2);
    const call = (running.messages[1]!.toolCalls as Array<Record<string, unknown>>)[0]!;
    call.status = 'executing';
    delete call.result;
    const path = write(legacyPath(h.geminiRoot), JSON.stringify(running, null, 2));
    // Two messages, the second with its thought, text and running call: each counted once.
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ partsWritten: 4, messagesWritten: 2 });

    write(path, JSON.stringify(full, null, 2));
    // The call's result joins a message already counted; only the messages that are new count.
    const messages = (ids: string[]) => new Set(ids.map((id) => id.slice(0, id.lastIndexOf(':')))).size;
    const all = messages(partsOf(h, LEGACY_ID).map((p) => p.part_id));
    expect(all).toBe(2);
    const second = byProvider(await h.driver.tick(), 'gemini');
    const total = messages(partsOf(h, LEGACY_ID).map((p) => p.part_id));
    expect(total).toBeGreaterThan(3);
    expect(second).toMatchObject({ read: 1, partsWritten: 5, messagesWritten: total - 2 });
    expect(partsOf(h, LEGACY_ID)).toHaveLength(9);
    // The conversation's count, as lists show it, is its messages, not its parts or none.
    expect(h.db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(LEGACY_ID)).toBe(total);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 0, unchanged: 1 });
  });

  it('counts the bytes of a legacy chat it reads whole, each time Gemini rewrites it', async () => {
    h = openWindow();
    const path = write(legacyPath(h.geminiRoot), fixture('legacy-session.json'));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, bytesRead: statSync(path).size });
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 0, bytesRead: 0 });
    write(path, `${fixture('legacy-session.json')}\n`);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, partsWritten: 0, bytesRead: statSync(path).size });
  });

  it('reads a current chat (JSONL): re-emitted messages add only what they gained, the summary titles it, .project_root names its folder', async () => {
    h = openWindow();
    write(currentPath(h.geminiRoot), fixture('current-session.jsonl'));
    write(join(h.geminiRoot, 'tmp', 'site', '.project_root'), `${SITE}\n`);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 6 });
    const parts = partsOf(h, CURRENT_ID);
    expect(parts.map((p) => `${p.role} ${p.kind}`)).toEqual(['user text', 'assistant thinking', 'assistant text', 'assistant tool_use', 'tool tool_result', 'user text']);
    expect(parts[4]!.text).toBe('Command: npm test\nExit Code: 1\nOutput: 1 failing');
    // The user rewound past "actually, stop": it was written, so it is kept.
    expect(parts[5]!.text).toBe('actually, stop');
    expect(h.db.prepare('SELECT title, cwd FROM sessions WHERE session_id = ?').get(CURRENT_ID)).toEqual({ title: 'Fix the failing upload test', cwd: SITE });
  });

  it('counts the records that yield no part: the header, patches, rewinds', async () => {
    h = openWindow();
    const path = write(currentPath(h.geminiRoot), fixture('current-session.jsonl'));
    const info = statSync(path, { bigint: true });
    const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'gemini' };
    const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    for await (const batch of new GeminiProvider([]).read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 250 }, stats)) void batch;
    expect(stats.lines).toBe(11);
    // header + three $set + one $rewindTo; the answer re-emitted with only its token counts added stores nothing new.
    expect(stats.skipped).toEqual({ meta_only: 5, duplicate: 1 });
  });

  it('counts every line once: a line that stored a part, or one reason (a re-emission adding nothing, a checkpoint of copies)', async () => {
    h = openWindow();
    const chats = join(h.geminiRoot, 'tmp', 'site', 'chats');
    const header = { sessionId: CURRENT_ID, projectHash: 'site', startTime: '2026-05-22T14:59:01.002Z', lastUpdated: '2026-05-22T14:59:01.002Z', kind: 'main' };
    const u1 = { id: 'u1', timestamp: '2026-05-22T14:59:04.096Z', type: 'user', content: [{ text: 'what does build.sh do?' }] };
    const g1 = { id: 'g1', timestamp: '2026-05-22T14:59:07.670Z', type: 'gemini', content: [{ text: 'It compiles the site.' }], model: 'gemini-2.5-pro', thoughts: [{ subject: 'Reading script', description: 'Open it first.' }], tokens: null };
    const tokens = { ...g1, tokens: { input: 7173, output: 58, cached: 0, thoughts: 17, tool: 0, total: 7248 } };
    const repro = [header, u1, g1, tokens, { $set: { lastUpdated: '2026-05-22T14:59:07.671Z' } }];
    const path = write(join(chats, 'session-2026-05-22T14-59-92f625c6.jsonl'), jsonl(repro));
    const { parts, stats } = await readChat(path);
    // The prompt; the answer's thought and text: the token-only re-emission is counted, not lost.
    expect(parts).toBe(3);
    expect(stats).toMatchObject({ lines: 5, skipped: { meta_only: 2, duplicate: 1 } });
    for (const name of ['current-session.jsonl', 'compressed-session.jsonl', 'rerecorded-session.jsonl', 'subagent-session.jsonl']) {
      const fixturePath = write(join(chats, name.replace(/\.jsonl$/, '-copy.jsonl')), fixture(name));
      const read = await readChat(fixturePath);
      expect({ name, lines: read.stats.lines }).toEqual({ name, lines: (await linesWithParts(fixturePath)) + skippedTotal(read.stats) });
    }
  });

  it('a legacy chat is a document, not a line: one above sweep.max_line_bytes is read whole; one above its own bound is counted too_large', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } }, sweep: { max_line_bytes: 1024 } });
    const messages = Array.from({ length: 10 }, (_, i) => ({
      id: `m${i}`,
      timestamp: `2026-01-14T09:30:${String(10 + i).padStart(2, '0')}.000Z`,
      type: i % 2 === 0 ? 'user' : 'gemini',
      content: i % 2 === 0 ? `question ${i}: what does step ${i} of build.sh do?` : [{ text: `Step ${i} compiles part ${i} of the site and writes it to dist/.` }],
    }));
    const document = { sessionId: LEGACY_ID, projectHash: SITE_HASH, startTime: '2026-01-14T09:30:00.000Z', lastUpdated: '2026-01-14T09:31:00.000Z', messages };
    const path = write(legacyPath(h.geminiRoot), JSON.stringify(document, null, 2));
    expect(statSync(path).size).toBeGreaterThan(1024);
    expect(statSync(path).size).toBeLessThan(4096);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 10, skipped: { meta_only: 1 } });
    expect(documentCap(1024)).toBe(GEMINI_DOCUMENT_BYTES);
    expect(documentCap(2 * GEMINI_DOCUMENT_BYTES)).toBe(2 * GEMINI_DOCUMENT_BYTES);
    // Above the document bound (a sparse file: its size, not its bytes): counted as the one line it is, never silently.
    const huge = write(legacyPath(h.geminiRoot, 'c'.repeat(64)), '');
    truncateSync(huge, GEMINI_DOCUMENT_BYTES + 1);
    const { parts, stats } = await readChat(huge);
    expect({ parts, lines: stats.lines, oversizeLines: stats.oversizeLines, skipped: stats.skipped }).toEqual({ parts: 0, lines: 1, oversizeLines: 1, skipped: { too_large: 1 } });
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failedLines: 1, partsWritten: 0, skipped: { too_large: 1 } });
  });

  it("the session context, referenced files' contents, hook context and the compression summary Gemini records as user turns are not the user's words", async () => {
    h = openWindow();
    write(join(h.geminiRoot, 'tmp', 'mailer', 'chats', 'session-2026-06-10T08-00-3b7e0c2a.jsonl'), fixture('compressed-session.jsonl'));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failedLines: 0 });
    const ask = 'why does send() drop attachments? see @src/mail.ts';
    expect(h.db.prepare('SELECT text FROM parts WHERE session_id = ? AND genuine_user_turn = 1 ORDER BY ts').pluck().all(COMPRESSED_ID)).toEqual([ask, 'fix it and keep the tests green']);
    expect(h.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(COMPRESSED_ID)).toBe(ask);
    const parts = partsOf(h, COMPRESSED_ID);
    expect(parts.some((p) => /<session_context>|<hook_context>/.test(p.text ?? ''))).toBe(false);
    // What the CLI added to the prompt for the model is kept, as context.
    expect(parts.filter((p) => p.kind === 'context').map((p) => p.text)).toContain('export function send(msg: Mail) {\n  return smtp.write({ to: msg.to, body: msg.body });\n}\n');
    const summary = h.db.prepare("SELECT role, is_compact_summary, genuine_user_turn FROM parts WHERE session_id = ? AND kind = 'compaction'").all(COMPRESSED_ID);
    expect(summary).toEqual([{ role: 'assistant', is_compact_summary: 1, genuine_user_turn: 0 }]);
  });

  it('a tool response Gemini also records as a user turn is the call\'s result, stored once', async () => {
    h = openWindow();
    write(join(h.geminiRoot, 'tmp', 'mailer', 'chats', 'session-2026-06-10T08-00-3b7e0c2a.jsonl'), fixture('compressed-session.jsonl'));
    await h.driver.tick();
    const results = partsOf(h, COMPRESSED_ID).filter((p) => p.kind === 'tool_result');
    expect(results.map((p) => [p.role, p.part_id.split(':').at(-1), p.text])).toEqual([['tool', 'tr-read_file-1781078407900-0', 'export const compose = (m) => ({ to: m.to, body: m.body });\n']]);
    // The ask, the call, the answer, the follow-up, the summary and the notice (Gemini CLI's own reply to the summary is none).
    expect(h.db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(COMPRESSED_ID)).toBe(6);
  });

  it('a legacy chat migrated to JSONL on resume is the same session: the copy adds nothing', async () => {
    h = openWindow();
    registry(h.geminiRoot);
    const legacy = JSON.parse(fixture('legacy-session.json')) as Record<string, unknown> & { messages: unknown[] };
    write(legacyPath(h.geminiRoot, 'site'), JSON.stringify(legacy));
    expect(byProvider(await h.driver.tick(), 'gemini').partsWritten).toBe(9);
    const { messages, ...header } = legacy;
    write(`${legacyPath(h.geminiRoot, 'site')}l`, [header, ...messages].map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ discovered: 2, read: 1, partsWritten: 0 });
  });

  it('a subagent chat under chats/<parent>/ names its parent and lands in the same project', async () => {
    h = openWindow();
    write(currentPath(h.geminiRoot), fixture('current-session.jsonl'));
    write(join(h.geminiRoot, 'tmp', 'site', 'chats', CURRENT_ID, `${SUB_ID}.jsonl`), fixture('subagent-session.jsonl'));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ discovered: 2, read: 2, partsWritten: 6 + 2 });
    expect(h.db.prepare('SELECT parent_session_id, cwd FROM sessions WHERE session_id = ?').get(SUB_ID)).toEqual({ parent_session_id: CURRENT_ID, cwd: SITE });
  });

  it("a store parser version 3 wrote before subagents' prompts were side-chain parts is rewritten: the prompt is no longer the person's words", async () => {
    h = openWindow();
    write(currentPath(h.geminiRoot), fixture('current-session.jsonl'));
    write(join(h.geminiRoot, 'tmp', 'site', 'chats', CURRENT_ID, `${SUB_ID}.jsonl`), fixture('subagent-session.jsonl'));
    await h.driver.tick();
    const flags = () => h!.db.prepare('SELECT role, genuine_user_turn AS g, is_sidechain AS s FROM parts WHERE session_id = ? ORDER BY ts').all(SUB_ID);
    expect(flags()).toEqual([
      { role: 'user', g: 0, s: 1 },
      { role: 'assistant', g: 0, s: 1 },
    ]);
    // What version 3 stored before the rule: the main agent's prompt as the person's words, nothing side-chain.
    h.db.prepare('UPDATE parts SET genuine_user_turn = (role = ?), is_sidechain = 0 WHERE session_id = ?').run('user', SUB_ID);
    h.db.prepare("UPDATE file_checkpoints SET parser_version = 3 WHERE provider = 'gemini'").run();
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 2, partsWritten: 0 });
    expect(flags()).toEqual([
      { role: 'user', g: 0, s: 1 },
      { role: 'assistant', g: 0, s: 1 },
    ]);
  });

  it('chats whose project Gemini recorded nowhere (no projects.json entry, no .project_root) each join their Gemini folder\'s own project', async () => {
    h = openWindow();
    write(legacyPath(h.geminiRoot, 'a'.repeat(64)), fixture('legacy-session.json'));
    write(join(h.geminiRoot, 'tmp', 'b'.repeat(64), 'chats', 'session-2024-01-01T10-00-sess-uui.json'), fixture('agentsview/standard_session.json'));
    write(join(h.geminiRoot, 'tmp', 'uploader', 'chats', 'session-2026-06-11T09-00-7c1d2e3f.jsonl'), fixture('rerecorded-session.jsonl'));
    await h.driver.tick();
    const names = ['Gemini CLI project aaaaaaaa (folder unknown)', 'Gemini CLI project bbbbbbbb (folder unknown)', 'Gemini CLI project uploader (folder unknown)'];
    const listed = h.projects.list().map((p) => ({ name: p.name, cwd: p.cwd, sessions: p.sessions }));
    expect(listed.sort((a, b) => a.name.localeCompare(b.name))).toEqual(names.map((name) => ({ name, cwd: name, sessions: 1 })));
    // No folder is invented for them: the Gemini folder is not where they ran.
    expect(h.db.prepare("SELECT DISTINCT cwd FROM sessions WHERE provider = 'gemini'").pluck().all()).toEqual([null]);
  });

  it('a chat an older parser put in a project named after the Gemini folder moves to its folder\'s own project when it is read again', async () => {
    h = openWindow();
    write(legacyPath(h.geminiRoot, 'a'.repeat(64)), fixture('legacy-session.json'));
    await h.driver.tick();
    // What parser version 2 stored: the Gemini folder as the session's cwd and project.
    const old = h.projects.touch(h.geminiRoot);
    h.db.prepare('UPDATE sessions SET cwd = ?, project_cwd = ?, project_key = ? WHERE session_id = ?').run(h.geminiRoot, h.geminiRoot, old, LEGACY_ID);
    h.db.prepare("UPDATE file_checkpoints SET parser_version = 2 WHERE provider = 'gemini'").run();
    expect(h.projects.list().find((p) => p.projectKey === old)).toMatchObject({ name: 'gemini', sessions: 1 });
    // The upgraded app starts: the checkpoint's older parser version has the chat read again.
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1 });
    expect(h.projects.list().map((p) => ({ name: p.name, sessions: p.sessions }))).toEqual([{ name: 'Gemini CLI project aaaaaaaa (folder unknown)', sessions: 1 }]);
  });

  it('a history Gemini records again under new ids (a compression, then a tool-output masking) is not stored twice; the same words typed again are', async () => {
    h = openWindow();
    const lines = fixture('rerecorded-session.jsonl').split('\n');
    const compressed = lines.findIndex((line) => line === `{"$set":{"sessionId":"${RERECORDED_ID}"}}`);
    expect(compressed).toBeGreaterThan(0);
    // Read once before the compression, then again once the turn that compressed and masked it is written.
    const path = write(join(h.geminiRoot, 'tmp', 'uploader', 'chats', 'session-2026-06-11T09-00-7c1d2e3f.jsonl'), lines.slice(0, compressed).join('\n') + '\n');
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 11 });
    write(path, lines.join('\n'));
    // What the turn added: the summary, the notice, the prompt and the answer (Gemini CLI's reply to the summary is no message).
    const after = byProvider(await h.driver.tick(), 'gemini');
    // Each copy is counted once a line, never dropped silently: the masking run's 11 lines, its checkpoint (one line
    // however many records), the answer re-emitted with nothing new and the tool response also recorded as a user
    // turn. The compression's checkpoint stored the summary: a line that stored parts.
    expect(after).toMatchObject({ read: 1, failedLines: 0, partsWritten: 4, skipped: { duplicate: 14 } });
    expect(h.db.prepare('SELECT text FROM parts WHERE session_id = ? AND genuine_user_turn = 1 ORDER BY ts').pluck().all(RERECORDED_ID)).toEqual([
      'what does this repo do?',
      'why is the upload test failing?',
      'yes',
      'yes',
      'yes',
    ]);
    const parts = partsOf(h, RERECORDED_ID);
    expect(parts.map((p) => `${p.role} ${p.kind}`)).toEqual([
      'user text',
      'assistant text',
      'user text',
      'assistant thinking',
      'assistant tool_use',
      'tool tool_result',
      'assistant text',
      'user text',
      'assistant text',
      'user text',
      'assistant text',
      'assistant compaction',
      'system notice',
      'user text',
      'assistant text',
    ]);
    expect(parts.filter((p) => p.kind === 'tool_result').map((p) => p.text?.slice(0, 24))).toEqual(['FAIL test/upload.test.ts']);
    expect(h.db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(RERECORDED_ID)).toBe(13);
  });

  it('reads the agentsview fixtures: string contents, thinking-only turns, calls with and without results, system notices', async () => {
    h = openWindow();
    const names = ['standard_session.json', 'system_messages.json', 'thinking_only.json', 'tool_calls.json', 'tool_calls_with_results.json'];
    names.forEach((name, i) => write(join(h!.geminiRoot, 'tmp', 'abc123def456', 'chats', `session-2024-01-01T10-0${i}-fixture${i}.json`), fixture(join('agentsview', name))));
    // 4 texts; 3 notices; a text, 2 thoughts and a text; a text, a thought, a text and a call that recorded no
    // result; a text, a thought, a text, 2 calls and their 2 results.
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 5, failedLines: 0, partsWritten: 4 + 3 + 4 + 4 + 7 });
    expect(partsOf(h, 'sess-uuid-2').map((p) => p.kind)).toEqual(['text', 'thinking', 'text', 'tool_use']);
    expect(partsOf(h, 'sess-uuid-3').map((p) => p.kind)).toEqual(['notice', 'error', 'notice']);
    expect(partsOf(h, 'sess-uuid-tool-results').filter((p) => p.kind === 'tool_result').map((p) => p.text)).toEqual([
      '# Agentstrove -- One-Pager\n\nDraft: 2026-03-04',
      'total 42\ndrwxr-xr-x  5 user user 160 Mar  4 10:00 .',
    ]);
  });

  it('ignores files Gemini is still writing or could not read', async () => {
    h = openWindow();
    const chats = join(h.geminiRoot, 'tmp', 'site', 'chats');
    write(join(chats, 'session-2026-05-22T14-59-92f625c6.jsonl.tmp-4242'), fixture('current-session.jsonl'));
    write(join(chats, 'session-2026-05-22T14-59-92f625c6.json.unreadable-1'), fixture('legacy-session.json'));
    write(join(h.geminiRoot, 'tmp', 'site', 'logs.json'), '[]');
    copyFileSync(join(FIXTURES, 'legacy-session.json'), join(h.geminiRoot, 'settings.json'));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ discovered: 0 });
  });
});

describe('a store whose Gemini conversations were counted before the message rule knew named blocks', () => {
  it('counts them again when it opens (migration 9): one per message, however many blocks; other conversations keep theirs', () => {
    const home = tempHome('steward-gemini-recount-');
    try {
      const old = openDatabase(join(home.dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 8) });
      const session = old.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, ?, 'code', NULL, '/work/g', 1, 2, 1)");
      const part = old.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, ?, 'user', 'text', 1, 'x', NULL)");
      const stats = old.prepare('INSERT INTO session_stats (session_id, parts, messages, tool_calls) VALUES (?, ?, ?, 0)');
      session.run('g1', 'gemini');
      // Three messages: one with a thought first, one with a call whose result came in a later rewrite, one with text alone.
      for (const id of ['gm:g1:m1:th0', 'gm:g1:m1:c0', 'gm:g1:m2:c0', 'gm:g1:m2:tu-call_1', 'gm:g1:m10:c0', 'gm:g1:m2:tr-call_1']) part.run(id, 'g1', 'gemini');
      stats.run('g1', 6, 0);
      session.run('c1', 'claude');
      for (const id of ['cc:u1:0', 'cc:u1:1', 'cc:u2:0']) part.run(id, 'c1', 'claude');
      stats.run('c1', 3, 2);
      old.close();
      const db = openGateway(home.dir);
      try {
        expect(db.prepare('SELECT session_id, messages FROM session_stats ORDER BY session_id').all()).toEqual([
          { session_id: 'c1', messages: 2 },
          { session_id: 'g1', messages: 3 },
        ]);
      } finally {
        db.close();
      }
    } finally {
      home.cleanup();
    }
  });
});
