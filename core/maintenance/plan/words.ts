import { CHECKED_OUT_REF, type RegistrationStatus, type SetupPlan, type SetupRequest, type SetupStatus } from '../../api/index.js';

/** A registration's lifecycle state in the setup surface's words (spec 004: ready, refreshing, indexing, backfilling, blocked). */
export function setupStatusOf(r: RegistrationStatus): SetupStatus {
  switch (r.state) {
    case 'ready':
    case 'refreshing':
    case 'indexing':
    case 'backfilling':
      return r.state;
    case 'pending':
      return r.policy.sync !== 'off' && r.stages.sync.lastSuccessAt === null ? 'refreshing' : 'indexing';
    case 'waiting':
      // A rate limit is a pause in a refresh; a missing token or an unknown forge needs someone.
      return r.waiting?.reason === 'rate_limited' ? 'refreshing' : 'blocked';
    default:
      return 'blocked';
  }
}

/** How much history a registration holds now; `complete` only when every backfill reached its end. */
export function historyOf(r: RegistrationStatus): 'complete' | 'backfilling' | 'recent_only' | 'not_synced' {
  if (r.policy.sync === 'off' || r.stages.sync.lastSuccessAt === null) return 'not_synced';
  if (r.policy.sync === 'head') return 'recent_only';
  return r.collections.length > 0 && r.collections.every((c) => c.tail.state === 'complete') ? 'complete' : 'backfilling';
}

/** A value safe in a POSIX shell line: quoted unless it is plainly a word. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9._/:@=+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The exact command a person runs to confirm a plan in a terminal: the same target, the full
 * effective policy spelt out (so it cannot drift with defaults), and an idempotency key.
 */
export function handoffOf(request: SetupRequest, policy: SetupPlan['policy'], idempotencyKey: string): string {
  if ((request.sources?.length ?? 0) > 0) return addHandoffOf(request, policy, idempotencyKey);
  const args = ['steward', 'maintenance', 'enable'];
  if (request.registrationId !== undefined) args.push('--registration', request.registrationId);
  else {
    args.push('--repo', request.repo ?? '');
    if (request.forge !== undefined && request.forge !== 'github') args.push('--forge', request.forge);
    if (request.baseUrl !== undefined) args.push('--base-url', request.baseUrl);
  }
  args.push('--sync', policy.sync, '--collections', policy.collections.join(','), '--rag', policy.rag, '--profile', policy.profile);
  if (request.serviceInstall === false) args.push('--no-service-install');
  if (request.modelDownload === false) args.push('--no-model-download');
  args.push('--yes', '--idempotency-key', idempotencyKey);
  return args.map(shellWord).join(' ');
}

/**
 * A plan with local document folders: `enable` takes no folders, so the terminal's form is `add`,
 * with a placeholder where each folder goes. A plan never holds a path, not even the person's own.
 */
function addHandoffOf(request: SetupRequest, policy: SetupPlan['policy'], idempotencyKey: string): string {
  const args = ['steward', 'maintenance', 'add', '--repo', request.repo ?? ''];
  if (request.forge !== undefined && request.forge !== 'github') args.push('--forge', request.forge);
  if (request.baseUrl !== undefined) args.push('--base-url', request.baseUrl);
  args.push('--sync', policy.sync, '--collections', policy.collections.join(','), '--rag', policy.rag, '--profile', policy.profile);
  for (const s of request.sources ?? []) args.push(...(s.kind === 'worktree' ? ['--docs', 'FOLDER'] : ['--docs-git', s.ref === CHECKED_OUT_REF ? 'REPOSITORY' : `REPOSITORY@${s.ref}`]));
  args.push('--idempotency-key', idempotencyKey);
  return args.map(shellWord).join(' ');
}
