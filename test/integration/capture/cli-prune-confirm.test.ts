import { mkdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo, runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';

// QA B8: `steward cache prune` removed a year of imported history at once, unasked, the only copy of
// conversations whose transcripts the agent had deleted among it. It counts first, says what would go
// (and how much of it Steward alone holds), and asks in a terminal or wants --yes elsewhere.

let home: TempHome;
let claude: string;
let oldFiles: string[];
const cli = (...argv: string[]) => runIn(home.env, ...argv);
const DAY = 86_400_000;

beforeEach(async () => {
  home = tempHome('steward-cli-prune-confirm-');
  claude = join(home.dir, 'roots', 'claude');
  mkdirSync(claude, { recursive: true });
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  // Two conversations of two years ago (2 messages each), one of today.
  oldFiles = [claudeSession(claude, 'old-a', 2, { ts: new Date(Date.now() - 700 * DAY) }), claudeSession(claude, 'old-b', 2, { ts: new Date(Date.now() - 600 * DAY) })];
  claudeSession(claude, 'recent', 2);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterEach(() => home?.cleanup());

/** A terminal where the person answers `answer`. */
async function inTerminal(answer: boolean, ...argv: string[]): Promise<{ code: number; out: string; err: string; asked: string[] }> {
  const asked: string[] = [];
  const io = Object.assign(captureIo(home.env), { interactive: () => true, confirm: (q: string) => (asked.push(q), Promise.resolve(answer)) });
  const code = await runCli(argv, io);
  return { code, out: io.out, err: io.err, asked };
}

async function storedParts(): Promise<number> {
  const dry = await cli('cache', 'prune', '--dry-run', '--json');
  return (JSON.parse(dry.out) as { removedParts: number }).removedParts;
}

describe('steward cache prune asks before it removes', () => {
  it('is refused where nobody can confirm, saying what would go, and removes nothing', async () => {
    const refused = await cli('cache', 'prune');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Would remove 4 messages older than \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2}), and with them 2 whole conversations\./);
    expect(refused.err).toContain('Nothing was removed.');
    expect(refused.err).toContain('--yes');
    expect(refused.err).toContain('--dry-run');
    expect(await storedParts()).toBe(4);

    const json = await cli('cache', 'prune', '--json');
    expect(json.code).toBe(1);
    // What would go, as `--dry-run --json` prints it: a script reads the plan it did not confirm.
    // Its time and cutoffs move with the clock: the cutoffs are compared by all but their time.
    const dry = JSON.parse((await cli('cache', 'prune', '--dry-run', '--json')).out) as { cutoffs: { cutoffMs: number | null }[] } & Record<string, unknown>;
    const { durationMs: _took, cutoffs, ...rest } = dry;
    const counted = { ...rest, cutoffs: cutoffs.map((c) => ({ ...c, cutoffMs: expect.any(Number) as unknown })) };
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'confirmation_required', details: { plan: { ...counted, dryRun: true, removedMessages: 4, removedConversations: 2, lost: 0 } } } });
    expect(await storedParts()).toBe(4);
  });

  it('--yes removes without asking', async () => {
    const done = await cli('cache', 'prune', '--yes');
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/^Removed 4 messages older than the retention window, and with them 2 conversations that went whole/m);
    expect(await storedParts()).toBe(0);
  });

  it('asks in a terminal: no keeps everything, yes removes it', async () => {
    const no = await inTerminal(false, 'cache', 'prune');
    expect(no).toMatchObject({ code: 0, out: 'Nothing was removed.\n' });
    expect(no.err).toContain('Would remove 4 messages older than');
    expect(no.asked).toHaveLength(1);
    expect(await storedParts()).toBe(4);

    const yes = await inTerminal(true, 'cache', 'prune');
    expect(yes.code).toBe(0);
    expect(yes.asked).toHaveLength(1);
    expect(yes.out).toContain('Removed 4 messages older than the retention window');
    expect(await storedParts()).toBe(0);
  });

  it('says so when nothing would go, unasked, and exits 0', async () => {
    expect((await cli('cache', 'prune', '--yes')).code).toBe(0);
    const none = await inTerminal(true, 'cache', 'prune');
    expect(none).toMatchObject({ code: 0, asked: [] });
    expect(none.out).toMatch(/^Nothing is older than the retention window; nothing was removed \(\d+ ms\)\.$/m);
    const plain = await cli('cache', 'prune');
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('Nothing is older than the retention window; nothing was removed');
  });

  it('counts the conversations that would go whole with no transcript left on disk: gone only, never unknown', async () => {
    const none = JSON.parse((await cli('cache', 'prune', '--dry-run', '--json')).out) as { lost?: number };
    expect(none.lost).toBe(0);
    expect((await cli('cache', 'prune', '--dry-run')).out).not.toContain('only copy');

    rmSync(oldFiles[0]!);
    const one = await cli('cache', 'prune');
    expect(one.code).toBe(1);
    expect(one.err).toContain('1 of them has no transcript left on disk: Steward holds the only copy.');
    expect(JSON.parse((await cli('cache', 'prune', '--dry-run', '--json')).out)).toMatchObject({ lost: 1, removedConversations: 2 });
    expect((await cli('cache', 'prune', '--dry-run')).out).toContain('1 of them has no transcript left on disk: Steward holds the only copy.');

    // Both gone: every conversation the pass removes whole is counted, and only those (RetentionPruner.lost reads the sessions its pass empties).
    rmSync(oldFiles[1]!);
    expect(JSON.parse((await cli('cache', 'prune', '--dry-run', '--json')).out)).toMatchObject({ lost: 2, removedConversations: 2 });

    // The other's file is gone too, but Steward never recorded which file held it (an upgraded store): not called lost.
    const db = new Database(join(home.dir, 'gateway.db'));
    db.prepare("DELETE FROM file_holds WHERE id = 'old-b'").run();
    db.close();
    expect(JSON.parse((await cli('cache', 'prune', '--dry-run', '--json')).out)).toMatchObject({ lost: 1 });
  });
});
