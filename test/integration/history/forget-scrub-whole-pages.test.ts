import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskScrub, openGateway, SearchIndex } from '../../../core/gateway/index.js';
import { truncateHere } from '../../../core/gateway/checkpointer.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// A tester's finding: `forget --project KEY --scrub` after a sweeper run said the disk was wiped, yet
// gateway.db still held the conversation's words in a free page whose start was zeros. The wipe's
// rows of zeros did not fill the last page of each row's overflow chain: a free page taken for it
// kept its old tail (the last ~2 KB of a 16 KiB page), then was freed again as it was.

const PHRASE = 'kitchen sink';
const SESSION = '11111111-0000-4000-8000-000000000001';
/** Parts big enough that the conversation spans many pages, some of them freed whole (6 of 6 runs). */
const LINES = 60;
const PADDING = 'lorem ipsum dolor '.repeat(20);

let home: TempHome | undefined;
afterEach(() => home?.cleanup());

/** How many times the phrase is in the raw bytes of gateway.db and its WAL. */
function copiesOnDisk(dir: string): number {
  let found = 0;
  for (const file of ['gateway.db', 'gateway.db-wal']) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (let at = bytes.indexOf(PHRASE); at >= 0; at = bytes.indexOf(PHRASE, at + 1)) found += 1;
  }
  return found;
}

function writeConversation(root: string): void {
  const start = Date.now() - 3_600_000;
  const lines = Array.from({ length: LINES }, (_, i) =>
    claudeLine({
      sessionId: SESSION,
      cwd: '/work/sinkproj',
      type: i % 2 === 0 ? 'user' : 'assistant',
      text: i % 2 === 0 ? `Please fix the ${PHRASE} drain number ${i} and the faucet too ${PADDING}` : `I looked at the ${PHRASE} plumbing; step ${i} done.`,
      ts: new Date(start + i * 60_000),
    }),
  );
  writeJsonl(join(root, 'projects', '-work-sinkproj', `${SESSION}.jsonl`), lines);
}

describe('forget --scrub after a sweeper run', () => {
  it('leaves no copy of the conversation in gateway.db or its WAL, as it says', async () => {
    home = tempHome('steward-scrub-pages-');
    const root = join(home.dir, 'claude');
    writeConversation(root);
    const env = { ...home.env, STEWARD_CLAUDE_ROOTS: root };
    const cli = (...argv: string[]) => runIn(env, ...argv);

    expect((await cli('backfill', '--all')).code).toBe(0);
    const { projects } = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string }> };
    const key = projects[0]!.projectKey;
    expect((await cli('sweeper', 'run', key)).code).toBe(0);
    expect(copiesOnDisk(home.dir)).toBeGreaterThan(0);

    const forgot = await cli('forget', '--project', key, '--scrub');
    expect(forgot.code).toBe(0);
    expect(forgot.out).toContain('gateway.db and its journal hold none of it');
    expect(copiesOnDisk(home.dir)).toBe(0);
  });
});

describe('the wipe of free pages', () => {
  it('leaves nothing in a page another write took between the forget and the wipe (an attacker\'s finding)', async () => {
    home = tempHome('steward-scrub-taken-');
    const db = openGateway(home.dir);
    try {
      const insert = db.prepare('INSERT INTO telemetry (at, kind, data) VALUES (?, ?, ?)');
      for (let i = 0; i < 3; i += 1) insert.run(i, 'filler', `${PHRASE} `.repeat(20_000));
      const scrub = new DiskScrub(db, new SearchIndex(db));
      const own = db.pragma('secure_delete', { simple: true });
      // As a forget that asks for a wipe: owed before anything is deleted.
      scrub.owe();
      db.prepare('DELETE FROM telemetry').run();
      truncateHere(db);
      // Capture writes meanwhile: a row that takes every free page, the freelist's trunk last, written in part.
      insert.run(9, 'other', 'x'.repeat(787_500));
      expect(await scrub.run()).toBe(true);
      expect(copiesOnDisk(home.dir)).toBe(0);
      // The connection's own setting is back once the wipe's fold is done.
      expect(db.pragma('secure_delete', { simple: true })).toBe(own);
    } finally {
      db.close();
    }
  });

  it('overwrites each free page whole, the last page of a row of zeros too', async () => {
    home = tempHome('steward-scrub-free-');
    const db = openGateway(home.dir);
    try {
      // Rows each a chain of overflow pages full of the phrase, deleted: their pages are free and
      // keep it (secure_delete FAST zeroes cells, not pages freed whole). The first one freed becomes
      // the freelist's trunk, which a row of zeros takes last: the last page of its overflow chain.
      const text = `${PHRASE} `.repeat(20_000);
      const insert = db.prepare('INSERT INTO telemetry (at, kind, data) VALUES (?, ?, ?)');
      for (let i = 0; i < 3; i += 1) insert.run(i, 'filler', text);
      db.prepare('DELETE FROM telemetry').run();
      truncateHere(db);
      expect(db.pragma('freelist_count', { simple: true })).toBeGreaterThan(10);
      expect(copiesOnDisk(home.dir)).toBeGreaterThan(0);

      expect(await new DiskScrub(db, new SearchIndex(db)).run()).toBe(true);
      expect(copiesOnDisk(home.dir)).toBe(0);
    } finally {
      db.close();
    }
  });
});
