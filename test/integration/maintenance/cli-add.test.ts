import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo, type CapturedIo } from '../../support/cli.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { cacheContent, datasetContent, seed, TOKEN } from './sync-rig.js';

function readCache<T>(file: string, sql: string, params: unknown[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function cli(env: NodeJS.ProcessEnv, stdin: string | null, ...argv: string[]): Promise<CapturedIo & { code: number }> {
  const io = captureIo(env);
  if (stdin !== null) io.stdin = async () => stdin;
  const code = await runCli(argv, io);
  return Object.assign(io, { code });
}

describe('steward maintenance add and steward secrets', () => {
  let home: TempHome | undefined;
  let forge: FakeForge | undefined;
  afterEach(async () => {
    await forge?.stop();
    home?.cleanup();
    home = forge = undefined;
  });

  it('keeps a token set from stdin, creates and fills a cache, and reports per-collection figures without secrets or addresses', async () => {
    home = tempHome('steward-add-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 30);
    const env = { ...home.env, STEWARD_CLAUDE_ROOTS: '', STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '' };

    const set = await cli(env, `${TOKEN}\n`, 'secrets', 'set', 'GITHUB_TOKEN');
    expect(set.code).toBe(0);
    expect(set.out).toBe('stored GITHUB_TOKEN (file)\n');
    const file = join(home.dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse((await cli(env, null, 'secrets', 'list', '--json')).out).secrets).toContainEqual({ name: 'GITHUB_TOKEN', present: true, source: 'file' });
    expect((await cli(env, '', 'secrets', 'set', 'GITHUB_TOKEN')).code).toBe(2);

    const add = await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues,issue-comments,pulls,pr-comments', '--idempotency-key', 'add-1', '--json');
    expect(add.code).toBe(0);
    const added = JSON.parse(add.out) as { registrationId: string; canonicalRepoId: string; cacheCreated: boolean; created: boolean };
    expect(added).toMatchObject({ canonicalRepoId: `${new URL(base).host}/acme/widgets`, cacheCreated: true, created: true, replayed: false });
    expect(readdirSync(join(home.dir, 'caches')).filter((f) => f.endsWith('.db'))).toHaveLength(1);
    const replay = await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues,issue-comments,pulls,pr-comments', '--idempotency-key', 'add-1', '--json');
    expect(JSON.parse(replay.out)).toMatchObject({ registrationId: added.registrationId, replayed: true, cacheCreated: false });
    const conflict = await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, '--sync', 'head', '--idempotency-key', 'add-1', '--format', 'json');
    expect(conflict.code).toBe(1);
    expect(JSON.parse(conflict.out).error.code).toBe('idempotency_conflict');
    expect(readdirSync(join(home.dir, 'caches')).filter((f) => f.endsWith('.db'))).toHaveLength(1);

    for (let pass = 0; pass < 6; pass += 1) expect((await cli(env, null, 'service', 'reconcile', '--json')).code).toBe(0);
    const status = await cli(env, null, 'service', 'maintenance', '--format', 'json');
    const [registration] = JSON.parse(status.out).registrations as Array<{ state: string; forge: unknown; collections: Array<Record<string, unknown>> }>;
    expect(registration!.forge).toEqual({ kind: 'github', host: new URL(base).host });
    expect(registration!.state).toBe('ready');
    const dataset = datasetContent(forge);
    expect(registration!.collections).toEqual([
      expect.objectContaining({ collection: 'issues', items: dataset.issues.length, tombstones: 0, head: { state: 'fresh', freshAt: expect.any(Number) }, tail: expect.objectContaining({ state: 'complete', pagesDone: expect.any(Number) }) }),
      expect.objectContaining({ collection: 'issue-comments', items: dataset['issue-comments'].length }),
      expect.objectContaining({ collection: 'pulls', items: dataset.pulls.length }),
      expect.objectContaining({ collection: 'pr-comments', items: dataset['pr-comments'].length }),
    ]);
    const text = await cli(env, null, 'service', 'maintenance');
    expect(text.out).toMatch(new RegExp(`issues: ${dataset.issues.length} items · fresh as of \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} (UTC|[+-]\\d{2}:\\d{2})`));
    expect(text.out).toContain('backfill complete');
    const cachePath = join(home.dir, 'caches', readdirSync(join(home.dir, 'caches')).find((f) => f.endsWith('.db'))!);
    expect(cacheContent({ read: (sql, ...params) => readCache(cachePath, sql, params) })).toEqual(dataset);
    for (const output of [set, add, replay, conflict, status, text]) {
      expect(output.out + output.err).not.toContain(TOKEN);
      expect(output.out + output.err).not.toContain(base);
      expect(output.out + output.err).not.toContain(home.dir);
    }
    expect(readFileSync(join(home.dir, 'managed-caches.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('refuses bad repository flags as usage errors and changes nothing', async () => {
    home = tempHome('steward-add-');
    const env = home.env;
    expect((await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--forge', 'gitlab', '--idempotency-key', 'k')).code).toBe(2);
    // A forge with no default address: core's refusal (it names the field), said with the flag's name.
    const gitea = await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--forge', 'gitea', '--idempotency-key', 'k');
    expect(gitea.code).toBe(2);
    expect(gitea.err).toBe('steward: --base-url is needed: a gitea forge has no default address; give its API root, https://HOST/api/v1\n');
    const giteaJson = await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--forge', 'gitea', '--idempotency-key', 'k', '--json');
    expect(JSON.parse(giteaJson.out).error).toMatchObject({ code: 'invalid_params', message: '--base-url is needed: a gitea forge has no default address; give its API root, https://HOST/api/v1' });
    const plan = await cli(env, null, 'maintenance', 'plan', '--repo', 'acme/widgets', '--forge', 'gitea');
    expect(plan.code).toBe(2);
    expect(plan.err).toBe('steward: --base-url is needed: a gitea forge has no default address; give its API root, https://HOST/api/v1\n');
    const insecure = await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', 'http://forge.example.com/api/v3', '--idempotency-key', 'k', '--json');
    expect(insecure.code).toBe(2);
    expect(JSON.parse(insecure.out).error.code).toBe('invalid_params');
    expect((await cli(env, null, 'maintenance', 'add', '--repo', 'acme/widgets', '--collections', 'issues,everything', '--idempotency-key', 'k')).code).toBe(2);
    expect((await cli(env, null, 'secrets', 'set', 'not a name')).code).toBe(2);
    // A name no forge reads (a typo) would be stored and never used, nor listed: refused, naming the right ones.
    const typo = await cli(env, `${TOKEN}\n`, 'secrets', 'set', 'GITHUB_TOKN');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('GITHUB_TOKEN, GITEA_TOKEN or GITCODE_TOKEN');
    // An empty value's example names the secret being set.
    expect((await cli(env, '\n', 'secrets', 'set', 'GITEA_TOKEN')).err).toContain('printenv GITEA_TOKEN | steward secrets set GITEA_TOKEN');
    const status = JSON.parse((await cli(env, null, 'service', 'maintenance', '--json')).out) as { registrations: unknown[] };
    expect(status.registrations).toEqual([]);
  });
});
