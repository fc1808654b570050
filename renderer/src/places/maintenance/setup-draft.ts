import type { SetupRequest } from '../../../../core/api/index.js';

/** The forge's collections in the order people think of them; GitCode has no wiki Steward can read. */
export const COLLECTIONS = ['issues', 'issue-comments', 'pulls', 'pr-comments', 'wiki'] as const;
export type Collection = (typeof COLLECTIONS)[number];
export type Forge = 'github' | 'gitea' | 'gitcode';
export type Sync = 'off' | 'head' | 'head-and-backfill';

export const FORGES: ReadonlyArray<{ id: Forge; label: string; hint: string }> = [
  { id: 'github', label: 'GitHub', hint: 'github.com, or GitHub Enterprise with its API address (https://HOST/api/v3).' },
  { id: 'gitea', label: 'Gitea or Forgejo', hint: 'Needs the API address, https://HOST/api/v1.' },
  { id: 'gitcode', label: 'GitCode', hint: 'gitcode.com (its API address is filled in).' },
];

export const SYNC_LABELS: Record<Sync, string> = { off: 'Nothing (keep what is cached)', head: 'Recent changes only', 'head-and-backfill': 'Recent changes and all history' };

/** What the form starts from: a new repository, an existing registration's policy, or an agent's request. */
export interface SetupDraft {
  registrationId?: string;
  repoLabel?: string;
  forge: Forge;
  repo: string;
  baseUrl: string;
  sync: Sync;
  collections: Collection[];
  rag: boolean;
  profile: string;
  serviceInstall: boolean;
}

export const NEW_DRAFT: SetupDraft = {
  forge: 'github',
  repo: '',
  baseUrl: '',
  sync: 'head-and-backfill',
  collections: ['issues', 'issue-comments', 'pulls', 'pr-comments', 'wiki'],
  rag: false,
  profile: 'default',
  // Start at login is off until the person turns it on (README, Home's step 5); the form only offers it.
  serviceInstall: false,
};

export function draftOfRequest(request: SetupRequest): SetupDraft {
  return {
    ...NEW_DRAFT,
    ...(request.registrationId ? { registrationId: request.registrationId } : {}),
    forge: request.forge ?? 'github',
    repo: request.repo ?? '',
    baseUrl: request.baseUrl ?? '',
    ...(request.policy?.sync ? { sync: request.policy.sync } : {}),
    ...(request.policy?.collections ? { collections: [...request.policy.collections] } : {}),
    rag: request.policy?.rag === 'maintain',
    profile: request.policy?.profile ?? 'default',
    serviceInstall: request.serviceInstall !== false,
  };
}

export function requestOf(draft: SetupDraft): SetupRequest {
  const target = draft.registrationId
    ? { registrationId: draft.registrationId }
    : { repo: draft.repo.trim(), forge: draft.forge, ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}) };
  return {
    ...target,
    policy: { sync: draft.sync, collections: draft.collections, rag: draft.rag ? 'maintain' : 'off', profile: draft.profile },
    // Core plans start at login when the field is absent, so "off" is always sent; "on" is core's default,
    // left out so a reviewed agent request stays the request the agent sent.
    ...(draft.serviceInstall ? {} : { serviceInstall: false }),
  };
}

/** A fresh operation key per rendered plan: a retried Confirm of the same plan replays, never repeats. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `panel-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

