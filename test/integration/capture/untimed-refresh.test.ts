import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openGateway, SearchIndex } from '../../../core/gateway/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/*
 * A part whose line has no time was stored before gateway step 29 with a null `ts` (it reads first in
 * its conversation). A read of its file from the start (a newer parser's) gives it its place (placed.ts)
 * where its stored ts is null; a stored time is never changed.
 */
const SID = '6f1d8e2f-4a1b-4e8f-8d72-3b9f1c0a5d21';
const CWD = '/work/meadow';
const T0 = Date.now() - 86_400_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const U1 = '6f1d8e2f-0000-4000-8000-000000000001';
const UNTIMED = '6f1d8e2f-0000-4000-8000-000000000002';
const A1 = '6f1d8e2f-0000-4000-8000-000000000003';
const owned = coreHome('steward-untimed-refresh-');

/** A line as Claude Code writes one it gave no time: the same envelope, no `timestamp`. */
function untimed(line: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _dropped, ...rest } = line;
  return rest;
}

/** `use` on the home's gateway.db while no Core holds it. */
function onStore<T>(dir: string, use: (db: Database.Database) => T): T {
  const db = openGateway(dir);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

const partsOf = (db: Database.Database) =>
  db.prepare('SELECT part_id, ts, ts_inferred FROM parts WHERE session_id = ? ORDER BY part_id').raw().all(SID) as Array<[string, number | null, number]>;

describe('a part stored with no time before its place was', () => {
  it('gets its place when its file is read again from the start; timed parts keep their times', async () => {
    const { home } = owned;
    const root = join(home.dir, 'roots', 'claude');
    writeJsonl(join(root, 'projects', '-work-meadow', `${SID}.jsonl`), [
      claudeLine({ sessionId: SID, cwd: CWD, ts: at(0), uuid: U1, text: 'Mow the meadow paths' }),
      untimed(claudeLine({ sessionId: SID, cwd: CWD, uuid: UNTIMED, text: 'And the edges by the pond' })),
      claudeLine({ sessionId: SID, cwd: CWD, ts: at(2), uuid: A1, type: 'assistant', text: 'Mowed the paths and the pond edges.' }),
    ]);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    await owned.open().call('Backfill.Run', { all: true });
    await owned.close();

    // As an earlier version stored it, read by an earlier parser: no time, no place.
    // Indexed as it was then, under a null time's key (the oldest): last in a newest-first search.
    const timed = onStore(home.dir, (db) => {
      const rowid = db.prepare('SELECT rowid FROM parts WHERE part_id = ?').pluck().get(`cc:${UNTIMED}:0`) as number;
      new SearchIndex(db).rewriteParts([rowid], () => db.prepare('UPDATE parts SET ts = NULL, ts_inferred = 0 WHERE rowid = ?').run(rowid));
      db.prepare("UPDATE file_checkpoints SET parser_version = parser_version - 1 WHERE provider = 'claude'").run();
      return partsOf(db).filter(([id]) => id !== `cc:${UNTIMED}:0`);
    });
    const old = owned.open();
    const before = await old.call('Sessions.Get', { sessionId: SID });
    expect(before.messages.map((m) => m.messageId)).toEqual([`cc:${UNTIMED}`, `cc:${U1}`, `cc:${A1}`]);
    const oldest = await old.call('Search.Query', { query: 'mow OR mowed OR pond', sort: 'newest' });
    expect(oldest.hits.map((h) => h.partId)).toEqual([`cc:${A1}:0`, `cc:${U1}:0`, `cc:${UNTIMED}:0`]);
    await owned.close();

    const core = owned.open();
    await core.call('Sweep.Tick', {});
    const got = await core.call('Sessions.Get', { sessionId: SID });
    expect(got.messages.map((m) => m.messageId)).toEqual([`cc:${U1}`, `cc:${UNTIMED}`, `cc:${A1}`]);
    expect(got.messages.map((m) => m.ts)).toEqual([at(0).getTime(), null, at(2).getTime()]);
    expect(got.session.firstRequest).toBe('Mow the meadow paths');
    const newest = await core.call('Search.Query', { query: 'mow OR mowed OR pond', sort: 'newest' });
    expect(newest.hits.map((h) => [h.partId, h.ts])).toEqual([
      [`cc:${A1}:0`, at(2).getTime()],
      [`cc:${UNTIMED}:0`, null],
      [`cc:${U1}:0`, at(0).getTime()],
    ]);
    await owned.close();

    onStore(home.dir, (db) => {
      const rows = partsOf(db);
      expect(rows.find(([id]) => id === `cc:${UNTIMED}:0`)).toEqual([`cc:${UNTIMED}:0`, at(0).getTime(), 1]);
      expect(rows.filter(([id]) => id !== `cc:${UNTIMED}:0`)).toEqual(timed);
    });
  });
});
