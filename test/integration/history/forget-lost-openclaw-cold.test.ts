import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { FileCheckpoints, openGateway } from '../../../core/gateway/index.js';
import { archiveLines } from '../../../core/transcripts/compressed.js';
import { historyOwnerPerTest } from '../../support/history.js';
import { tempHome } from '../../support/home.js';
import { AgentStoreFixture, agentStorePath, STORE_FIXTURES } from '../../support/openclaw-store.js';

/**
 * Forget.Lost for a conversation OpenClaw moved into a cold archive kept as a file (`sessions/cold/`):
 * the store only names the archive, the file holds its lines. The file deleted while the store's row
 * stays is the conversation's only copy gone; a cold archive kept inside the store is held by the store.
 */

const owner = historyOwnerPerTest();
const stores: AgentStoreFixture[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const ON_DISK = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const ONE_LOST = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const cold = JSON.parse(readFileSync(join(STORE_FIXTURES, 'cold.meta.json'), 'utf8')) as Record<string, string | number>;
const COLD = `oc:main:${String(cold.session_id)}`;
const HOT = '5e551066-ffff-4fff-8fff-000000000006';

function hotEvents(): string[] {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  return [
    JSON.stringify({ type: 'session', version: 3, id: HOT, timestamp: at, cwd: '/home/u/.openclaw/workspace' }),
    JSON.stringify({ type: 'message', id: 'h0700001', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: 'a hot one' }], timestamp: Date.parse(at) } }),
  ];
}

const lost = (c: Core, id: string) => c.call('Forget.Lost', { kind: 'session', id });

describe('Forget.Lost for a conversation in an OpenClaw cold archive', () => {
  /** A store with one hot session and the fixture's cold archive, `storage` 'file' (under sessions/cold/) or 'sqlite'. */
  function opened(storage: 'file' | 'sqlite'): { c: Core; archive: string } {
    // An open window: the cold archive's lines carry their real (past) times.
    const { c, fixture } = owner.open('steward-lost-oc-cold-', (home) => writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ query: { cache: { retention: { default_days: 0 } } } })));
    const store = new AgentStoreFixture(agentStorePath(fixture.openclawRoot), 'current', 'main');
    stores.push(store);
    store.append(HOT, hotEvents());
    const bytes = readFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst'));
    store.db
      .prepare(
        'INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES (@session_id, @generation, @archive_name, @archive_sha256, @event_count, @raw_bytes, @archive_bytes, @last_seq, 1, @storage, @blob)',
      )
      .run({ ...cold, storage, blob: storage === 'sqlite' ? bytes : null });
    const dir = join(fixture.openclawRoot, 'agents', 'main', 'sessions', 'cold');
    mkdirSync(dir, { recursive: true });
    const archive = join(dir, String(cold.archive_name));
    if (storage === 'file') copyFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst'), archive);
    return { c, archive };
  }

  it('is lost once its archive file is deleted, though the store still names it; on disk again when the file is back', async () => {
    const { c, archive } = opened('file');
    await c.call('Sweep.Tick', {});
    expect(await lost(c, COLD)).toEqual(ON_DISK);
    expect(await lost(c, `oc:main:${HOT}`)).toEqual(ON_DISK);

    rmSync(archive);
    expect(await lost(c, COLD)).toEqual(ONE_LOST);
    // The store unchanged (not read again), then changed (read again, the archive unchanged in it): still lost.
    await c.call('Sweep.Tick', {});
    expect(await lost(c, COLD)).toEqual(ONE_LOST);
    stores[0]!.append(HOT, [JSON.stringify({ type: 'message', id: 'h0700002', parentId: 'h0700001', timestamp: new Date().toISOString(), message: { role: 'user', content: 'more', timestamp: Date.now() } })]);
    await c.call('Sweep.Tick', {});
    expect(await lost(c, COLD)).toEqual(ONE_LOST);
    expect(await lost(c, `oc:main:${HOT}`)).toEqual(ON_DISK);

    copyFileSync(join(STORE_FIXTURES, 'cold.jsonl.zst'), archive);
    expect(await lost(c, COLD)).toEqual(ON_DISK);
  });

  it('a conversation OpenClaw moved from the store\'s rows into a cold archive file is that file\'s: lost with it, not with the store', async () => {
    const { c, archive } = opened('file');
    const store = stores[0]!;
    // Before: the same conversation as rows of the store (the archive's own events), read as such.
    const moved = store.db.prepare('DELETE FROM session_transcript_cold_archives RETURNING *').get() as Record<string, unknown>;
    const rows = [...archiveLines(readFileSync(archive), 1 << 20)].flat().map((line) => (line === '' ? undefined : (JSON.parse(line) as { kind: string; row?: { event_json?: string } })));
    store.append(String(cold.session_id), rows.flatMap((r) => (r?.kind === 'event' && r.row?.event_json ? [r.row.event_json] : [])));
    await c.call('Sweep.Tick', {});
    expect(await lost(c, COLD)).toEqual(ON_DISK);

    // OpenClaw moves it cold: its rows go, the archive's row names the file.
    store.db.prepare('DELETE FROM transcript_events WHERE session_id = ?').run(cold.session_id);
    store.db.prepare(`INSERT INTO session_transcript_cold_archives (${Object.keys(moved).join(', ')}) VALUES (${Object.keys(moved).map((k) => `@${k}`).join(', ')})`).run(moved);
    await c.call('Sweep.Tick', {});
    expect(await lost(c, COLD)).toEqual(ON_DISK);
    rmSync(archive);
    expect(await lost(c, COLD)).toEqual(ONE_LOST);
  });

  it('forgotten, then unforgotten while its archive file is there, it comes back at the next check; with the file deleted, nothing is left', async () => {
    const { c, archive } = opened('file');
    await c.call('Sweep.Tick', {});
    await c.call('Forget.Session', { sessionId: COLD });
    expect(await c.call('Forget.Lift', { kind: 'session', id: COLD })).toEqual({ lifted: true, nextCheck: 'all' });
    await c.call('Sweep.Tick', {});
    expect((await c.call('Sessions.Get', { sessionId: COLD })).session.sessionId).toBe(COLD);

    await c.call('Forget.Session', { sessionId: COLD });
    rmSync(archive);
    expect(await c.call('Forget.Lift', { kind: 'session', id: COLD })).toEqual({ lifted: true, nothingLeft: true });
  });

  it('a cold archive kept inside the store is held by the store file', async () => {
    const { c } = opened('sqlite');
    await c.call('Sweep.Tick', {});
    expect(await lost(c, COLD)).toEqual(ON_DISK);
  });
});

