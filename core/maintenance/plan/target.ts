import { StewardError, type DataBoundary, type ForgeKind, type SetupRequest } from '../../api/index.js';
import { addPolicy } from '../enrollment.js';
import { apiBaseOf, namesRepository, repositoryKeyOf } from '../forges/index.js';
import { hashOf } from '../hashing.js';
import { isIncumbent } from '../identity.js';
import { findRegistration } from '../lookup.js';
import { validateSnapshot } from '../policy.js';
import { Policy, type Conflict, type ConfigSnapshot, type Registration, type RegistryV2 } from '../schema.js';
import { publicRepoId } from '../status.js';

/** A repository no registration maintains yet: a cache is created for it. */
export interface NewTarget {
  kind: 'new';
  repoId: string;
  alias: string;
  forge: ForgeKind;
  apiBase: string;
  host: string;
}

export interface ExistingTarget {
  kind: 'existing';
  registration: Registration;
  /** The OWNER/NAME the request named, kept as an alias. */
  alias: string | null;
}

/** A repository an open conflict holds: nothing is planned for it until the conflict is resolved. */
export interface HeldTarget {
  kind: 'held';
  repoId: string;
  conflict: Conflict;
}

export type Target = NewTarget | ExistingTarget | HeldTarget;

export interface Resolved {
  target: Target;
  /** What the request names, stable across the registration it creates: the idempotency receipts key on it. */
  targetKey: string;
  policy: Policy;
  snapshot: ConfigSnapshot;
  /** The public repository id plans and results show. */
  repo: string;
}

function heldBy(registry: RegistryV2, repoId: string): Conflict | undefined {
  return registry.conflicts.find(
    (c) => c.canonicalRepoId === repoId || c.candidates.some((k) => k.bundles.some((b) => b.registration?.canonicalRepoId === repoId)),
  );
}

function targetOf(registry: RegistryV2, request: SetupRequest): { target: Target; targetKey: string } {
  if ((request.repo === undefined) === (request.registrationId === undefined)) {
    throw new StewardError('invalid_params', 'Name the repository (OWNER/NAME) or an existing registration, not both and not neither.');
  }
  if (request.registrationId !== undefined) {
    if (request.forge !== undefined || request.baseUrl !== undefined) throw new StewardError('invalid_params', 'A registration already knows its forge; leave out the forge and base URL.');
    const registration = findRegistration(registry, request.registrationId);
    const challenged = registry.conflicts.find((c) => isIncumbent(c, registration));
    if (challenged) return { target: { kind: 'held', repoId: registration.canonicalRepoId, conflict: challenged }, targetKey: hashOf({ registration: registration.registrationId }) };
    return { target: { kind: 'existing', registration, alias: null }, targetKey: hashOf({ registration: registration.registrationId }) };
  }
  const forge = request.forge ?? 'github';
  const apiBase = apiBaseOf(forge, request.baseUrl);
  const key = repositoryKeyOf(forge, apiBase, request.repo!);
  const { repoId, host } = key;
  const targetKey = hashOf({ repoId, forge, apiBase });
  // A registration stored under the older port-less id of this forge is this repository too.
  const matches = registry.registrations.filter((r) => namesRepository(r, key));
  if (matches.length > 1) {
    throw new StewardError('invalid_params', `Several caches maintain ${publicRepoId(repoId)}; name one by its registration id (${matches.map((r) => r.registrationId).join(', ')}).`);
  }
  if (matches.length === 1) {
    // A registration an open conflict challenges stays maintained, but is not changed until a person picks.
    const challenged = registry.conflicts.find((c) => isIncumbent(c, matches[0]!));
    if (challenged) return { target: { kind: 'held', repoId: matches[0]!.canonicalRepoId, conflict: challenged }, targetKey };
    return { target: { kind: 'existing', registration: matches[0]!, alias: request.repo! }, targetKey };
  }
  const conflict = heldBy(registry, repoId);
  if (conflict) return { target: { kind: 'held', repoId, conflict }, targetKey };
  return { target: { kind: 'new', repoId, alias: request.repo!, forge, apiBase, host }, targetKey };
}

/**
 * The effective configuration of a profile: the configured one by name, or the registration's own
 * snapshot when it still names a profile the configuration no longer has.
 */
function snapshotOf(profiles: Record<string, ConfigSnapshot>, policy: Policy, existing: Registration | null): ConfigSnapshot {
  const configured = Object.hasOwn(profiles, policy.profile) ? profiles[policy.profile] : undefined;
  if (configured) return validateSnapshot(configured);
  if (existing && existing.policy.profile === policy.profile) return existing.configSnapshot;
  const names = Object.keys(profiles).sort().join(', ');
  throw new StewardError('invalid_params', `No embedding profile is named "${policy.profile}"; the configured profiles are: ${names}.`);
}

/**
 * Resolves a setup request against the registry: which registration, which policy, which
 * configuration. A remote embedder is allowed only by the policy a person confirms with it, so the
 * policy's embedding boundary follows the profile.
 */
export function resolveRequest(registry: RegistryV2, request: SetupRequest, profiles: Record<string, ConfigSnapshot>, boundaryOf: (s: ConfigSnapshot) => DataBoundary): Resolved {
  const { target, targetKey } = targetOf(registry, request);
  const existing = target.kind === 'existing' ? target.registration : null;
  // A field the request leaves out keeps its current value; an explicit undefined is the same as left out.
  const requested = Object.fromEntries(Object.entries(request.policy ?? {}).filter(([, v]) => v !== undefined));
  const policy =
    target.kind === 'new' ? addPolicy(target.forge, requested) : Policy.parse({ ...(existing?.policy ?? addPolicy('github', {})), ...requested });
  const snapshot = snapshotOf(profiles, policy, existing);
  delete policy.embeddingBoundary;
  if (policy.rag === 'maintain' && boundaryOf(snapshot) === 'remote') policy.embeddingBoundary = 'remote';
  const repoId = target.kind === 'existing' ? target.registration.canonicalRepoId : target.repoId;
  return { target, targetKey, policy, snapshot, repo: publicRepoId(repoId) };
}
