import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentStoreFixture, agentStorePath, fixtureEvents } from '../../support/openclaw-store.js';
import { appendJsonl, claudeLine, claudeSession, openclawLines, writeJsonl } from '../../support/transcripts.js';
import { SearchIndex } from '../../../core/gateway/index.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** What a resumed read costs beyond the new bytes: the head and pre-offset hashes it checks, and the new pre-offset hash. */
const HASH_READS = 3 * 4096;

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');
const size = (path: string) => statSync(path).size;

function corpus(c: CaptureHarness): string[] {
  return ['a', 'b', 'c', 'd'].map((id, i) => claudeSession(c.claudeRoot, `cp-${id}`, 40 + i * 30));
}

describe('durable per-file checkpoints', () => {
  it('a restart reads no transcript byte: unchanged files are answered by their checkpoints', async () => {
    h = captureHarness();
    const files = corpus(h);
    const cold = await claude(h);
    expect(cold).toMatchObject({ read: 4, partsWritten: 40 + 70 + 100 + 130 });
    expect(cold.bytesRead).toBeGreaterThanOrEqual(files.reduce((n, f) => n + size(f), 0));
    expect(h.count('SELECT COUNT(*) FROM file_checkpoints')).toBe(4);

    await h.restart();
    expect(h.driver.fingerprints.size).toBe(0);
    expect(await claude(h)).toMatchObject({ discovered: 4, read: 0, unchanged: 4, partsWritten: 0, bytesRead: 0 });
    // The process-local map answers from then on, as before.
    expect(h.driver.fingerprints.size).toBe(4);
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 4, bytesRead: 0 });
  });

  it('after a restart an appended file is read from its offset, and only the new lines are new', async () => {
    h = captureHarness();
    const [a] = corpus(h);
    await claude(h);
    await h.restart();
    const before = size(a!);
    appendJsonl(a!, [claudeLine({ sessionId: 'cp-a', text: 'one more' }), claudeLine({ sessionId: 'cp-a', type: 'assistant', text: 'and its answer' })]);
    const appended = size(a!) - before;
    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 1, unchanged: 3, partsWritten: 2 });
    expect(stats.bytesRead).toBeLessThanOrEqual(appended + HASH_READS);
    expect(stats.bytesRead).toBeGreaterThanOrEqual(appended);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'cp-a'")).toBe(42);
  });

  it('a partial last line is left for later and imported once it is complete, from the offset before it', async () => {
    h = captureHarness();
    const file = join(h.claudeRoot, 'projects', 'p', 'partial.jsonl');
    const done = JSON.stringify(claudeLine({ sessionId: 'partial', text: 'complete' }));
    const pending = JSON.stringify(claudeLine({ sessionId: 'partial', text: 'in flight' }));
    writeJsonl(file, []);
    writeFileSync(file, `${done}\n${pending.slice(0, 30)}`);
    expect(await claude(h)).toMatchObject({ partsWritten: 1 });
    expect(h.count('SELECT byte_offset FROM file_checkpoints')).toBe(done.length + 1);
    await h.restart();
    appendFileSync(file, `${pending.slice(30)}\n`);
    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 1, partsWritten: 1 });
    expect(stats.bytesRead).toBeLessThanOrEqual(pending.length + 1 + HASH_READS);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'partial'")).toBe(2);
  });

  it('re-reads a file from 0 when its inode changed, it shrank, its head changed, the parser version moved or the window widened', async () => {
    h = captureHarness();
    const [a, b, c, d] = corpus(h);
    const e = claudeSession(h.claudeRoot, 'cp-e', 10);
    await claude(h);
    await h.restart();

    // A new inode under the same name (an atomic rewrite), with one line more.
    const replaced = readFileSync(a!, 'utf8') + `${JSON.stringify(claudeLine({ sessionId: 'cp-a', text: 'rewritten' }))}\n`;
    writeFileSync(`${a}.tmp`, replaced);
    renameSync(`${a}.tmp`, a!);
    // Shrunk: cut back to its first line.
    truncateSync(b!, readFileSync(b!, 'utf8').indexOf('\n') + 1);
    // Same first bytes' length, other content, then grown: the head hash no longer matches.
    const text = readFileSync(c!, 'utf8');
    writeFileSync(c!, text.replace('line 0', 'LINE 0') + `${JSON.stringify(claudeLine({ sessionId: 'cp-c', text: 'more' }))}\n`);
    // Another parser version read d; e is left alone.
    h.db.prepare('UPDATE file_checkpoints SET parser_version = parser_version - 1 WHERE path = ?').run(d);

    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 4, unchanged: 1, partsWritten: 1 + 0 + 1 + 0 });
    expect(stats.bytesRead).toBeGreaterThanOrEqual(size(a!) + size(b!) + size(c!) + size(d!));
    expect(statSync(e).size).toBeGreaterThan(0);

    // A wider retention window than the one the checkpoints vouch for: everything is read again once.
    await h.restart({ query: { cache: { retention: { default_days: 0 } } } });
    expect(await claude(h)).toMatchObject({ read: 5, unchanged: 0, partsWritten: 0 });
    await h.restart({ query: { cache: { retention: { default_days: 0 } } } });
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 5 });
  });

  it('a store written by an older parser is upgraded by reading each file again once: its parts are rewritten as the parser now reads them', async () => {
    h = captureHarness();
    const file = join(h.claudeRoot, 'projects', 'p', 'upgrade.jsonl');
    writeJsonl(file, [
      claudeLine({ sessionId: 'upgrade', content: ['plain words'] }),
      claudeLine({ sessionId: 'upgrade', text: '<task-notification>done</task-notification>' }),
      claudeLine({ sessionId: 'upgrade', type: 'assistant', text: 'ok' }),
    ]);
    await claude(h);
    // What the previous parser stored (and indexed): a plain string in an array as an unknown block, no flags, no checkpoints.
    const index = new SearchIndex(h.db);
    const rowid = h.db.prepare("SELECT rowid FROM parts WHERE text = 'plain words'").pluck().get() as number;
    index.removeParts([rowid]);
    h.db.exec("UPDATE parts SET kind = 'unknown', text = '{}', genuine_user_turn = 0 WHERE text = 'plain words'; UPDATE parts SET genuine_user_turn = 1 WHERE text LIKE '<task-notification>%'; DELETE FROM file_checkpoints");
    index.indexParts([rowid]);
    h.db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
    expect(h.db.prepare("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH 'plain'").pluck().get()).toBe(0);
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(h.db.prepare("SELECT kind, text, genuine_user_turn AS g FROM parts WHERE session_id = 'upgrade' AND role = 'user' ORDER BY ts").all()).toEqual([
      { kind: 'text', text: 'plain words', g: 1 },
      { kind: 'text', text: '<task-notification>done</task-notification>', g: 0 },
    ]);
    h.db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
    expect(h.db.prepare("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH 'plain'").pluck().get()).toBe(1);
    // Once: the checkpoint written by this parser answers from then on.
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1 });
  });

  it('manual backfill reads every file whatever its checkpoint says, and leaves one: the next tick reads nothing', async () => {
    h = captureHarness();
    const files = corpus(h);
    await claude(h);
    const offsets = () => h!.db.prepare('SELECT path, byte_offset FROM file_checkpoints ORDER BY path').all();
    const before = offsets();
    await h.restart();
    const [manual] = await h.driver.backfill({ provider: 'claude' });
    expect(manual).toMatchObject({ read: 4, partsWritten: 0 });
    expect(manual!.bytesRead).toBeGreaterThanOrEqual(files.reduce((n, f) => n + size(f), 0));
    expect(offsets()).toEqual(before);
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 4, bytesRead: 0 });

    // A store whose files only a manual run has read since the last restart: its first tick reads nothing either.
    h.db.exec('DELETE FROM file_checkpoints');
    await h.restart();
    expect(await h.driver.backfill({ provider: 'claude' })).toMatchObject([{ read: 4 }]);
    expect(h.count('SELECT COUNT(*) FROM file_checkpoints')).toBe(4);
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 4, bytesRead: 0 });
  });

  it('a manual backfill of a narrower window keeps the checkpoint of a wider one: the next tick still reads nothing', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    corpus(h);
    expect(await claude(h)).toMatchObject({ read: 4 });
    expect(await h.driver.backfill({ provider: 'claude', days: 7 })).toMatchObject([{ read: 4, partsWritten: 0 }]);
    expect(h.count('SELECT COUNT(*) FROM file_checkpoints WHERE window_start_ms IS NULL')).toBe(4);
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 4, bytesRead: 0 });
  });

  it('a manual backfill over rows an older parser wrote rewrites them, so the checkpoint it leaves skips no upgrade', async () => {
    h = captureHarness();
    const file = join(h.claudeRoot, 'projects', 'p', 'manual-upgrade.jsonl');
    writeJsonl(file, [claudeLine({ sessionId: 'manual-upgrade', content: ['plain words'] }), claudeLine({ sessionId: 'manual-upgrade', type: 'assistant', text: 'ok' })]);
    await claude(h);
    h.db.exec("UPDATE parts SET genuine_user_turn = 0, is_meta = 1 WHERE text = 'plain words'; DELETE FROM file_checkpoints");
    await h.restart();
    expect(await h.driver.backfill({ provider: 'claude' })).toMatchObject([{ read: 1, partsWritten: 0 }]);
    expect(h.db.prepare("SELECT genuine_user_turn AS g, is_meta AS m FROM parts WHERE text = 'plain words'").get()).toEqual({ g: 1, m: 0 });
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1 });
  });

  it('a deleted file loses its checkpoint, never its rows', async () => {
    h = captureHarness();
    const files = corpus(h);
    await claude(h);
    rmSync(files[0]!);
    expect(await claude(h)).toMatchObject({ discovered: 3, read: 0, unchanged: 3 });
    expect(h.count('SELECT COUNT(*) FROM file_checkpoints')).toBe(3);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'cp-a'")).toBe(40);
  });

  it("a new transcript given a deleted one's inode, size and time is read: only a moved file takes the checkpoint left behind", async () => {
    h = captureHarness();
    const dir = join(h.claudeRoot, 'projects', '-work-fixture-project');
    const when = new Date(Date.now() - 120_000);
    const write = (path: string, sessionId: string, text: string) => {
      writeJsonl(path, [claudeLine({ sessionId, text, uuid: `00000000-0000-4000-8000-00000000${text}`, ts: when })]);
      utimesSync(path, when, when);
    };
    const old = join(dir, 'sess-old.jsonl');
    write(old, 'sess-old', 'aaaa');
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 1 });
    rmSync(old);
    // Claude Code's cleanup deletes a transcript and the next session's file takes its inode (ext4 hands it out again at once; elsewhere this reads it anyway).
    const fresh = join(dir, 'sess-new.jsonl');
    write(fresh, 'sess-new', 'bbbb');
    expect(await claude(h)).toMatchObject({ discovered: 1, read: 1, partsWritten: 1 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'sess-new'")).toBe(1);
  });

  it('OpenClaw resumes with its header and line index, so entries after the offset keep their session and ids', async () => {
    h = captureHarness();
    const file = join(h.openclawRoot, 'agents', 'main', 'sessions', 'oc-1.jsonl');
    writeJsonl(file, openclawLines('oc-1', [{ id: 'f0000001' }, { id: 'f0000002', role: 'assistant' }]));
    await h.driver.tick();
    await h.restart();
    const before = size(file);
    appendJsonl(file, [{ type: 'message', timestamp: new Date().toISOString(), message: { role: 'user', content: 'a v1-style entry with no id', timestamp: Date.now() } }]);
    const stats = byProvider(await h.driver.tick(), 'openclaw');
    expect(stats).toMatchObject({ read: 1, partsWritten: 1 });
    expect(stats.bytesRead).toBeLessThanOrEqual(size(file) - before + HASH_READS);
    // Line 0 is the header, 1 the model change, 2 and 3 the entries: the appended line is line 4.
    expect(h.count("SELECT COUNT(*) FROM parts WHERE part_id = 'oc:main:oc-1:l4:0'")).toBe(1);
  });
});

