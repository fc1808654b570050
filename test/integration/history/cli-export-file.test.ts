import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWhole } from '../../../core/cli/files.js';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-export-file-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

/** A fresh folder holding one file the person cares about. */
function folderWithFile(name: string): { dir: string; file: string } {
  const dir = join(home.dir, name);
  mkdirSync(dir);
  const file = join(dir, 'notes.md');
  writeFileSync(file, 'a file worth keeping\n');
  return { dir, file };
}

describe('steward sessions export --output', () => {
  it('refuses to replace a file that exists, naming it as typed and saying to pass --force; the file stays as it was', async () => {
    const { dir, file } = folderWithFile('refuse');
    const refused = await cli('sessions', 'export', IDS.config, '--output', file);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(`steward: ${file} already exists; pass --force to replace it\n`);
    expect(refused.out).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('a file worth keeping\n');
    expect(readdirSync(dir)).toEqual(['notes.md']);
  });

  it('saves into a folder under the export\'s own name (Sessions.Export filename), never replacing one there without --force', async () => {
    const { dir } = folderWithFile('a-folder');
    // A link to it is the folder too (an attacker's finding): what is saved goes inside, the link stays.
    const link = join(home.dir, 'a-link');
    symlinkSync(dir, link);
    const name = `why-does-parseconfig-throw-err_module_not_found-when-${IDS.config.slice(0, 8)}.md`;
    const saved = await cli('sessions', 'export', IDS.config, '--output', dir);
    expect(saved).toEqual({ code: 0, out: `Wrote ${join(dir, name)} (secrets redacted).\n`, err: '' });
    expect(readdirSync(dir).sort()).toEqual(['notes.md', name]);
    expect(readFileSync(join(dir, name), 'utf8')).toContain('[REDACTED]');
    const refused = await cli('sessions', 'export', IDS.config, '--output', link);
    expect(refused).toEqual({ code: 1, out: '', err: `steward: ${join(link, name)} already exists; pass --force to replace it\n` });
    const forced = await cli('sessions', 'export', IDS.config, '--format', 'json', '--output', link, '--force');
    expect(forced.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['notes.md', name.replace(/\.md$/, '.json'), name]);
    expect(statSync(join(dir, name.replace(/\.md$/, '.json'))).mode & 0o777).toBe(0o600);
  });

  it('replaces it whole with --force, leaving no temp file beside it', async () => {
    const { dir, file } = folderWithFile('force');
    const forced = await cli('sessions', 'export', IDS.config, '--format', 'json', '--output', file, '--force');
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'steward.session.v1', redacted: true });
    expect(readdirSync(dir)).toEqual(['notes.md']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes a new file without --force, and refuses --force without --output as a usage error', async () => {
    const dir = join(home.dir, 'new');
    mkdirSync(dir);
    const file = join(dir, 'export.md');
    const wrote = await cli('sessions', 'export', IDS.config, '--output', file);
    expect(wrote.code).toBe(0);
    // The file it wrote, named as typed, where the person is looking.
    expect(wrote.out).toBe(`Wrote ${file} (secrets redacted).\n`);
    expect(readFileSync(file, 'utf8')).toContain('[REDACTED]');
    expect(readdirSync(dir)).toEqual(['export.md']);
    const alone = await cli('sessions', 'export', IDS.config, '--force');
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/^steward: --force replaces the file --output names/);
  });

  it('refuses a file that appeared after the first look, at the moment the export is put in place', async () => {
    // The first look (before the export is made) found the name free; someone wrote it meanwhile.
    const { dir, file } = folderWithFile('late');
    await expect(writeWhole(file, 'the export\n', false)).rejects.toMatchObject({ code: 'confirmation_required', message: `${file} already exists; pass --force to replace it` });
    expect(readFileSync(file, 'utf8')).toBe('a file worth keeping\n');
    expect(readdirSync(dir)).toEqual(['notes.md']);
  });
});
