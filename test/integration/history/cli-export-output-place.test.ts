import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// `steward sessions export <id> --output <place>` where the place cannot be written: said in plain words,
// naming the place as the person typed it, before the export is made; non-zero exit, nothing written.

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-export-place-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => {
  // A folder made unwritable is made writable again, or the home could not be removed.
  chmodSync(join(home.dir, 'places'), 0o700);
  home?.cleanup();
});

const cli = (...argv: string[]) => runIn(home.env, ...argv);

/** A fresh folder for one case, under the home. */
function place(name: string): string {
  const dir = join(home.dir, 'places', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const asRoot = process.getuid?.() === 0;

describe('steward sessions export --output to a place that cannot be written', () => {
  it('says a folder named with a trailing slash does not exist, naming it as typed; writes nothing', async () => {
    const dir = place('missing');
    const typed = join(dir, 'missing-folder') + sep;
    const refused = await cli('sessions', 'export', IDS.config, '--output', typed);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toBe('');
    expect(refused.err).toBe(`steward: The folder ${typed} does not exist; create it first, or give the path of a file to write\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says the folder a file would go in does not exist', async () => {
    const dir = place('missing-parent');
    const typed = join(dir, 'nowhere', 'export.md');
    const refused = await cli('sessions', 'export', IDS.config, '--output', typed);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toBe('');
    expect(refused.err).toBe(`steward: The folder ${join(dir, 'nowhere')} does not exist; create it first, or give the path of a file to write\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says a name with a trailing slash is a file, not a folder; the file stays as it was', async () => {
    const dir = place('a-file');
    const file = join(dir, 'notes.md');
    writeFileSync(file, 'a file worth keeping\n');
    const typed = file + sep;
    for (const force of [[], ['--force']]) {
      const refused = await cli('sessions', 'export', IDS.config, '--output', typed, ...force);
      expect(refused.code).not.toBe(0);
      expect(refused.out).toBe('');
      expect(refused.err).toBe(`steward: ${typed} is a file, not a folder; give a folder to write into, or the file's path without the trailing ${sep}\n`);
      expect(readFileSync(file, 'utf8')).toBe('a file worth keeping\n');
      expect(readdirSync(dir)).toEqual(['notes.md']);
    }
  });

  it.skipIf(asRoot || process.platform === 'win32')('says a folder that cannot be written cannot be, before the export is made', async () => {
    const dir = place('read-only');
    chmodSync(dir, 0o500);
    try {
      for (const typed of [dir, join(dir, 'export.md')]) {
        const refused = await cli('sessions', 'export', IDS.config, '--output', typed);
        expect(refused.code).not.toBe(0);
        expect(refused.out).toBe('');
        expect(refused.err).toBe(`steward: The folder ${dir} cannot be written here (EACCES); choose another folder\n`);
      }
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
