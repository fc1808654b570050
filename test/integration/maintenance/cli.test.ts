import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { startOwner } from '../../../core/index.js';
import { fixture, GADGETS, WIDGETS, type Fixture } from '../../unit/maintenance/support.js';
import { captureIo as io, type CapturedIo } from '../../support/cli.js';

type Captured = CapturedIo;

async function cli(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<Captured & { code: number }> {
  const c = io(env);
  const code = await runCli(argv, c);
  return Object.assign(c, { code });
}

describe('steward maintenance and service verbs', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('enrolls, reports a clone, resolves it with an explicit candidate, and shows sanitized status', async () => {
    f = fixture();
    const env = f.home.env;
    const cache = f.cache('repo.db', [WIDGETS, GADGETS]);
    const enrolled = await cli(env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'setup-1', '--format', 'json');
    expect(enrolled.code).toBe(0);
    const registration = JSON.parse(enrolled.out) as { registrationId: string; pathFingerprint: string; created: boolean };
    expect(registration.created).toBe(true);
    const replay = await cli(env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'setup-1');
    expect(replay.out).toMatch(/^replayed reg_/);
    const changed = await cli(env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--sync', 'off', '--idempotency-key', 'setup-1', '--format', 'json');
    expect(changed.code).toBe(1);
    expect(JSON.parse(changed.out)).toEqual({ error: { code: 'idempotency_conflict', message: expect.any(String) } });

    const copy = f.copy(cache, 'repo-copy.db');
    const clone = await cli(env, 'maintenance', 'enroll', '--cache', copy, '--repo', 'acme/widgets', '--idempotency-key', 'setup-2');
    expect(clone.code).toBe(1);
    expect(clone.err.trim().split('\n')).toHaveLength(1);
    expect(clone.err).toContain('clone');

    const text = await cli(env, 'maintenance', 'conflicts');
    const json = await cli(env, 'maintenance', 'conflicts', '--format', 'json');
    const { conflicts } = JSON.parse(json.out) as { conflicts: Array<{ conflictId: string; kind: string; candidates: Array<{ candidateId: string; pathFingerprint: string }> }> };
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]!.kind).toBe('cache_clone_conflict');
    // The same public-safe evidence in both formats, so the same pick can be made from either.
    for (const candidate of conflicts[0]!.candidates) {
      expect(text.out).toContain(candidate.candidateId);
      expect(text.out).toContain(candidate.pathFingerprint);
    }
    const chosen = conflicts[0]!.candidates.find((c) => c.pathFingerprint !== registration.pathFingerprint)!;
    const planOnly = await cli(env, 'maintenance', 'resolve', '--conflict', conflicts[0]!.conflictId, '--candidate', chosen.candidateId);
    expect(planOnly.code).toBe(0);
    expect(planOnly.out).toContain('Not applied');
    const noKey = await cli(env, 'maintenance', 'resolve', '--conflict', conflicts[0]!.conflictId, '--candidate', chosen.candidateId, '--yes');
    expect(noKey.code).toBe(2);
    const resolved = await cli(env, 'maintenance', 'resolve', '--conflict', conflicts[0]!.conflictId, '--candidate', chosen.candidateId, '--yes', '--idempotency-key', 'fix-1');
    expect(resolved.code).toBe(0);
    expect(resolved.out).toContain(`retired ${registration.pathFingerprint}`);

    // No GITHUB_TOKEN anywhere: the pass runs no job and says why, instead of failing in a loop.
    const reconcile = await cli(env, 'service', 'reconcile', '--format', 'json');
    expect(JSON.parse(reconcile.out)).toMatchObject({ visited: 1, jobs: [], skipped: [{ stage: 'sync', lane: 'head', reason: 'token_missing' }] });
    const status = await cli(env, 'service', 'maintenance', '--format', 'json');
    const parsed = JSON.parse(status.out) as { registry: { state: string }; registrations: Array<{ pathFingerprint: string; cacheUuid: string; configHash: string; state: string; jobs: unknown[] }> };
    expect(parsed.registry.state).toBe('ok');
    expect(parsed.registrations).toHaveLength(1);
    expect(parsed.registrations[0]).toMatchObject({
      pathFingerprint: chosen.pathFingerprint,
      state: 'waiting',
      waiting: { reason: 'token_missing', host: 'github.com', until: null },
      jobs: [],
    });
    const statusText = await cli(env, 'service', 'maintenance');
    expect(statusText.out).toContain(chosen.pathFingerprint);
    expect(statusText.out).toContain(parsed.registrations[0]!.cacheUuid);
    for (const output of [enrolled, replay, changed, clone, text, json, planOnly, resolved, reconcile, status, statusText]) {
      expect(output.out + output.err).not.toContain(f.caches);
    }
    const { writeFileSync } = await import('node:fs');
    const snapshot = `${f.caches}/snapshot.json`;
    writeFileSync(snapshot, JSON.stringify({ profile: 'default', embedding: { provider: 'hash', model: 'hash-ngram' }, chunk: { max_chars: 2000, overlap: 200 } }));
    const resolvedConfig = await cli(env, 'maintenance', 'resolve-config', '--config', snapshot, '--format', 'json');
    expect(JSON.parse(resolvedConfig.out)).toEqual({ configHash: parsed.registrations[0]!.configHash, rag: { profile: 'default', namespace: expect.stringMatching(/^ns_/), embeddingProvider: 'hash', model: 'hash-ngram' } });
    const { registrationId } = registration;
    // disable and resume print the registration as `service maintenance` does, in the panel's words.
    const disabled = (await cli(env, 'maintenance', 'disable', '--registration', registrationId)).out;
    expect(disabled).toContain(`${registrationId}  github.com/acme/widgets  Paused`);
    expect(disabled).toContain('nothing scheduled while paused');
    expect(disabled).not.toMatch(/ -$|=-/m);
    const resumed = await cli(env, 'maintenance', 'resume', '--registration', registrationId);
    expect(resumed.code).toBe(0);
    expect(resumed.out).not.toContain('Paused');
  });

  it('reaches the running owner and reports a degraded registry with exit 1', async () => {
    f = fixture();
    const cache = f.cache('repo.db', [WIDGETS]);
    const owner = await startOwner({ home: { dir: f.home.dir, kind: 'env' }, env: f.home.env, port: 0, schedule: false });
    try {
      const enrolled = await cli(f.home.env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'k', '--format', 'json');
      expect(enrolled.code).toBe(0);
      const changes: unknown[] = [];
      const off = owner.core.events.subscribe((name, payload) => name === 'maintenance.changed' && changes.push(payload));
      await owner.core.call('Maintenance.Disable', { registrationId: (JSON.parse(enrolled.out) as { registrationId: string }).registrationId });
      off();
      expect(changes).toEqual([{ at: expect.any(Number), registrations: 1, conflicts: 0 }]);
      const listed = await owner.core.call('Maintenance.List', {});
      expect(listed.registrations).toHaveLength(1);
    } finally {
      await owner.stop();
    }
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${f.home.dir}/managed-caches.json`, '{"version": 2, "registrations": [');
    const degraded = await cli(f.home.env, 'service', 'maintenance', '--format', 'json');
    expect(degraded.code).toBe(1);
    expect(JSON.parse(degraded.out).registry).toEqual({ state: 'degraded', reason: 'unparseable', version: 2 });
    const refused = await cli(f.home.env, 'maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'k2', '--format', 'json');
    expect(JSON.parse(refused.out).error.code).toBe('registry_degraded');
  });
});
