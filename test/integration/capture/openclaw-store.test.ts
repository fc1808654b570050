import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { remedyOf } from '../../../core/api/index.js';
import type { LineStats } from '../../../core/transcripts/index.js';
import { OpenClawProvider } from '../../../core/transcripts/providers/openclaw/index.js';
import { writeJsonl } from '../../support/transcripts.js';
import { AgentStoreFixture, agentStorePath, fixtureEvents, STORE_FIXTURES } from '../../support/openclaw-store.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
const stores: AgentStoreFixture[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  await h?.close();
  h = undefined;
});

const SID = '7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01';
const SESSION = `oc:main:${SID}`;
/** An open window: the fixtures carry their real (past) timestamps. */
const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });

function store(root: string, shape: 'schema1' | 'early' | 'current' = 'current', agentId = 'main', path = agentStorePath(root, agentId)): AgentStoreFixture {
  const fixture = new AgentStoreFixture(path, shape, agentId);
  stores.push(fixture);
  return fixture;
}

function userEvent(id: string, parentId: string, text: string, ts = '2026-09-19T15:00:00.000Z'): string {
  return JSON.stringify({ type: 'message', id, parentId, timestamp: ts, message: { role: 'user', content: text, timestamp: Date.parse(ts) } });
}

interface PartRow {
  part_id: string;
  role: string;
  kind: string;
  text: string | null;
}

