import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createRepositoryCache, Maintenance, syncStage } from '../../../core/maintenance/index.js';
import { TestRepo } from '../../support/git-repo.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { rig, type Rig } from './sync-rig.js';

type Page = { external_id: string; title: string; body: string; tombstone_reason: string | null };

function pages(r: Pick<Rig, 'read'>, collection = 'wiki'): Page[] {
  return r.read<Page>('SELECT external_id, title, body, tombstone_reason FROM items WHERE collection = ? ORDER BY external_id', collection);
}

describe('the wiki tree walker', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('walks a GitHub wiki from its git repository in bounded path-order windows, then follows renames and deletions', async () => {
    r = await rig('github', { policy: { collections: ['wiki'] }, settings: { tailBudgetMs: 0, treeReadsPerWindow: 2 } });
    const wiki = new TestRepo(join(r.home.dir, '..', `${r.home.dir.split('/').pop()}-wiki`));
    wiki.write('Home.md', '# Home\nWelcome.').write('Getting-Started.md', 'Install it.').write('docs/Deep-Dive.md', 'Internals.').write('logo.png', 'not a page');
    wiki.write('Huge.md', 'x'.repeat(1_100_000)).write('Zed.md', 'Last page.');
    wiki.commit('pages');
    r.forge.wikiBare = wiki.publish(`${wiki.dir}.git`);
    // The head learns the wiki's version; each pass then reads at most two bodies, resuming after the last path covered.
    const seen: number[] = [];
    for (let pass = 0; pass < 6; pass += 1) {
      await r.reconcile();
      seen.push(pages(r).length);
    }
    expect(seen.slice(0, 3)).toEqual([2, 4, 4]);
    const status = r.m.list().registrations[0]!.collections.find((c) => c.collection === 'wiki')!;
    expect(status).toMatchObject({ items: 4, skipped: 1, tail: { state: 'complete' }, head: { state: 'fresh' } });
    expect(pages(r).map((p) => [p.external_id, p.title])).toEqual([
      ['Getting-Started.md', 'Getting Started'],
      ['Home.md', 'Home'],
      ['Zed.md', 'Zed'],
      ['docs/Deep-Dive.md', 'Deep Dive'],
    ].sort() as never);
    wiki.rename('Getting-Started.md', 'Guide.md').remove('docs/Deep-Dive.md').write('Home.md', '# Home\nWelcome back.');
    wiki.commit('reorganise');
    wiki.publish(wiki.bare!);
    for (let pass = 0; pass < 4; pass += 1) await r.reconcile();
    expect(pages(r).map((p) => [p.external_id, p.body, p.tombstone_reason])).toEqual([
      ['Getting-Started.md', 'Install it.', 'deleted'],
      ['Guide.md', 'Install it.', null],
      ['Home.md', '# Home\nWelcome back.', null],
      ['Zed.md', 'Last page.', null],
      ['docs/Deep-Dive.md', 'Internals.', 'deleted'],
    ]);
    rmSync(wiki.dir, { recursive: true, force: true });
    rmSync(wiki.bare!, { recursive: true, force: true });
  });

  it('reports a wiki git cannot fetch as that collection\'s reason, and still syncs the others', async () => {
    r = await rig('github', { policy: { collections: ['issues', 'wiki'] } });
    r.forge.add('issue');
    const wiki = new TestRepo(join(r.home.dir, '..', `${r.home.dir.split('/').pop()}-wiki2`));
    wiki.write('Home.md', 'Hi').commit();
    r.forge.wikiBare = wiki.publish(`${wiki.dir}.git`);
    // The wiki refuses our credentials (a token without wiki access): git fails, the API does not.
    r.forge.wikiDenied = true;
    const pass = await r.reconcile();
    expect(pass.jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded']);
    const status = r.m.list().registrations[0]!;
    expect(status.collections.find((c) => c.collection === 'issues')).toMatchObject({ items: 1 });
    expect(status.collections.find((c) => c.collection === 'wiki')!.reason).toBe('unavailable');
    expect(status.stages.sync.failures).toBe(0);
    expect(status.state).not.toBe('ready');
    r.forge.wikiDenied = false;
    await r.reconcile();
    expect(pages(r).map((p) => p.body)).toEqual(['Hi']);
    expect(r.m.list().registrations[0]!.collections.find((c) => c.collection === 'wiki')!.reason).toBeNull();
    rmSync(wiki.dir, { recursive: true, force: true });
    rmSync(wiki.bare!, { recursive: true, force: true });
  });

  it('reads a Gitea wiki over REST and re-reads only the bodies whose last commit changed', async () => {
    r = await rig('gitea', { policy: { collections: ['wiki'] } });
    for (const [name, n] of [['Home', 1], ['Install', 2], ['FAQ', 3]] as const) r.forge.giteaWiki.set(name, { title: name, content: `${name} text`, sha: `sha-${n}`, date: r.forge.now });
    await r.reconcile();
    expect(pages(r).map((p) => [p.external_id, p.body])).toEqual([
      ['FAQ', 'FAQ text'],
      ['Home', 'Home text'],
      ['Install', 'Install text'],
    ]);
    r.forge.giteaWiki.set('Install', { title: 'Install', content: 'Install, revised', sha: 'sha-2b', date: r.forge.now });
    const before = r.forge.requests.length;
    await r.reconcile();
    const bodies = r.forge.requests.slice(before).filter((q) => q.path.includes('/wiki/page/'));
    expect(bodies.map((q) => q.path.split('/').pop())).toEqual(['Install']);
    expect(pages(r).find((p) => p.external_id === 'Install')!.body).toBe('Install, revised');
    r.forge.giteaWiki.clear();
    await r.reconcile();
    expect(pages(r).every((p) => p.tombstone_reason === 'absent')).toBe(true);
    expect(r.m.list().registrations[0]!.collections.find((c) => c.collection === 'wiki')!.reason).toBe('absent');
  });
});