describe('where a store says a conversation\'s lines are kept apart', () => {
  const STORE = '/oc/agents/main/agent/openclaw-agent.sqlite';
  const OWN = '/oc/agents/main/sessions/41aa0b7c.jsonl';
  const [COPIED, KEPT_OUT] = ['oc:main:41aa0b7c', 'oc:main:5e5510bb'];
  const checkpoint = (path: string, more: object = {}) => ({ path, dev: 1n, ino: 1n, size: 1, mtimeMs: 1, offset: 0, headHash: '', tailHash: '', parserVersion: 1, windowStartMs: null, state: null, olderLeftOut: null, ...more });

  it('says it on the holds the read wrote, and writes no hold of its own: a copy stays a copy, a conversation kept out is held by its record alone', () => {
    const home = tempHome('steward-lines-apart-');
    const db = openGateway(home.dir);
    try {
      const holds = new FileCheckpoints(db);
      // The conversation's own file holds it; the store, read after, a copy of it (and one a project record keeps out).
      holds.fileBegins();
      holds.held('session', COPIED, true);
      holds.put('openclaw', checkpoint(OWN));
      holds.fileBegins();
      holds.held('copy', COPIED);
      holds.held('project', 'pk', false, undefined, KEPT_OUT);
      const heldIn = { [COPIED]: '/oc/agents/main/sessions/cold/a.jsonl.zst', [KEPT_OUT]: '/oc/agents/main/sessions/cold/b.jsonl.zst' };
      holds.put('openclaw', checkpoint(STORE, { holds: [COPIED, KEPT_OUT], heldIn }));
      // Read again, meeting neither (the archives unchanged): the listing alone.
      holds.fileBegins();
      holds.put('openclaw', checkpoint(STORE, { holds: [COPIED, KEPT_OUT], heldIn }));
      expect(db.prepare('SELECT kind, id, lines_at AS linesAt FROM file_holds WHERE path = ? ORDER BY kind, id').all(STORE)).toEqual([
        { kind: 'copy', id: COPIED, linesAt: heldIn[COPIED] },
        { kind: 'project', id: 'pk', linesAt: null },
      ]);
      expect(holds.heldElsewhere(COPIED, 'openclaw', STORE)).toBe(true);
    } finally {
      db.close();
      home.cleanup();
    }
  });
});
