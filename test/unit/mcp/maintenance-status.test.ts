import { describe, expect, it } from 'vitest';
import { filterStatus, MaintenanceStatusInput, MaintenanceStatusOutput, type MaintenanceStatus } from '../../../core/mcp/maintenance.js';

const stage = { errorClass: null, failures: 0, lastFailureAt: null, lastSuccessAt: null, nextAttemptAt: null };

function registration(registrationId: string, canonicalRepoId: string, aliases: string[], legacyIds: string[] = []) {
  return {
    registrationId,
    cacheUuid: `uuid-${registrationId}`,
    pathFingerprint: `pf_${registrationId}`,
    canonicalRepoId,
    aliases,
    legacyIds,
    policy: { sync: 'head' as const, collections: ['issues'], rag: 'off' as const, profile: 'default' },
    configHash: 'c'.repeat(64),
    enabled: true,
    disabledReason: null,
    state: 'ready' as const,
    degraded: [],
    stages: { sync: stage, rag: stage },
    generations: { content: 1, covered: null },
    frontiers: [],
    jobs: [],
    forge: { kind: 'github' as const, host: 'github.com' },
    collections: [],
    waiting: null,
    nextRunAt: null,
  };
}

function status(): MaintenanceStatus {
  return MaintenanceStatusOutput.parse({
    registry: { state: 'ok', reason: null, version: 2 },
    registrations: [
      registration('reg_widgets', 'github.com/acme/widgets', ['acme/widgets'], ['acme-widgets-legacy']),
      registration('reg_gadgets', 'gitlab.com/acme/gadgets', ['acme/gadgets']),
    ],
    conflicts: [
      {
        conflictId: 'ic_1',
        kind: 'identity_unresolved',
        state: 'blocked',
        blockedReason: 'no evidence',
        cacheUuid: null,
        canonicalRepoId: null,
        aliases: [],
        legacyIds: ['old-tools'],
        createdAt: 1,
        candidates: [
          {
            candidateId: 'cand_1',
            pathFingerprint: null,
            priorEnabled: true,
            members: [{ registrationId: null, legacyId: 'old-tools', canonicalRepoId: null, aliases: ['acme/tools'], legacyIds: ['old-tools'], policyHash: null, configHash: null, sourceAuthorities: [], priorEnabled: true }],
          },
        ],
      },
    ],
    retired: 3,
    activeWriters: 0,
  });
}

const ids = (s: MaintenanceStatus) => [...s.registrations.map((r) => r.registrationId), ...s.conflicts.map((c) => c.conflictId)];

describe('maintenance_status filters', () => {
  it('no filter keeps everything', () => {
    expect(ids(filterStatus(status(), {}))).toEqual(['reg_widgets', 'reg_gadgets', 'ic_1']);
  });

  it('repo matches the canonical id, its OWNER/NAME tail or an alias, case-insensitively; counts stay registry-wide', () => {
    expect(ids(filterStatus(status(), { repo: 'ACME/Gadgets' }))).toEqual(['reg_gadgets']);
    expect(ids(filterStatus(status(), { repo: 'github.com/acme/widgets' }))).toEqual(['reg_widgets']);
    expect(ids(filterStatus(status(), { repo: 'acme/tools' }))).toEqual(['ic_1']);
    expect(filterStatus(status(), { repo: 'acme/none' })).toMatchObject({ registrations: [], conflicts: [], retired: 3 });
  });

  it('registration_id matches a registration id or a legacy registration reference', () => {
    expect(ids(filterStatus(status(), { registration_id: 'reg_widgets' }))).toEqual(['reg_widgets']);
    expect(ids(filterStatus(status(), { registration_id: 'acme-widgets-legacy' }))).toEqual(['reg_widgets']);
    expect(ids(filterStatus(status(), { registration_id: 'old-tools' }))).toEqual(['ic_1']);
    expect(ids(filterStatus(status(), { registration_id: 'reg_widgets', repo: 'acme/gadgets' }))).toEqual([]);
  });

  it('refuses path-shaped filters and unknown arguments', () => {
    for (const bad of [{ repo: '/home/me/cache.db' }, { repo: '../caches/x.db' }, { registration_id: '/tmp/x' }, { registration_id: 'C:\\caches\\x.db' }, { cache_path: '/tmp/x.db' }]) {
      expect(MaintenanceStatusInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('the output schema refuses a field the contract does not declare', () => {
    const leaked = { ...status(), registrations: [{ ...registration('reg_x', 'github.com/a/b', []), cachePath: '/home/me/x.db' }] };
    expect(MaintenanceStatusOutput.safeParse(leaked).success).toBe(false);
  });
});