const partsOf = (harness: CaptureHarness, sessionId: string) =>
  harness.db.prepare('SELECT part_id, role, kind, text FROM parts WHERE session_id = ? ORDER BY part_id').all(sessionId) as PartRow[];

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('OpenClaw agent stores', () => {
  it('reads a store as the entries its JSONL held: compressed rows decoded, one entry one part whichever layout held it', async () => {
    h = openWindow();
    const events = fixtureEvents();
    // Doctor moved the imported JSONL aside, and left an unverified copy in sessions/ (both happen in real upgrades).
    const agent = join(h.openclawRoot, 'agents', 'main');
    writeJsonl(join(agent, 'session-sqlite-import-archive', `agent_main_7f3c9e2a.${SID}.jsonl.imported-1758290000000`), events.slice(0, 4));
    writeJsonl(join(agent, 'sessions', `${SID}.jsonl`), events.slice(0, 4));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 2, read: 2, partsWritten: 5 });
    const fromJsonl = partsOf(h, SESSION);

    const s = store(h.openclawRoot);
    s.append(SID, events, 'Trip planning');
    expect(s.db.prepare('SELECT COUNT(*) FROM transcript_events WHERE event_zstd IS NOT NULL').pluck().get()).toBe(1);
    // The store holds one entry more than the imported JSONL: its compaction, a part of its own.
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 3, read: 1, failed: 0, failedLines: 0, partsWritten: 1 });
    expect(partsOf(h, SESSION).filter((p) => p.kind !== 'compaction')).toEqual(fromJsonl);
    expect(partsOf(h, SESSION).filter((p) => p.kind === 'compaction').map((p) => p.part_id)).toEqual([`${SESSION}:c0ffee11:0`]);
    expect(fromJsonl.map((p) => [p.part_id, p.kind])).toEqual([
      [`${SESSION}:a9c47d10:0`, 'thinking'],
      [`${SESSION}:a9c47d10:1`, 'text'],
      [`${SESSION}:a9c47d10:2`, 'tool_use'],
      [`${SESSION}:b7d2e9f4:0`, 'tool_result'],
      [`${SESSION}:e1f0a2b3:0`, 'text'],
    ]);
  });

  it('stores a session from the store alone: the zstd row is decoded and checked, the window names the session', async () => {
    h = openWindow();
    store(h.openclawRoot).append(SID, fixtureEvents(), 'Trip planning');
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 1, read: 1, failedLines: 0, partsWritten: 6 });
    const thinking = partsOf(h, SESSION).find((p) => p.kind === 'thinking')!;
    expect(thinking.text).toContain('The user wants a train from Paris to Lyon on Friday.');
    expect(thinking.text!.length).toBeGreaterThan(1_000);
    expect(h.db.prepare('SELECT cwd, title, source FROM sessions WHERE session_id = ?').get(SESSION)).toEqual({ cwd: '/home/u/.openclaw/workspace', title: 'Trip planning', source: 'openclaw' });
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 1 });
  });

  it('a frame that does not decode to its recorded length is counted, not stored', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    s.append(SID, fixtureEvents());
    s.db.prepare('UPDATE transcript_events SET event_utf8_bytes = event_utf8_bytes + 1 WHERE event_zstd IS NOT NULL').run();
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ failedLines: 1, partsWritten: 3 });
  });

  it('reads from the per-session watermark: an append reads only the new rows, a rewrite (new generation) the whole session', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    const events = fixtureEvents();
    s.append(SID, events);
    expect(byProvider(await h.driver.tick(), 'openclaw').partsWritten).toBe(6);

    // A row before the watermark goes bad without a rewrite: a read from the watermark never sees it.
    s.db.prepare('UPDATE transcript_events SET event_json = ? WHERE session_id = ? AND seq = 1').run('{"type":"message","id":"e1f0a2b3"', SID);
    s.append(SID, [userEvent('d00d0001', 'c0ffee11', 'and a hotel near Part-Dieu?')]);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 1 });

    // A manual backfill ignores watermarks (and reads the bad row).
    expect(byProvider(await h.driver.backfill({ provider: 'openclaw', all: true }), 'openclaw')).toMatchObject({ read: 1, failedLines: 1, partsWritten: 0 });
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 1 });

    // A repair re-sequences the session with an entry before the old watermark: only a whole re-read finds it.
    const repaired = [...events.slice(0, 2), userEvent('feed0001', 'e1f0a2b3', 'Friday morning, please', '2026-09-19T14:00:06.000Z'), ...events.slice(2), userEvent('d00d0001', 'c0ffee11', 'and a hotel near Part-Dieu?')];
    s.rewrite(SID, repaired);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 1 });
    expect(partsOf(h, SESSION).map((p) => p.text)).toContain('Friday morning, please');
  });

  it('keys v1 entries (no id) a store holds by their line in the JSONL file Doctor imported, so each is one part whichever layout held it', async () => {
    h = openWindow();
    const at = (s: number) => new Date(Date.parse('2025-03-02T09:00:00.000Z') + s * 1000).toISOString();
    // pi v1: a header without a version, entries without id or parentId.
    const v1 = [
      { type: 'session', id: 'v1-sess', timestamp: at(0), cwd: '/home/sam/garden' },
      { type: 'message', timestamp: at(1), message: { role: 'user', content: 'When do I sow the beans?', timestamp: Date.parse(at(1)) } },
      { type: 'message', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'After the last frost.' }], timestamp: Date.parse(at(2)) } },
    ];
    const s = store(h.openclawRoot);
    s.append('v1-sess', v1.map((e) => JSON.stringify(e)));
    const alone = byProvider(await h.driver.tick(), 'openclaw');
    expect(alone).toMatchObject({ partsWritten: 2, failedLines: 0 });
    expect(alone.skipped).not.toHaveProperty('no_id');
    const ids = partsOf(h, 'oc:main:v1-sess').map((p) => [p.part_id, p.text]);
    expect(ids).toEqual([
      ['oc:main:v1-sess:l1:0', 'When do I sow the beans?'],
      ['oc:main:v1-sess:l2:0', 'After the last frost.'],
    ]);

    // The JSONL file beside it, and the store re-sequenced from 1 (Doctor's numbering): still one part per entry.
    writeJsonl(join(h.openclawRoot, 'agents', 'main', 'sessions', 'v1-sess.jsonl'), v1);
    s.rewrite('v1-sess', v1.map((e) => JSON.stringify(e)), 1);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ partsWritten: 0, failedLines: 0 });
    expect(partsOf(h, 'oc:main:v1-sess').map((p) => [p.part_id, p.text])).toEqual(ids);
  });

  it('reads a long session in keyset batches to its end, and an append after it from its watermark', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    const header = JSON.stringify({ type: 'session', version: 3, id: 'long-1', timestamp: '2026-09-19T15:00:00.000Z', cwd: '/home/sam/long' });
    const prompts = (from: number, n: number) => Array.from({ length: n }, (_, i) => userEvent(`e${from + i}`, i + from === 0 ? '' : `e${from + i - 1}`, `step ${from + i}`));
    s.append('long-1', [header, ...prompts(0, 1_200)]);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ partsWritten: 1_200, failedLines: 0 });
    // A row below the watermark broken in place: a read from the watermark never sees it, a re-read
    // from the start would count it as a failed line (the parts it wrote are already stored, so
    // partsWritten alone could not tell the two apart).
    s.db.prepare('UPDATE transcript_events SET event_json = ? WHERE session_id = ? AND seq = ?').run('{"type":"message"', 'long-1', 1_100);
    s.append('long-1', prompts(1_200, 3));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ partsWritten: 3, failedLines: 0 });
    expect(partsOf(h, 'oc:main:long-1')).toHaveLength(1_203);
  });

  it('reads the early session tables; a schema-1 store holds no sessions', async () => {
    h = openWindow();
    store(h.openclawRoot, 'early').append(SID, fixtureEvents());
    store(h.openclawRoot, 'schema1', 'ops');
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 2, read: 2, failed: 0, failedLines: 0, partsWritten: 6 });
  });

  it('reads cold archives (a file beside the sessions, or a blob in the store) and reclaimed reset generations, each once', async () => {
    h = openWindow();
    const cold = JSON.parse(readFileSync(join(STORE_FIXTURES, 'cold.meta.json'), 'utf8')) as Record<string, string | number>;
    const reset = JSON.parse(readFileSync(join(STORE_FIXTURES, 'reset.meta.json'), 'utf8')) as Record<string, string>;
    const coldBytes = readFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst'));
    const s = store(h.openclawRoot);
    s.append(SID, fixtureEvents().slice(0, 2));
    const insertCold = s.db.prepare(
      'INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES (@session_id, @generation, @archive_name, @archive_sha256, @event_count, @raw_bytes, @archive_bytes, @last_seq, 1, @storage, @blob)',
    );
    insertCold.run({ ...cold, storage: 'file', blob: null });
    const coldDir = join(h.openclawRoot, 'agents', 'main', 'sessions', 'cold');
    mkdirSync(coldDir, { recursive: true });
    copyFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst'), join(coldDir, String(cold.archive_name)));
    s.db
      .prepare("INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, archive_sha256, archive_name, created_at) VALUES (?, ?, 'agent:main:main', 'reset', 'zstd', ?, ?, ?, 1)")
      .run(reset.session_id, reset.generation, readFileSync(join(STORE_FIXTURES, 'reset.jsonl.zst')), reset.archive_sha256, reset.archive_name);
    // Another agent keeps its cold archive inside the store.
    const ops = store(h.openclawRoot, 'current', 'ops');
    ops.db.prepare(insertCold.source).run({ ...cold, storage: 'sqlite', blob: coldBytes });

    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 2, failedLines: 0, partsWritten: 1 + 2 + 2 + 2 });
    expect(partsOf(h, `oc:main:${String(cold.session_id)}`).map((p) => p.text)).toEqual(["What's on my calendar tomorrow?", 'Standup at 9, dentist at 2.']);
    expect(partsOf(h, `oc:ops:${String(cold.session_id)}`)).toHaveLength(2);
    expect(partsOf(h, `oc:main:${reset.session_id}`).map((p) => p.text)).toEqual(['remind me to water the plants', 'Reminder set for 18:00.']);
    expect(h.db.prepare('SELECT cwd FROM sessions WHERE session_id = ?').pluck().get(`oc:main:${String(cold.session_id)}`)).toBe('/home/u/.openclaw/workspace');

    // The archives were read: a change elsewhere in the store does not read them again (the file is gone by now).
    rmSync(join(coldDir, String(cold.archive_name)));
    s.append(SID, fixtureEvents().slice(2, 4));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 4 });
  });

  it('an archive that does not match its recorded hash is counted and tried again on the next read', async () => {
    h = openWindow();
    const cold = JSON.parse(readFileSync(join(STORE_FIXTURES, 'cold.meta.json'), 'utf8')) as Record<string, string | number>;
    const s = store(h.openclawRoot);
    s.db
      .prepare("INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES (?, ?, ?, ?, 3, 0, 0, 2, 1, 'sqlite', ?)")
      .run(cold.session_id, cold.generation, cold.archive_name, 'f'.repeat(64), readFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst')));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 1, partsWritten: 0 });
    s.db.prepare('UPDATE session_transcript_cold_archives SET archive_sha256 = ?').run(cold.archive_sha256);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 2 });
  });

  it('reads a live store without writing to it: the database file is untouched, its WAL is not checkpointed', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    s.append(SID, fixtureEvents());
    const path = agentStorePath(h.openclawRoot);
    const before = { db: sha(path), wal: sha(`${path}-wal`) };
    expect(before.wal).not.toBe(sha(join(STORE_FIXTURES, 'README.md')));
    expect(byProvider(await h.driver.tick(), 'openclaw').partsWritten).toBe(6);
    expect({ db: sha(path), wal: sha(`${path}-wal`) }).toEqual(before);
    // The writer goes on writing while Steward reads.
    s.append(SID, [userEvent('d00d0002', 'c0ffee11', 'thanks')]);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 1 });
  });

  it('a store OpenClaw closed is read without a file made beside it: no -wal, no -shm, its folder untouched; read once', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    s.append(SID, fixtureEvents());
    stores.splice(stores.indexOf(s), 1);
    s.close();
    const path = agentStorePath(h.openclawRoot);
    const folder = join(path, '..');
    const before = { names: readdirSync(folder).sort(), mtime: statSync(folder).mtimeMs, db: sha(path) };
    expect(before.names).toEqual(['openclaw-agent.sqlite']);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 6 });
    expect({ names: readdirSync(folder).sort(), mtime: statSync(folder).mtimeMs, db: sha(path) }).toEqual(before);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 1 });
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 1 });
    // OpenClaw starts again and appends: its WAL is read as before.
    const again = new Database(path);
    try {
      again.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) SELECT ?, MAX(seq) + 1, ?, 1 FROM transcript_events WHERE session_id = ?').run(SID, userEvent('d00d0003', 'c0ffee11', 'one more thing'), SID);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
      expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 1 });
    } finally {
      again.close();
    }
  });

  it('a store OpenClaw starts writing while it is read without locks: nothing read from that open is kept, the next read takes it whole', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    // Long enough to be read in several keyset batches (500 rows each).
    s.append(SID, Array.from({ length: 1_200 }, (_, i) => userEvent(`e${i}`, i === 0 ? '' : `e${i - 1}`, `step ${i}`)));
    stores.splice(stores.indexOf(s), 1);
    s.close();
    const path = agentStorePath(h.openclawRoot);
    const provider = new OpenClawProvider([h.openclawRoot]);
    const file = (await provider.discover()).files.find((f) => f.path === path)!;
    const options = { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 1 };
    const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    const read = provider.read(file, options, stats);
    expect((await read.next()).value?.parts).toHaveLength(500);
    // OpenClaw starts and commits, into a new WAL: the read stops before its next batch, and leaves no checkpoint.
    const writer = new Database(path);
    try {
      writer.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) SELECT ?, MAX(seq) + 1, ?, 1 FROM transcript_events WHERE session_id = ?').run(SID, userEvent('d00d0004', 'c0ffee11', 'and back on Sunday'), SID);
      await expect(read.next()).rejects.toMatchObject({ code: 'store_changed' });
      expect(stats.checkpoint).toBeUndefined();
      // The next read goes through SQLite's locks (a WAL is there), to the end.
      const again: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
      let parts = 0;
      for await (const batch of provider.read(file, options, again)) parts += batch.parts.length;
      expect(parts).toBe(1_201);
      expect(again.checkpoint?.state).toEqual(expect.any(String));
    } finally {
      writer.close();
    }
  });

  it('a store another process holds locked is a file caught mid-write: named, said to wait, no error of Steward\'s, and read on the next tick', async () => {
    h = openWindow();
    const s = store(h.openclawRoot);
    s.append(SID, fixtureEvents());
    const path = agentStorePath(h.openclawRoot);
    // What a process holding the store does: no other connection may read it until it lets go.
    const holder = s.db;
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const busy = byProvider(await h.driver.tick(), 'openclaw');
      expect(busy).toMatchObject({ read: 0, failed: 1, errors: [{ code: 'SQLITE_BUSY', count: 1 }], unreadable: [{ code: 'SQLITE_BUSY', count: 1 }] });
      expect(h.driver.named([busy]).unreadable).toMatchObject([{ provider: 'openclaw', path, code: 'SQLITE_BUSY' }]);
      expect(remedyOf('SQLITE_BUSY')).toBe('wait');
    } finally {
      holder.exec('COMMIT');
      holder.pragma('locking_mode = NORMAL');
      // The exclusive lock goes once the database is read again.
      holder.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    }
    // Let go, and unchanged: it is read all the same, and no longer listed.
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failed: 0, partsWritten: 6 });
    expect(h.driver.unreadable()).toMatchObject({ total: 0 });
  });

  it('a session the store holds is its own: a rewrite that changes an entry\'s text wins over the JSONL copy Doctor left', async () => {
    h = openWindow();
    const events = fixtureEvents();
    const agent = join(h.openclawRoot, 'agents', 'main');
    writeJsonl(join(agent, 'session-sqlite-import-archive', `agent_main_7f3c9e2a.${SID}.jsonl.imported-1758290000000`), events.slice(0, 4));
    const s = store(h.openclawRoot);
    s.append(SID, events);
    await h.driver.tick();
    const edited = events.map((e) => e.replace('a train to Lyon on Friday', 'a train to Marseille on Friday'));
    expect(edited).not.toEqual(events);
    s.rewrite(SID, edited, 0);
    await h.driver.tick();
    await h.driver.backfill({ provider: 'openclaw', all: true });
    const texts = partsOf(h, SESSION).map((p) => p.text);
    expect(texts.join('\n')).toContain('Find me a train to Marseille on Friday');
    expect(texts.join('\n')).not.toContain('Find me a train to Lyon on Friday');
  });

  it('reads a zstd-compressed archived sibling (….jsonl.deleted.<ts>.zst) as the JSONL it holds', async () => {
    h = openWindow();
    const reset = JSON.parse(readFileSync(join(STORE_FIXTURES, 'reset.meta.json'), 'utf8')) as Record<string, string>;
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    mkdirSync(sessions, { recursive: true });
    copyFileSync(join(STORE_FIXTURES, 'reset.jsonl.zst'), join(sessions, `${reset.session_id}.jsonl.deleted.1757900000000.zst`));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, failedLines: 0, partsWritten: 2 });
    expect(partsOf(h, `oc:main:${reset.session_id}`).map((p) => p.text)).toEqual(['remind me to water the plants', 'Reminder set for 18:00.']);
  });

  it('a session OpenClaw deleted from its store is no longer held there; one listed again, or only archived, still is, met by the read or not', async () => {
    // Scheduled reads keep a month: the fixture rows (September 2026) are older than that.
    h = captureHarness({ query: { cache: { retention: { default_days: 30 } } } });
    const cold = JSON.parse(readFileSync(join(STORE_FIXTURES, 'cold.meta.json'), 'utf8')) as Record<string, string | number>;
    const reset = JSON.parse(readFileSync(join(STORE_FIXTURES, 'reset.meta.json'), 'utf8')) as Record<string, string>;
    const other = '0a1b2c3d-0000-4000-8000-000000000002';
    const s = store(h.openclawRoot);
    s.append(SID, fixtureEvents());
    s.append(other, [JSON.stringify({ type: 'session', version: 3, id: other, timestamp: new Date().toISOString(), cwd: '/w' }), userEvent('0f000001', '', 'still here', new Date().toISOString())]);
    s.db
      .prepare("INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES (?, ?, ?, ?, 3, 0, 0, 2, 1, 'sqlite', ?)")
      .run(cold.session_id, cold.generation, cold.archive_name, cold.archive_sha256, readFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst')));
    s.db
      .prepare("INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, archive_sha256, archive_name, created_at) VALUES (?, ?, 'agent:main:main', 'reset', 'zstd', ?, ?, ?, 1)")
      .run(reset.session_id, reset.generation, readFileSync(join(STORE_FIXTURES, 'reset.jsonl.zst')), reset.archive_sha256, reset.archive_name);
    await h.driver.backfill({ provider: 'openclaw', all: true });
    const conversations = [SESSION, `oc:main:${other}`, `oc:main:${String(cold.session_id)}`, `oc:main:${reset.session_id}`];
    const gone = () => h!.db.prepare("SELECT id FROM file_holds WHERE kind = 'session' AND path = ? AND gone_at IS NOT NULL ORDER BY id").pluck().all(s.path);
    expect(h.db.prepare("SELECT id FROM file_holds WHERE kind = 'session' AND path = ? ORDER BY id").pluck().all(s.path)).toEqual([...conversations].sort());

    // Deleted: the database file is there, the session is not. The archives, not read again, are still in it.
    s.deleteSession(SID);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 0 });
    expect(gone()).toEqual([SESSION]);
    expect(h.db.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(SESSION)).toBe(6);

    // Restored, every row older than the window: the read stores nothing of it, yet the store holds it again.
    s.append(SID, fixtureEvents());
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 0 });
    expect(gone()).toEqual([]);
  });

  it('finds a store at a custom path through the shared registry; its agent id comes from the store', async () => {
    h = openWindow();
    const custom = join(h.home.dir, 'elsewhere', 'work-agent.sqlite');
    store(h.openclawRoot, 'current', 'work', custom).append(SID, fixtureEvents());
    mkdirSync(join(h.openclawRoot, 'state'), { recursive: true });
    const registry = new Database(join(h.openclawRoot, 'state', 'openclaw.sqlite'));
    registry.pragma('journal_mode = WAL');
    registry.exec('CREATE TABLE agent_databases (agent_id TEXT NOT NULL PRIMARY KEY, path TEXT NOT NULL, schema_version INTEGER, last_seen_at INTEGER, size_bytes INTEGER)');
    registry.prepare('INSERT INTO agent_databases VALUES (?, ?, 21, 1, 0)').run('work', custom);
    registry.close();
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 1, read: 1, partsWritten: 6 });
    expect(partsOf(h, `oc:work:${SID}`)).toHaveLength(6);
    // The registry OpenClaw closed is read without a file made beside it, as a store is.
    expect(readdirSync(join(h.openclawRoot, 'state'))).toEqual(['openclaw.sqlite']);
  });
});
