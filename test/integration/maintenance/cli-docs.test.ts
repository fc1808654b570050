import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { methods } from '../../../core/api/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { Maintenance } from '../../../core/maintenance/index.js';
import { fixture, WIDGETS, type Fixture } from '../../unit/maintenance/support.js';
import { runCli } from '../../../core/cli/index.js';
import { captureIo, runIn } from '../../support/cli.js';
import { FakeForge } from '../../support/fake-forge.js';
import { TestRepo } from '../../support/git-repo.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

// `--docs` / `--docs-git` on `steward maintenance add` and `enroll`: local document folders without hand-written JSON-RPC.

interface StoredSource {
  authority: { kind: string; ref: string };
  root: string;
}

/** The private registry's document sources per registration (the only place their folders are kept). */
function storedSources(home: string): StoredSource[][] {
  const registry = JSON.parse(readFileSync(join(home, 'managed-caches.json'), 'utf8')) as { registrations: Array<{ sources: StoredSource[] }> };
  return registry.registrations.map((r) => r.sources);
}

const cacheFiles = (home: string) => (existsSync(join(home, 'caches')) ? readdirSync(join(home, 'caches')).filter((f) => f.endsWith('.db')) : []);

describe('steward maintenance add/enroll --docs', () => {
  let home: TempHome | undefined;
  let forge: FakeForge | undefined;
  let f: Fixture | undefined;
  const folders: string[] = [];
  const folder = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `steward-${name}-`));
    folders.push(dir);
    return dir;
  };
  afterEach(async () => {
    await forge?.stop();
    home?.cleanup();
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
    home = forge = f = undefined;
  });

  it('add --docs keeps the folder as one worktree source whose documents arrive on the next pass; the output counts it, never names it', async () => {
    home = tempHome('steward-add-docs-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 2);
    const env = home.env;
    const notes = new TestRepo(join(folder('notes'), 'notes')).write('guide.md', '# Guide\n\nHow the widgets fit.').write('drafts/idea.txt', 'An idea.');
    const io = captureIo(env);
    io.stdin = async () => `${TOKEN}\n`;
    expect(await runCli(['secrets', 'set', 'GITHUB_TOKEN'], io)).toBe(0);

    const addArgs = ['maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--idempotency-key', 'docs-1'];
    const add = await runIn(env, ...addArgs, '--docs', notes.dir);
    expect(add.code).toBe(0);
    expect(add.out).toMatch(/^created and enrolled reg_/);
    expect(add.out).toContain('Added 1 document folder');
    expect(add.out + add.err).not.toContain(notes.dir);
    const [sources] = storedSources(home.dir);
    expect(sources).toEqual([expect.objectContaining({ authority: expect.objectContaining({ kind: 'worktree', ref: 'worktree' }), root: realpathSync(notes.dir) })]);

    // The sources are part of the request: the same key replays only with the same folders.
    expect((await runIn(env, ...addArgs, '--docs', notes.dir)).out).toMatch(/^replayed reg_/);
    const without = await runIn(env, ...addArgs, '--json');
    expect(JSON.parse(without.out).error.code).toBe('idempotency_conflict');

    for (let pass = 0; pass < 3; pass += 1) expect((await runIn(env, 'service', 'reconcile', '--json')).code).toBe(0);
    const status = await runIn(env, 'service', 'maintenance', '--json');
    const [registration] = JSON.parse(status.out).registrations as Array<{ collections: Array<{ collection: string; items: number }> }>;
    expect(registration!.collections).toContainEqual(expect.objectContaining({ collection: 'documents', items: 2 }));
    expect(status.out).not.toContain(notes.dir);
    expect(cacheFiles(home.dir)).toHaveLength(1);
  });

  it('a missing folder, a file, or a folder outside git is a usage error, and nothing is created', async () => {
    home = tempHome('steward-add-docs-');
    const env = home.env;
    const missing = join(folder('gone'), 'no-such-folder');
    const add = (...docs: string[]) => runIn(env, 'maintenance', 'add', '--repo', 'acme/widgets', '--idempotency-key', 'k', ...docs.flatMap((d) => ['--docs', d]));

    const gone = await add(missing);
    expect(gone.code).toBe(2);
    expect(gone.err).toBe(`steward: --docs: there is no folder ${JSON.stringify(missing)}\n`);
    const json = await runIn(env, 'maintenance', 'add', '--repo', 'acme/widgets', '--idempotency-key', 'k', '--docs', missing, '--json');
    expect(JSON.parse(json.out).error.code).toBe('invalid_params');

    const file = join(folder('file'), 'notes.md');
    writeFileSync(file, '# Not a folder');
    const notFolder = await add(file);
    expect(notFolder.code).toBe(2);
    expect(notFolder.err).toContain('is a file, not a folder');

    // The lanes list a worktree with git: outside a work tree they would never find a document.
    const plain = folder('plain');
    writeFileSync(join(plain, 'a.md'), '# A');
    const outside = await add(new TestRepo(join(folder('ok'), 'ok')).dir, plain);
    expect(outside.code).toBe(2);
    expect(outside.err).toContain('--docs folder 2 of 2 is not inside a git work tree');
    expect(outside.err).not.toContain(plain);

    expect(cacheFiles(home.dir)).toEqual([]);
    expect(JSON.parse((await runIn(env, 'service', 'maintenance', '--json')).out).registrations).toEqual([]);
  });

  it('Maintenance.Add checks its source folders before it creates a cache', () => {
    home = tempHome('steward-add-docs-');
    const m = new Maintenance({ home: home.dir, logger: createMemoryLogger() });
    const root = join(folder('gone'), 'no-such-folder');
    expect(() => m.add({ repo: 'acme/widgets', sources: [{ kind: 'worktree', ref: 'worktree', root }], idempotencyKey: 'k' })).toThrow(
      expect.objectContaining({ code: 'invalid_params' }),
    );
    expect(cacheFiles(home.dir)).toEqual([]);
    expect(m.list().registrations).toEqual([]);
  });

  it('the contract refuses a source ref that git would read as an option, for Enroll and Add alike', () => {
    const sources = [{ kind: 'git', ref: '--upload-pack=touch /tmp/x', root: '/any' }];
    const enroll = methods['Maintenance.Enroll'].params.safeParse({ cachePath: '/any/cache.db', repo: 'acme/widgets', sources, idempotencyKey: 'k' });
    const add = methods['Maintenance.Add'].params.safeParse({ repo: 'acme/widgets', sources, idempotencyKey: 'k' });
    expect(enroll.success).toBe(false);
    expect(add.success).toBe(false);
    expect(methods['Maintenance.Add'].params.safeParse({ repo: 'acme/widgets', sources: [{ ...sources[0], ref: 'main' }], idempotencyKey: 'k' }).success).toBe(true);
  });

  it('enroll takes --repo HOST/OWNER/NAME, as search does', async () => {
    f = fixture();
    const cache = f.cache('repo.db', [WIDGETS]);
    const enrolled = await runIn(f.home.env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'github.com/acme/widgets', '--idempotency-key', 'e1', '--json');
    expect(enrolled.code).toBe(0);
    expect(JSON.parse(enrolled.out)).toMatchObject({ canonicalRepoId: 'github.com/acme/widgets', created: true });
    // The same registration by its alias: one schedule per (cache, repository), whichever name enrolled it.
    const alias = await runIn(f.home.env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'e2', '--json');
    expect(JSON.parse(alias.out)).toMatchObject({ registrationId: JSON.parse(enrolled.out).registrationId, created: false });
    const unknown = await runIn(f.home.env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'gitlab.com/acme/widgets', '--idempotency-key', 'e3', '--json');
    expect(JSON.parse(unknown.out).error.code).toBe('identity_unresolved');
  });

  it('enroll --docs-git takes a repository at its branch or at @REF', async () => {
    f = fixture();
    const env = f.home.env;
    const cache = f.cache('repo.db', [WIDGETS]);
    const docs = new TestRepo(join(folder('docs'), 'docs'));
    docs.write('README.md', '# Docs').commit('start');
    docs.write('next.md', 'Next.');
    const tag = docs.commit('next');

    const badRef = await runIn(env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'github.com/acme/widgets', '--idempotency-key', 'e1', '--docs-git', `${docs.dir}@no-such-branch`);
    expect(badRef.code).toBe(2);
    expect(badRef.err).toContain('has no commit at "no-such-branch"');
    expect(badRef.err).not.toContain(docs.dir);

    const enrolled = await runIn(env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'github.com/acme/widgets', '--idempotency-key', 'e1', '--docs-git', docs.dir, '--docs-git', `${docs.dir}@${tag}`, '--json');
    expect(enrolled.code).toBe(0);
    expect(JSON.parse(enrolled.out)).toMatchObject({ canonicalRepoId: 'github.com/acme/widgets', created: true });
    const [sources] = storedSources(f.home.dir);
    expect(sources!.map((s) => [s.authority.kind, s.authority.ref, s.root]).sort()).toEqual(
      [
        ['git', 'main', realpathSync(docs.dir)],
        ['git', tag, realpathSync(docs.dir)],
      ].sort(),
    );
    const text = await runIn(env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'GitHub.com/Acme/Widgets', '--idempotency-key', 'e1', '--docs-git', docs.dir, '--docs-git', `${docs.dir}@${tag}`);
    expect(text.out).toMatch(/^replayed reg_/);
    expect(text.out).toContain('Added 2 document folders');
    expect(text.out).not.toContain(docs.dir);
  });
});
