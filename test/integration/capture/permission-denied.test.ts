import { chmodSync, chownSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeSession, claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Attack: as a person (not root), one transcript `chmod 000` and one project folder `chmod 000` made
 * `steward sweep` say "claude: 2 transcript files, 1 read, 2 failed (EACCES ×2)": a folder counted as a
 * failed file. The folder is no transcript file: it is counted apart. (Naming them is not done yet:
 * a refused permission is a passing failure, remembered nowhere, see core/backfill/run.ts PASSING.)
 */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const canBePerson = typeof process.getuid === 'function' && (process.getuid() !== 0 || typeof process.seteuid === 'function');

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) chownSync(join(entry.parentPath, entry.name), uid, gid);
}

/** Runs `work` as `nobody` when the tests run as root (root reads a chmod 000 file anyway), then is root again. */
async function asPerson<T>(home: string, work: () => Promise<T>): Promise<T> {
  if (!asRoot) return work();
  chownTree(home, NOBODY, NOBODY);
  process.setegid!(NOBODY);
  process.seteuid!(NOBODY);
  try {
    return await work();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
    chownTree(home, 0, 0);
  }
}

describe.skipIf(!canBePerson)('a transcript and a project folder the person may not read', () => {
  const temp = coreHome('steward-denied-');

  it('steward sweep counts the folder apart from the files: the counts add up', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'claude');
    home.env.STEWARD_CLAUDE_ROOTS = root;
    home.env.STEWARD_CLAUDE_DESKTOP_ROOTS = join(home.dir, 'roots', 'none');
    claudeSession(root, 'readable', 2);
    const denied = join(root, 'projects', '-work-fixture-project', 'denied.jsonl');
    writeJsonl(denied, [claudeLine({ sessionId: 'denied', text: 'secret words' })]);
    const folder = join(root, 'projects', '-work-closed');
    mkdirSync(folder);
    writeJsonl(join(folder, 'inside.jsonl'), [claudeLine({ sessionId: 'inside', text: 'more words' })]);
    chmodSync(denied, 0o000);
    chmodSync(folder, 0o000);
    const sweep = await asPerson(home.dir, () => runIn(home.env, 'sweep'));
    const info = await asPerson(home.dir, () => runIn(home.env, 'info', '--json'));
    chmodSync(folder, 0o700);
    // The folder is no transcript file: 2 files (1 read, 1 failed), and 1 folder apart.
    expect(sweep.out).toMatch(/^claude: 2 transcript files, 1 read, 1 failed \(EACCES ×1\); 1 folder could not be read \(EACCES ×1\); 2 new messages/m);
    expect(sweep.out).not.toContain('secret words');
    expect(info.code).toBe(0);
  });
});