describe('checkpoints of providers that do not resume at a byte offset', () => {
  const SID = '7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01';
  const stores: AgentStoreFixture[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
  });

  it("an OpenClaw store's per-session watermarks survive a restart: an append after it reads only the new rows", async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const store = new AgentStoreFixture(agentStorePath(h.openclawRoot), 'current', 'main');
    stores.push(store);
    store.append(SID, fixtureEvents().slice(0, 3));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 4 });
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    // A row before the watermark goes bad: a read that started over would count it.
    store.db.prepare("UPDATE transcript_events SET event_json = '{' WHERE seq = 1").run();
    store.append(SID, fixtureEvents().slice(3));
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 2 });
  });

  it('a Codex rollout resumes at its offset and a Gemini chat is skipped while unchanged, after a restart', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'transcripts');
    const name = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
    const rollout = join(h.codexRoot, 'sessions', '2026', '07', '13', name);
    mkdirSync(dirname(rollout), { recursive: true });
    copyFileSync(join(fixtures, 'codex', name), rollout);
    const chats = join(h.geminiRoot, 'tmp', 'site', 'chats');
    mkdirSync(chats, { recursive: true });
    copyFileSync(join(fixtures, 'gemini', 'legacy-session.json'), join(chats, 'session-2026-01-14T09-30-5d1e2f3a.json'));
    const tick = async () => {
      const stats = await h!.driver.tick();
      return { codex: byProvider(stats, 'codex'), gemini: byProvider(stats, 'gemini') };
    };
    const cold = await tick();
    expect(cold.codex.partsWritten).toBeGreaterThan(0);
    expect(cold.gemini.partsWritten).toBeGreaterThan(0);
    await h.restart();
    expect(await tick()).toMatchObject({ codex: { read: 0, unchanged: 1, bytesRead: 0 }, gemini: { read: 0, unchanged: 1, bytesRead: 0 } });

    const line = { timestamp: '2026-07-13T18:50:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and run the linter too' }] } };
    const before = size(rollout);
    appendJsonl(rollout, [line]);
    await h.restart();
    const appended = await tick();
    expect(appended.codex).toMatchObject({ read: 1, partsWritten: 1 });
    expect(appended.codex.bytesRead).toBeLessThanOrEqual(size(rollout) - before + HASH_READS);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE provider = 'codex' AND text = 'and run the linter too' AND genuine_user_turn = 1")).toBe(1);
  });
});

