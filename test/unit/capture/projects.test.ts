import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalRepoId, ProjectStore } from '../../../core/projects/index.js';
import { detectRepo, normalizeCwd, projectKeyOf, projectNameOf, projectSlugOf } from '../../../core/projects/derive.js';
import { GatewayReader, openGateway } from '../../../core/gateway/index.js';
import { effectiveWindowDays, pruneCutoffs } from '../../../core/backfill/index.js';
import { parseConfig } from '../../../core/config/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { PATH: process.env.PATH, HOME: home.env.HOME, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'pipe' });

describe('project derivation', () => {
  it('keys a project by sha256 of the normalized cwd and slugs it with the basename', () => {
    const hex = createHash('sha256').update('/Users/ana/src/uploader').digest('hex');
    expect(projectKeyOf('/Users/ana/src/uploader/')).toBe(`p_${hex.slice(0, 16)}`);
    expect(projectSlugOf('/Users/ana/src/uploader')).toBe(`uploader-${hex.slice(0, 8)}`);
    expect(projectSlugOf('/tmp/my app!')).toMatch(/^my-app-[0-9a-f]{8}$/);
  });

  it('normalizes a Windows cwd the same whatever the process folder, and maps /mnt/<drive> under WSL to the same project', () => {
    const where = process.cwd();
    const keys: string[] = [];
    try {
      for (const dir of [home.dir, '/']) {
        process.chdir(dir);
        keys.push(projectKeyOf('C:\\Users\\ana\\garden'), projectKeyOf('c:/Users/ana/garden/'), projectKeyOf('/mnt/c/Users/ana/garden'));
      }
    } finally {
      process.chdir(where);
    }
    const hex = createHash('sha256').update('c:\\Users\\ana\\garden').digest('hex');
    expect(new Set(keys)).toEqual(new Set([`p_${hex.slice(0, 16)}`]));
    expect(projectNameOf('C:\\Users\\ana\\garden')).toBe('garden');
    expect(normalizeCwd('/mnt/d/work/site/')).toBe('d:\\work\\site');
    expect(normalizeCwd('\\\\server\\share\\proj\\')).toBe('\\\\server\\share\\proj');
    // A POSIX path stays POSIX (and its key is what it always was); a name that is not a path stays a name.
    expect(normalizeCwd('/Users/ana//src/./uploader/')).toBe('/Users/ana/src/uploader');
    expect(normalizeCwd('Claude Desktop')).toBe('Claude Desktop');
    expect(detectRepo('Claude Desktop')).toEqual({ repoBacked: false, repoId: null });
  });

  it('canonicalizes origin URLs without credentials', () => {
    expect(canonicalRepoId('git@github.com:Owner/Repo.git')).toBe('github.com/Owner/Repo');
    expect(canonicalRepoId('https://user:secret@GitHub.com/owner/repo.git')).toBe('github.com/owner/repo');
    expect(canonicalRepoId('ssh://git@host.example:22/team/x.git')).toBe('host.example/team/x');
  });

  it('notices, on later activity, that a project folder became a repository (at most hourly)', () => {
    const folder = join(home.dir, 'notes');
    mkdirSync(folder, { recursive: true });
    const db = openGateway(home.dir);
    try {
      const store = new ProjectStore(db, new GatewayReader(db));
      const t0 = 1_000_000;
      const key = store.touch(folder, t0);
      expect(store.get(key)).toMatchObject({ repoBacked: false, repoId: null });
      git(folder, 'init', '-q');
      git(folder, 'remote', 'add', 'origin', 'https://github.com/acme/notes.git');
      store.touch(folder, t0 + 60_000);
      expect(store.get(key)).toMatchObject({ repoBacked: false });
      store.touch(folder, t0 + 3_600_000);
      expect(store.get(key)).toMatchObject({ repoBacked: true, repoId: 'github.com/acme/notes' });
    } finally {
      db.close();
    }
  });

  it('detects git work trees (subfolders and linked worktrees) and reads the repo id from origin', () => {
    const repo = join(home.dir, 'repo');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    git(repo, 'init', '-q');
    expect(detectRepo(join(repo, 'src', 'deep'))).toEqual({ repoBacked: true, repoId: null });
    git(repo, 'remote', 'add', 'origin', 'git@github.com:acme/widgets.git');
    expect(detectRepo(repo)).toEqual({ repoBacked: true, repoId: 'github.com/acme/widgets' });
    git(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
    const worktree = join(home.dir, 'wt');
    git(repo, 'worktree', 'add', '-q', worktree);
    expect(detectRepo(worktree)).toEqual({ repoBacked: true, repoId: 'github.com/acme/widgets' });
    const plain = join(home.dir, 'plain');
    mkdirSync(plain);
    expect(detectRepo(plain).repoBacked).toBe(false);
    expect(detectRepo(join(home.dir, 'does-not-exist')).repoBacked).toBe(false);
  });

  it("reads no git file that is not a regular file: a FIFO for a repository's config never holds the reader", () => {
    // Before, readFileSync on a FIFO waited for a writer for good (the test timed out); a link to
    // /dev/zero read until memory ran out.
    const repo = join(home.dir, 'fifo-repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    execFileSync('mkfifo', [join(repo, '.git', 'config')]);
    const zero = join(home.dir, 'zero-repo');
    mkdirSync(join(zero, '.git'), { recursive: true });
    writeFileSync(join(zero, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    symlinkSync('/dev/zero', join(zero, '.git', 'config'));
    const started = Date.now();
    expect(detectRepo(repo)).toEqual({ repoBacked: true, repoId: null });
    expect(detectRepo(zero)).toEqual({ repoBacked: true, repoId: null });
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 10_000);
});

describe('effective retention window', () => {
  it('prefers a positive provider window, then the cache retention (0 = open), then the kernel default', () => {
    expect(effectiveWindowDays(parseConfig({}), 'claude')).toBe(365);
    expect(effectiveWindowDays(parseConfig({ query: { cache: { retention: { default_days: 0 } } } }), 'claude')).toBeNull();
    expect(effectiveWindowDays(parseConfig({ query: { cache: { retention: { default_days: 90 } } } }), 'openclaw')).toBe(90);
    expect(effectiveWindowDays(parseConfig({ providers: { claude: { backfill: { window_days: 14 } } } }), 'claude')).toBe(14);
  });
});

describe('prune cutoffs', () => {
  const now = 1_900_000_000_000;
  const DAY = 86_400_000;
  const cutoffs = (input: Parameters<typeof parseConfig>[0], manual: boolean, retentionDays?: number) =>
    pruneCutoffs(parseConfig(input), ['claude', 'openclaw'], manual ? { manual } : { manual, retentionDays }, now).map((c) => (c.cutoffMs === null ? null : (now - c.cutoffMs) / DAY));

  it('the automatic pass deletes only under an explicit positive policy; the kernel default never deletes', () => {
    expect(cutoffs({}, false)).toEqual([null, null]);
    expect(cutoffs({ query: { cache: { retention: { default_days: 365 } } } }, false)).toEqual([365, 365]);
    expect(cutoffs({ query: { cache: { retention: { default_days: 0 } } } }, false)).toEqual([null, null]);
    // A provider's window narrows only that provider's rows.
    expect(cutoffs({ providers: { openclaw: { backfill: { window_days: 7 } } } }, false)).toEqual([null, 7]);
    expect(cutoffs({ query: { cache: { retention: { default_days: 30 } } }, providers: { claude: { backfill: { window_days: 0 } } } }, false)).toEqual([30, 30]);
  });

  it('a retention about to be saved counts as written: raising the default to 400 days turns deletion on', () => {
    expect(cutoffs({}, false, 400)).toEqual([400, 400]);
    expect(cutoffs({ query: { cache: { retention: { default_days: 90 } } } }, false, 0)).toEqual([null, null]);
    expect(cutoffs({ providers: { openclaw: { backfill: { window_days: 7 } } } }, false, 400)).toEqual([400, 7]);
  });

  it('a manual prune applies the effective window, the default included; 0 stays an open window', () => {
    expect(cutoffs({}, true)).toEqual([365, 365]);
    expect(cutoffs({ query: { cache: { retention: { default_days: 0 } } }, providers: { openclaw: { backfill: { window_days: 7 } } } }, true)).toEqual([null, 7]);
  });
});
