import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIo, runIn } from '../../support/cli.js';
import { runCli } from '../../../core/cli/index.js';
import { historyHome, IDS, type HistoryFixture } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// QA B1 on the command line: forgetting a conversation whose transcript the agent deleted deletes the
// only copy. The CLI says so before it deletes, asks (or, where nobody can answer, wants --yes), and
// neither forget nor unforget promises it can come back.

let home: TempHome;
let fixture: HistoryFixture;
const cli = (...argv: string[]) => runIn(home.env, ...argv);

beforeEach(async () => {
  ({ home, fixture } = historyHome('steward-cli-forget-gone-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
  const dir = join(fixture.claudeRoot, 'projects', '-work-orchard');
  rmSync(join(dir, `${IDS.pruning}.jsonl`));
  rmSync(join(dir, IDS.pruning), { recursive: true });
});

afterEach(() => home?.cleanup());

/** A terminal where the person answers `answer`. */
async function inTerminal(answer: boolean, ...argv: string[]): Promise<{ code: number; out: string; err: string; asked: string[] }> {
  const asked: string[] = [];
  // The captured io itself: its stdout writes to the object it made.
  const io = Object.assign(captureIo(home.env), { interactive: () => true, confirm: (q: string) => (asked.push(q), Promise.resolve(answer)) });
  const code = await runCli(argv, io);
  return { code, out: io.out, err: io.err, asked };
}

describe('steward forget of a conversation whose transcript is gone', () => {
  it('is refused where nobody can confirm, saying why, and deletes nothing', async () => {
    const refused = await cli('forget', '--session', IDS.pruning);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('transcript is no longer on disk: Steward holds the only copy. Forgetting it deletes it for good.');
    expect(refused.err).toContain('--yes');
    expect((await cli('sessions', 'show', IDS.pruning)).code).toBe(0);
  });

  it('--json refused carries what it would forget: kind, id and how much is lost for good', async () => {
    const session = await cli('forget', '--session', IDS.pruning, '--json');
    expect(session.code).toBe(1);
    expect(JSON.parse(session.out)).toMatchObject({
      error: { code: 'confirmation_required', remediation: 'Pass --yes to forget it all the same.', details: { plan: { kind: 'session', id: IDS.pruning, conversations: 1, lost: 1, unknown: 0 } } },
    });
    const project = await cli('forget', '--project', 'orchard', '--json');
    expect(project.code).toBe(1);
    expect(JSON.parse(project.out)).toMatchObject({ error: { code: 'confirmation_required', details: { plan: { kind: 'project', conversations: 2, lost: 1, unknown: 0 } } } });
    expect((await cli('sessions', 'show', IDS.pruning)).code).toBe(0);
  });

  it('asks in a terminal: no keeps it, yes forgets it for good, and neither word promises it back', async () => {
    const no = await inTerminal(false, 'forget', '--session', IDS.pruning);
    expect(no).toMatchObject({ code: 0, out: 'Nothing was forgotten.\n' });
    expect(no.err).toContain('Steward holds the only copy');
    expect(no.asked).toHaveLength(1);
    expect((await cli('sessions', 'show', IDS.pruning)).code).toBe(0);

    const yes = await inTerminal(true, 'forget', '--session', IDS.pruning);
    expect(yes.code).toBe(0);
    expect(yes.out).toContain('cannot be brought back');
    expect(yes.out).not.toContain('unforget');

    const lifted = await cli('unforget', '--session', IDS.pruning);
    expect(lifted.code).toBe(0);
    expect(lifted.out).toContain('nothing of it is left to import');
    expect(lifted.out).not.toContain('backfill');
  });

  it('--yes forgets it without asking', async () => {
    const done = await cli('forget', '--session', IDS.pruning, '--yes');
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/^Forgot conversation [\w-]+: deleted it from Steward for good\. /);
  });

  it('a conversation whose transcript is on disk is forgotten as before, unasked', async () => {
    const done = await inTerminal(true, 'forget', '--session', IDS.config);
    expect(done).toMatchObject({ code: 0, asked: [] });
    expect(done.out).toContain('It stays out of future imports');
  });

  it('a project counts the conversations it would lose for good', async () => {
    const refused = await cli('forget', '--project', 'orchard');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('1 of its 2 conversations has no transcript left on disk: Steward holds the only copy. Forgetting the project deletes it for good.');
    const done = await cli('forget', '--project', 'orchard', '--yes');
    expect(done.code).toBe(0);
    expect(done.out).toContain('1 of them cannot be brought back: its transcript was no longer on disk.');
  });

  it('--json says how many it deleted for good', async () => {
    const done = await cli('forget', '--session', IDS.pruning, '--yes', '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ kind: 'session', id: IDS.pruning, lost: 1, unknown: 0 });
    const project = await cli('forget', '--project', 'orchard', '--json');
    expect(JSON.parse(project.out)).toMatchObject({ kind: 'project', lost: 0, unknown: 0 });
  });

  it('one imported before Steward recorded its files is forgotten as before: not called lost', async () => {
    // An upgraded store: no read since recorded which file holds it (its file is on disk, unchanged).
    const db = new Database(join(home.dir, 'gateway.db'));
    db.prepare('DELETE FROM file_holds WHERE id = ?').run(IDS.config);
    db.close();
    const done = await cli('forget', '--session', IDS.config, '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ removedSessions: 1, lost: 0, unknown: 1 });
  });
});