describe('first requests across reads', () => {
  it('a read from the start by a newer parser replaces the first request an older one kept; an append never does', async () => {
    h = captureHarness();
    const file = join(h.claudeRoot, 'projects', 'p', 'first-request.jsonl');
    const start = Date.now() - 60_000;
    writeJsonl(file, [
      claudeLine({ sessionId: 'first-request', ts: new Date(start), text: 'Why does the upload stall?' }),
      claudeLine({ sessionId: 'first-request', ts: new Date(start + 1000), type: 'assistant', text: 'A retry loop.' }),
    ]);
    await claude(h);
    const first = () => h!.db.prepare("SELECT first_request FROM sessions WHERE session_id = 'first-request'").pluck().get();
    expect(first()).toBe('Why does the upload stall?');
    // What an older parser kept (IDE context taken for the request), read by another parser version since.
    h.db.exec("UPDATE sessions SET first_request = '<ide_opened_file>upload.ts</ide_opened_file> Why does' WHERE session_id = 'first-request'");
    h.db.exec('UPDATE file_checkpoints SET parser_version = parser_version - 1');
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(first()).toBe('Why does the upload stall?');

    // An append reads from the offset: its first line is no start, and what the session first asked stays.
    appendJsonl(file, [claudeLine({ sessionId: 'first-request', ts: new Date(start + 2000), text: 'And the download?' })]);
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 1 });
    expect(first()).toBe('Why does the upload stall?');
  });
});
