import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaitingPlan, type SetupApplied, type SetupPlan, type SetupRequest, type StewardError } from '../../../core/api/index.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { FakeForge } from '../../support/fake-forge.js';
import { TestRepo } from '../../support/git-repo.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

// The setup surface's local document folders (`sources` on Maintenance.Plan/Apply, the panel's
// Local documents): checked by the same checks as `--docs`, refused per field, counted in plans, never named.

const cacheFiles = (home: string) => (existsSync(join(home, 'caches')) ? readdirSync(join(home, 'caches')).filter((f) => f.endsWith('.db')) : []);

async function refusal(work: Promise<unknown>): Promise<StewardError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return error as StewardError;
}

describe('Maintenance.Plan/Apply with local document folders', () => {
  let home: TempHome;
  let forge: FakeForge;
  let owner: Owner | undefined;
  let base: string;
  const folders: string[] = [];
  const folder = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `steward-${name}-`));
    folders.push(dir);
    return dir;
  };

  beforeEach(async () => {
    home = tempHome('steward-setup-docs-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    base = await forge.start();
    seed(forge, 2);
    const all = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const env = Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => typeof e[1] === 'string'));
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env, port: 0, logToStderr: false });
  });

  afterEach(async () => {
    await owner?.stop();
    await forge?.stop();
    home?.cleanup();
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
    owner = undefined;
  });

  const call = <T>(method: 'Maintenance.Plan' | 'Maintenance.Apply' | 'Maintenance.List' | 'Maintenance.Waiting', params: unknown) => owner!.core.call(method, params) as Promise<T>;
  const requestWith = (sources: SetupRequest['sources']): SetupRequest => ({ repo: 'acme/widgets', baseUrl: base, policy: { collections: ['issues'] }, serviceInstall: false, ...(sources ? { sources } : {}) });

  it('refuses a folder that is not there, a file, a folder outside git and a ref with no commit, each on its own field, and creates nothing', async () => {
    const missing = join(folder('gone'), 'no-such-folder');
    const file = join(folder('file'), 'notes.md');
    writeFileSync(file, '# Not a folder');
    const plain = folder('plain');
    const ok = new TestRepo(join(folder('ok'), 'ok')).write('a.md', '# A');
    ok.commit('start');

    const cases: Array<[SetupRequest['sources'], string, string]> = [
      [[{ kind: 'worktree', ref: 'worktree', root: missing }], 'sources.0.root', 'no_folder'],
      [[{ kind: 'worktree', ref: 'worktree', root: file }], 'sources.0.root', 'not_folder'],
      [[{ kind: 'worktree', ref: 'worktree', root: ok.dir }, { kind: 'worktree', ref: 'worktree', root: plain }], 'sources.1.root', 'not_work_tree'],
      [[{ kind: 'git', ref: 'HEAD', root: plain }], 'sources.0.root', 'not_repository'],
      [[{ kind: 'git', ref: 'no-such-branch', root: ok.dir }], 'sources.0.ref', 'no_commit'],
    ];
    for (const [sources, field, problem] of cases) {
      const request = requestWith(sources);
      const planned = await refusal(call('Maintenance.Plan', request));
      expect(planned.code).toBe('invalid_params');
      expect(planned.details).toMatchObject({ problem, fields: { [field]: { message: expect.any(String) } } });
      for (const s of sources!) expect(planned.message).not.toContain(s.root);
      // Apply checks again (a folder may go between plan and apply): refused before a cache is made.
      const applied = await refusal(call('Maintenance.Apply', { ...request, planId: 'plan_any', idempotencyKey: `k-${problem}`, confirmedBy: 'person' }));
      expect(applied.code).toBe('invalid_params');
    }

    // A ref git would read as an option never reaches git: the contract refuses it, on the ref's own path.
    const option = await refusal(call('Maintenance.Plan', requestWith([{ kind: 'git', ref: '--upload-pack=touch /tmp/x', root: ok.dir }])));
    expect(option.code).toBe('invalid_params');
    expect(option.details).toMatchObject({ issues: [expect.objectContaining({ path: 'sources.0.ref' })] });

    expect(cacheFiles(home.dir)).toEqual([]);
    expect((await call<{ registrations: unknown[] }>('Maintenance.List', {})).registrations).toEqual([]);
  });

  it('plans the folders as a count, enrolls them with the repository, and an agent may not send them', async () => {
    const notes = new TestRepo(join(folder('notes'), 'notes')).write('guide.md', '# Guide');
    const docs = new TestRepo(join(folder('docs'), 'docs')).write('README.md', '# Docs');
    docs.commit('start');
    const request = requestWith([
      { kind: 'worktree', ref: 'worktree', root: notes.dir },
      { kind: 'git', ref: 'HEAD', root: docs.dir },
    ]);

    const plan = await call<SetupPlan>('Maintenance.Plan', request);
    expect(plan.status).toBe('confirmation_required');
    expect(plan.effects.map((e) => e.description).join('\n')).toContain('2 local document folders');
    const shown = JSON.stringify(plan);
    expect(shown).not.toContain(notes.dir);
    expect(shown).not.toContain(docs.dir);
    expect(plan.handoff).toContain('--docs FOLDER');
    // The folders are part of what was planned: the same repository without them is another plan.
    expect((await call<SetupPlan>('Maintenance.Plan', requestWith(undefined))).planId).not.toBe(plan.planId);

    const agent = await refusal(call('Maintenance.Apply', { ...request, planId: plan.planId, idempotencyKey: 'agent-1', confirmedBy: 'agent' }));
    expect(agent.code).toBe('invalid_params');
    expect((await call<{ waiting: unknown[] }>('Maintenance.Waiting', {})).waiting).toEqual([]);
    expect(cacheFiles(home.dir)).toEqual([]);

    const applied = await call<SetupApplied>('Maintenance.Apply', { ...request, planId: plan.planId, idempotencyKey: 'person-1', confirmedBy: 'person', detach: true });
    expect(applied.enrollment.created).toBe(true);
    expect(applied.documentFolders).toBe(2);
    expect(JSON.stringify(applied)).not.toContain(notes.dir);
    const registry = JSON.parse(readFileSync(join(home.dir, 'managed-caches.json'), 'utf8')) as { registrations: Array<{ sources: Array<{ authority: { kind: string; ref: string }; root: string }> }> };
    expect(registry.registrations[0]!.sources.map((s) => [s.authority.kind, s.authority.ref, s.root]).sort()).toEqual(
      [
        ['git', 'main', realpathSync(docs.dir)],
        ['worktree', 'worktree', realpathSync(notes.dir)],
      ].sort(),
    );
    // The same key replays; the maintained repository's folders are not changed from the setup surface.
    const replayed = await call<SetupApplied>('Maintenance.Apply', { ...request, planId: plan.planId, idempotencyKey: 'person-1', confirmedBy: 'person', detach: true });
    expect(replayed.enrollment.replayed).toBe(true);
    const again = await refusal(call('Maintenance.Plan', request));
    expect(again.details).toMatchObject({ fields: { sources: { message: expect.stringContaining('already maintained') } } });
    expect(cacheFiles(home.dir)).toHaveLength(1);
  });

  it('a waiting plan cannot hold a folder', () => {
    const waiting = { waitingId: 'wait_1', repo: 'github.com/acme/widgets', askedAt: 1, needs: [] };
    expect(WaitingPlan.safeParse({ ...waiting, request: { repo: 'acme/widgets' } }).success).toBe(true);
    expect(WaitingPlan.safeParse({ ...waiting, request: { repo: 'acme/widgets', sources: [{ kind: 'worktree', ref: 'worktree', root: '/home/me/notes' }] } }).success).toBe(false);
  });
});
