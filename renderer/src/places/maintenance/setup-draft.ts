import type { DocumentSource, SetupRequest } from '../../../../core/api/index.js';
import { CHECKED_OUT_REF, WORKTREE_REF } from '../../../../core/api/document-sources.js';

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

/** One row of Local documents: a folder as it is on disk, or a git repository's committed files at a ref. */
export interface DocumentRow {
  kind: DocumentSource['kind'];
  path: string;
  /** A git repository's branch or tag; empty is the branch checked out. */
  ref: string;
}

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
  /** Only for a repository being added: a registration's folders are chosen when it is added. */
  documents: DocumentRow[];
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
  documents: [],
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

/** The rows sent, by their place in the form: a row left empty is not a folder. The server's `sources.N` is the Nth of these. */
export function sentRows(draft: SetupDraft): number[] {
  return draft.registrationId ? [] : draft.documents.flatMap((d, i) => (d.path.trim() ? [i] : []));
}

function sourceOf(row: DocumentRow): DocumentSource {
  // A git repository without a ref is read at its branch: the owner resolves `HEAD` to it, as `--docs-git` does.
  return row.kind === 'worktree' ? { kind: 'worktree', ref: WORKTREE_REF, root: row.path.trim() } : { kind: 'git', ref: row.ref.trim() || CHECKED_OUT_REF, root: row.path.trim() };
}

export function requestOf(draft: SetupDraft): SetupRequest {
  const sources = sentRows(draft).map((i) => sourceOf(draft.documents[i]!));
  const target = draft.registrationId
    ? { registrationId: draft.registrationId }
    : { repo: draft.repo.trim(), forge: draft.forge, ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}) };
  return {
    ...target,
    policy: { sync: draft.sync, collections: draft.collections, rag: draft.rag ? 'maintain' : 'off', profile: draft.profile },
    // Core plans start at login when the field is absent, so "off" is always sent; "on" is core's default,
    // left out so a reviewed agent request stays the request the agent sent.
    ...(draft.serviceInstall ? {} : { serviceInstall: false }),
    ...(sources.length > 0 ? { sources } : {}),
  };
}

/** A fresh operation key per rendered plan: a retried Confirm of the same plan replays, never repeats. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `panel-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}


/** The owner's words for one row of Local documents, beside the field they are about. */
export interface RowErrors {
  path?: string;
  ref?: string;
}

/**
 * Which rows (and which of their fields) a refusal names: the owner's checks name `sources.N.root`
 * or `.ref` in `details.fields`, the contract's own checks in `details.issues`; `sources` alone is
 * about the section. N counts the rows sent, so it is mapped back to the row in the form.
 */
export function documentErrors(details: unknown, draft: SetupDraft): { rows: Record<number, RowErrors>; section?: string } {
  const d = (details ?? {}) as { fields?: Record<string, { message?: unknown }>; issues?: Array<{ path?: unknown; message?: unknown }> };
  const named: Array<[string, unknown]> = [
    ...Object.entries(d.fields ?? {}).map(([key, v]) => [key, v?.message] as [string, unknown]),
    ...(Array.isArray(d.issues) ? d.issues.map((i) => [String(i.path ?? ''), i.message] as [string, unknown]) : []),
  ];
  const sent = sentRows(draft);
  const out: { rows: Record<number, RowErrors>; section?: string } = { rows: {} };
  for (const [key, message] of named) {
    if (typeof message !== 'string') continue;
    const match = /^sources(?:\.(\d+)(?:\.(\w+))?)?$/.exec(key);
    if (!match) continue;
    const row = match[1] === undefined ? undefined : sent[Number(match[1])];
    if (row === undefined) out.section = message;
    else out.rows[row] = { ...out.rows[row], ...(match[2] === 'ref' ? { ref: message } : { path: message }) };
  }
  return out;
}
