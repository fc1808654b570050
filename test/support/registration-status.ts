import type { RegistrationStatus, Result } from '../../core/api/index.js';

/** A stage that never failed, and one failing three times in a row with `errorClass`. */
export const okStage = { errorClass: null, failures: 0, lastFailureAt: null, lastSuccessAt: null, nextAttemptAt: null };
export const failingStage = (errorClass: string) => ({ ...okStage, errorClass, failures: 3, lastFailureAt: 1 });

/** A registration as `Maintenance.List` reports it: an up-to-date github.com repository unless `over` says otherwise. */
export function registrationStatus(id: string, repo: string, over: Partial<RegistrationStatus> = {}): RegistrationStatus {
  return {
    registrationId: id,
    cacheUuid: `uuid-${id}`,
    pathFingerprint: `pf_${id}`,
    canonicalRepoId: repo,
    aliases: [],
    legacyIds: [],
    policy: { sync: 'head', collections: ['issues'], rag: 'off', profile: 'default' },
    configHash: 'c'.repeat(64),
    enabled: true,
    disabledReason: null,
    state: 'ready',
    degraded: [],
    stages: { sync: okStage, rag: okStage },
    generations: { content: 1, covered: null },
    frontiers: [],
    jobs: [],
    forge: { kind: 'github', host: 'github.com' },
    collections: [],
    waiting: null,
    nextRunAt: null,
    ...over,
  };
}

/** `Maintenance.List` holding `registrations` in a healthy registry. */
export const listOf = (registrations: RegistrationStatus[]): Result<'Maintenance.List'> => ({ registry: { state: 'ok', reason: null, version: 2 }, registrations, conflicts: [], retired: 0, activeWriters: 0 });