describe('repository documents', () => {
  let home: TempHome | undefined;
  let m: Maintenance | undefined;
  afterEach(async () => {
    await m?.stop();
    home?.cleanup();
    home = m = undefined;
  });

  it('syncs Markdown and text of a git ref and of a worktree as sources, following renames, deletions and uncommitted edits', async () => {
    home = tempHome('steward-docs-');
    const repo = new TestRepo(join(home.dir, 'project'));
    repo.write('README.md', '# Project').write('docs/a.md', 'Alpha.').write('notes.txt', 'Notes.').write('src/main.ts', 'code();').commit('start');
    const cache = join(home.dir, 'docs.db');
    createRepositoryCache(cache, [{ repoId: 'local/acme/project', aliases: ['acme/project'] }]);
    m = new Maintenance({ home: home.dir, logger: createMemoryLogger(), runners: { sync: syncStage({ home: home.dir, token: () => undefined }) } });
    m.enroll({
      cachePath: cache,
      repo: 'acme/project',
      policy: { sync: 'head-and-backfill', collections: [] },
      sources: [
        { kind: 'git', ref: 'main', root: repo.dir },
        { kind: 'worktree', ref: 'main', root: repo.dir },
      ],
      idempotencyKey: 'docs',
    });
    const docs = async () => {
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(cache, { readonly: true });
      try {
        return db.prepare("SELECT external_id AS id, body, tombstone_reason AS gone FROM items WHERE collection = 'documents' ORDER BY external_id").all() as Array<{ id: string; body: string; gone: string | null }>;
      } finally {
        db.close();
      }
    };
    await m.reconcileNow();
    const sources = m.store.current().registrations[0]!.sources;
    const git = sources.find((s) => s.authority.kind === 'git')!.sourceId;
    const worktree = sources.find((s) => s.authority.kind === 'worktree')!.sourceId;
    const short = (rows: Awaited<ReturnType<typeof docs>>) => rows.map((d) => [d.id.replace(git, 'git').replace(worktree, 'wt'), d.body, d.gone]);
    expect(short(await docs()).sort()).toEqual(
      [
        ['git:README.md', '# Project', null],
        ['git:docs/a.md', 'Alpha.', null],
        ['git:notes.txt', 'Notes.', null],
        ['wt:README.md', '# Project', null],
        ['wt:docs/a.md', 'Alpha.', null],
        ['wt:notes.txt', 'Notes.', null],
      ].sort(),
    );
    repo.rename('docs/a.md', 'docs/b.md').remove('notes.txt').commit('move');
    writeFileSync(join(repo.dir, 'README.md'), '# Project, not yet committed');
    mkdirSync(join(repo.dir, 'drafts'));
    writeFileSync(join(repo.dir, 'drafts', 'idea.md'), 'Untracked idea.');
    await m.reconcileNow();
    expect(short(await docs()).sort()).toEqual(
      [
        ['git:README.md', '# Project', null],
        ['git:docs/a.md', 'Alpha.', 'deleted'],
        ['git:docs/b.md', 'Alpha.', null],
        ['git:notes.txt', 'Notes.', 'deleted'],
        ['wt:README.md', '# Project, not yet committed', null],
        ['wt:docs/a.md', 'Alpha.', 'deleted'],
        ['wt:docs/b.md', 'Alpha.', null],
        ['wt:drafts/idea.md', 'Untracked idea.', null],
        ['wt:notes.txt', 'Notes.', 'deleted'],
      ].sort(),
    );
    const status = m.list().registrations[0]!;
    expect(status.collections).toEqual([expect.objectContaining({ collection: 'documents', items: 5, tombstones: 4, tail: expect.objectContaining({ state: 'complete' }) })]);
    expect(JSON.stringify(status)).not.toContain(repo.dir);
  });
});
