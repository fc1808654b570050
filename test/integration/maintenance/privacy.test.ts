import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { type CliIo } from '../../../core/cli/output.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createRepositoryCache, Maintenance } from '../../../core/maintenance/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

const alnum = (n: number) => randomBytes(n).toString('base64').replace(/[^A-Za-z0-9]/g, 'x').slice(0, n);

/** Secret-looking strings of the shapes people actually leak: API keys, tokens, cookies, credentialed URLs. */
function secrets(): string[] {
  return [
    `sk-live-${alnum(24)}`,
    `ghp_${alnum(36)}`,
    `glpat-${alnum(20)}`,
    `sessionid=${alnum(18)}`,
    `user:${alnum(12)}@intranet-${alnum(6)}.example`,
    `AKIA${alnum(16).toUpperCase()}`,
  ];
}

async function cli(env: NodeJS.ProcessEnv, sink: string[], ...argv: string[]): Promise<number> {
  const c: CliIo = { env, stdout: (t) => void sink.push(t), stderr: (t) => void sink.push(t) };
  return runCli(argv, c);
}

function errorText(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    return error instanceof StewardError ? `${error.message} ${JSON.stringify(error.toJSON())}` : String(error);
  }
  return '';
}

describe('privacy fuzz: maintenance output never carries paths, credentials, cookies or destinations', () => {
  let home: TempHome | undefined;
  afterEach(() => home?.cleanup());

  for (let round = 0; round < 3; round += 1) {
    it(`round ${round + 1}: text and JSON status, errors, logs`, async () => {
      const seeds = secrets();
      const destination = `https://dest-${alnum(10).toLowerCase()}.example:8443/v1`;
      home = tempHome('steward-privacy-');
      const nested = join(home.dir, 'user-data', ...seeds.slice(0, 3));
      mkdirSync(nested, { recursive: true });
      const cache = join(nested, `${seeds[3]}.db`);
      // An alias is typed by people: a token pasted as OWNER/NAME must never come back out.
      const secretAlias = `${seeds[1]}/widgets`;
      createRepositoryCache(cache, [{ repoId: 'github.com/acme/widgets', aliases: ['acme/widgets', secretAlias] }]);
      const copy = join(nested, `${seeds[4]}.db`);
      copyFileSync(cache, copy);
      const missing = join(nested, `${seeds[5]}.db`);
      const notDb = join(nested, `${seeds[0]}-notdb.db`);
      writeFileSync(notDb, `not a database ${seeds[1]}`);
      // A legacy registry whose ids, redirects and paths carry secrets too; the cache it names is unavailable.
      writeFileSync(
        join(home.dir, 'managed-caches.json'),
        JSON.stringify({
          version: 1,
          registrations: [{ id: `legacy-${seeds[1]}`, alias: 'acme/widgets', cachePath: missing, enabled: true, updatedAt: 1 }],
          redirects: { [`old-${seeds[2]}`]: `legacy-${seeds[1]}` },
          conflicts: [{ id: `lossy-${seeds[0]}`, aliases: ['acme/widgets'] }],
        }),
      );
      const env = home.env;
      const out: string[] = [];

      await cli(env, out, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'k1');
      await cli(env, out, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'k1', '--format', 'json');
      await cli(env, out, 'maintenance', 'enroll', '--cache', cache, '--repo', secretAlias, '--idempotency-key', 'k-alias', '--format', 'json');
      for (const format of ['text', 'json']) {
        await cli(env, out, 'maintenance', 'enroll', '--cache', copy, '--repo', 'acme/widgets', '--idempotency-key', `clone-${format}`, '--format', format);
        await cli(env, out, 'maintenance', 'enroll', '--cache', missing, '--repo', 'acme/widgets', '--idempotency-key', `m-${format}`, '--format', format);
        await cli(env, out, 'maintenance', 'enroll', '--cache', notDb, '--repo', 'acme/widgets', '--idempotency-key', `n-${format}`, '--format', format);
        await cli(env, out, 'maintenance', 'conflicts', '--format', format);
        await cli(env, out, 'service', 'maintenance', '--format', format);
      }
      const goodConfig = join(nested, `${seeds[2]}-config.json`);
      writeFileSync(goodConfig, JSON.stringify({ profile: 'default', embedding: { provider: 'ollama', model: 'nomic-embed-text', endpoint: destination }, chunk: { max_chars: 1200, overlap: 100 } }));
      const badConfig = join(nested, `${seeds[3]}-config.json`);
      writeFileSync(badConfig, JSON.stringify({ profile: 'default', embedding: { provider: 'ollama', model: seeds[0], endpoint: `https://${seeds[4]}/?key=${seeds[5]}` }, chunk: { max_chars: 1200, overlap: 100 } }));
      for (const format of ['text', 'json']) {
        expect(await cli(env, out, 'maintenance', 'resolve-config', '--config', goodConfig, '--format', format)).toBe(0);
        expect(await cli(env, out, 'maintenance', 'resolve-config', '--config', badConfig, '--format', format)).toBe(1);
        expect(await cli(env, out, 'maintenance', 'resolve-config', '--config', missing, '--format', format)).toBe(2);
        await cli(env, out, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--config', badConfig, '--idempotency-key', `bad-${format}`, '--format', format);
      }
      const sink: string[] = [];
      await cli(env, sink, 'maintenance', 'conflicts', '--format', 'json');
      const conflict = (JSON.parse(sink.join('')) as { conflicts: Array<{ conflictId: string; kind: string; candidates: Array<{ candidateId: string }> }> }).conflicts.find(
        (c) => c.kind === 'cache_clone_conflict',
      );
      expect(conflict).toBeDefined();
      await cli(env, out, 'maintenance', 'resolve', '--conflict', conflict!.conflictId, '--candidate', conflict!.candidates[1]!.candidateId, '--format', 'json');
      await cli(env, out, 'maintenance', 'resolve', '--conflict', conflict!.conflictId, '--candidate', conflict!.candidates[1]!.candidateId, '--yes', '--idempotency-key', 'fix');
      for (const format of ['text', 'json']) {
        await cli(env, out, 'service', 'reconcile', '--format', format);
        await cli(env, out, 'service', 'maintenance', '--format', format);
      }

      // In-process: a snapshot with a destination, a failing stage whose error text holds everything.
      const logger = createMemoryLogger();
      const m = new Maintenance({
        home: home.dir,
        logger,
        runners: {
          sync: async () => {
            throw Object.assign(new Error(`fetch ${destination} with ${seeds[1]} at ${cache} failed`), { code: seeds[0] });
          },
        },
      });
      const config = { profile: 'default', embedding: { provider: 'openai-compatible', model: 'nomic-embed-text', endpoint: destination }, chunk: { max_chars: 1500, overlap: 100 } };
      out.push(JSON.stringify(m.resolveConfig(config)));
      out.push(errorText(() => m.resolveConfig({ ...config, embedding: { ...config.embedding, model: seeds[0]! } })));
      out.push(errorText(() => m.resolveConfig({ ...config, embedding: { ...config.embedding, endpoint: `https://${seeds[4]}/v1?token=${seeds[1]}` } })));
      out.push(errorText(() => m.resolveConfig({ ...config, [seeds[3]!]: seeds[2] })));
      const second = join(nested, `${seeds[2]}-second.db`);
      createRepositoryCache(second, [{ repoId: 'github.com/acme/gadgets', aliases: ['acme/gadgets'] }]);
      const enrolled = m.enroll({ cachePath: second, repo: 'acme/gadgets', config, idempotencyKey: 'with-destination' });
      out.push(JSON.stringify(enrolled));
      out.push(JSON.stringify(await m.reconcile()));
      out.push(JSON.stringify(m.list()), JSON.stringify(m.conflicts()));
      out.push(errorText(() => m.enroll({ cachePath: missing, repo: 'acme/widgets', idempotencyKey: 'x' })));
      out.push(...logger.lines);
      const logs = join(home.dir, 'logs');
      if (existsSync(logs)) for (const name of readdirSync(logs)) out.push(readFileSync(join(logs, name), 'utf8'));

      const everything = out.join('\n');
      expect(everything).toContain('pf_');
      const failing = m.list().registrations.find((r) => r.registrationId === enrolled.registrationId)!;
      expect(failing.stages.sync.errorClass).toBe('internal');
      const forbidden = [...seeds, destination, new URL(destination).host, nested, realpathSync(nested), cache, copy];
      for (const secret of forbidden) expect(everything, `leaked ${secret.slice(0, 12)}…`).not.toContain(secret);
      rmSync(nested, { recursive: true, force: true });
    });
  }
});
