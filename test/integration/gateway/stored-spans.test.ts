import { afterEach, describe, expect, it } from 'vitest';
import { openGateway, StoredSpans } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome | undefined;
let db: Db | undefined;

afterEach(() => {
  db?.close();
  home?.cleanup();
  db = home = undefined;
});

describe('the stored messages’ dates per provider (the survey’s)', () => {
  it('walks every session in pieces, and gives each provider its earliest first line and latest last line', async () => {
    home = tempHome('steward-stored-spans-');
    db = openGateway(home.dir);
    const insert = db.prepare('INSERT INTO sessions (session_id, provider, source, first_ts, last_ts, updated_at) VALUES (?, ?, ?, ?, ?, 1)');
    // More sessions than a first piece reads, the extremes in the last ones.
    db.transaction(() => {
      for (let i = 0; i < 5_000; i++) insert.run(`c${i}`, 'claude', 'code', 1_000 + i, 2_000 + i);
      insert.run('g0', 'gemini', 'gemini', 500, 900);
      insert.run('c-old', 'claude', 'desktop', 10, 20);
      insert.run('c-new', 'claude', 'code', 3_000, 90_000);
      // A session without line times (none of its lines had one) says nothing.
      insert.run('x0', 'codex', 'codex', null, null);
    })();
    const spans = await new StoredSpans(db).byProvider();
    expect(Object.fromEntries(spans)).toEqual({ claude: { oldestAt: 10, newestAt: 90_000 }, gemini: { oldestAt: 500, newestAt: 900 } });
  });

  it('is empty before anything was imported', async () => {
    home = tempHome('steward-stored-spans-');
    db = openGateway(home.dir);
    expect((await new StoredSpans(db).byProvider()).size).toBe(0);
  });
});
