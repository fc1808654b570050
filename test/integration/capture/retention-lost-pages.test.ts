import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGateway, RetentionPruner } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

const DAY = 86_400_000;
const NOW = Date.now();
const OLD = NOW - 400 * DAY;
const CUTOFF = NOW - 30 * DAY;

let home: TempHome | undefined;
let db: Db | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  db?.close();
  home?.cleanup();
  db = undefined;
  home = undefined;
});

/** Sessions with no parts left, so a pass at CUTOFF empties every old one; `held` names the transcript file it was read from. */
function addSessions(store: Db, rows: ReadonlyArray<{ id: string; provider?: string; lastTs?: number; parent?: string; held?: string }>): void {
  const session = store.prepare('INSERT INTO sessions (session_id, provider, parent_session_id, first_ts, last_ts, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  const hold = store.prepare("INSERT INTO file_holds (kind, id, provider, path) VALUES ('session', ?, ?, ?)");
  store.transaction(() => {
    for (const r of rows) {
      const provider = r.provider ?? 'claude';
      session.run(r.id, provider, r.parent ?? null, r.lastTs ?? OLD, r.lastTs ?? OLD, NOW);
      if (r.held !== undefined) hold.run(r.id, provider, r.held);
    }
  })();
}

/** Every statement prepared on the store from now on (until the spy is restored). */
function prepared(store: Db): Statement[] {
  const prepared: Statement[] = [];
  const prepare = store.prepare.bind(store);
  vi.spyOn(store, 'prepare').mockImplementation(((sql: string) => {
    const statement = prepare(sql);
    prepared.push(statement);
    return statement;
  }) as Db['prepare']);
  return prepared;
}

describe('RetentionPruner.lost on a large store', () => {
  it('reads the sessions a page at a time, a turn of the event loop between, and counts every gone conversation', async () => {
    home = tempHome('steward-retention-lost-');
    db = openGateway(home.dir);
    const gone = join(home.dir, 'deleted.jsonl');
    const onDisk = join(home.dir, 'kept.jsonl');
    writeFileSync(onDisk, '{}\n');
    const pad = (n: number) => String(n).padStart(5, '0');
    addSessions(db, [
      ...Array.from({ length: 3_000 }, (_, i) => ({ id: `a-${pad(i)}`, held: i % 3 === 0 ? gone : i % 3 === 1 ? onDisk : undefined })),
      // Inside the window, another provider's, and a subagent: none is a conversation this pass empties.
      ...Array.from({ length: 50 }, (_, i) => ({ id: `b-${pad(i)}`, lastTs: NOW, held: gone })),
      ...Array.from({ length: 50 }, (_, i) => ({ id: `c-${pad(i)}`, provider: 'codex', held: gone })),
      { id: 'a-00000:agent-1', parent: 'a-00000', held: gone },
    ]);

    const statements = prepared(db);
    const pruner = new RetentionPruner(db);
    vi.restoreAllMocks();
    // The reads of session rows a page at a time (LIMIT), the pass's delete apart: each call is a page.
    const pages = statements.filter((s) => /\bFROM sessions\b/.test(s.source) && /\bLIMIT\b/.test(s.source) && !/^\s*DELETE/i.test(s.source));
    const spies = pages.flatMap((s) => [vi.spyOn(s, 'all'), vi.spyOn(s, 'get')]);
    let turns = 0;
    let lost: number | undefined;
    const counting = pruner.lost('claude', CUTOFF).then((n) => (lost = n));
    // Turns of the event loop while it reads: one per page at least.
    while (lost === undefined) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns += 1;
    }
    await counting;

    expect(lost).toBe(1_000);
    const reads = spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
    expect(reads).toBeGreaterThan(3);
    expect(turns).toBeGreaterThan(3);
  });
});
