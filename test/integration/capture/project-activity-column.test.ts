import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { coreHome } from '../../support/core.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/*
 * projects.last_activity_at is no longer written: a project's last activity is read from its newest
 * stored conversation (ProjectStore's toRecord), and the column, which only rose, kept a forgotten or
 * pruned conversation's time. New rows leave it NULL, and later sessions do not raise it.
 */
const SESSION = '5b1e2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c51';
const CWD = '/home/ana/src/column';
const PROJECT = '-home-ana-src-column';
const BASE = Math.floor((Date.now() - 60 * 60_000) / 1000) * 1000;
const at = (minutes: number) => new Date(BASE + minutes * 60_000);
const owned = coreHome('steward-activity-column-');

const line = (m: number) => claudeLine({ sessionId: SESSION, cwd: CWD, type: m % 2 === 0 ? 'user' : 'assistant', text: `turn ${m}`, ts: at(m), uuid: `00000000-0000-4000-8000-7e00000000${String(m).padStart(2, '0')}` });

function column(dir: string): unknown[] {
  const db = new Database(join(dir, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT last_activity_at FROM projects').pluck().all();
  } finally {
    db.close();
  }
}

describe('projects.last_activity_at', () => {
  it('stays NULL through captures, while the list shows the newest conversation’s time', async () => {
    const { home } = owned;
    const root = join(home.dir, 'roots', 'claude');
    const file = join(root, 'projects', PROJECT, `${SESSION}.jsonl`);
    writeJsonl(file, [line(2), line(3)]);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    const core = owned.open();
    await core.call('Sweep.Tick', {});
    expect(column(home.dir)).toEqual([null]);
    expect((await core.call('Projects.List', {})).projects).toMatchObject([{ lastActivityAt: at(3).getTime() }]);

    appendJsonl(file, [line(4), line(5)]);
    await core.call('Sweep.Tick', {});
    expect(column(home.dir)).toEqual([null]);
    expect((await core.call('Projects.List', {})).projects).toMatchObject([{ lastActivityAt: at(5).getTime() }]);
  });
});
