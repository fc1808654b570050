import type { ReactElement } from 'react';
import type { CollectionStatus, ConflictView, EventPayload, RegistrationStatus } from '../../../../core/api/index.js';
import { failureWords, frontierWords, generationWords, laneWords, policyWords } from '../../../../core/api/maintenance-words.js';
import { Badge, Button, ConfirmInPlace, countOf, DataTable, DetailList, formatCount, formatRelativeTime, Panel, plainText, type BadgeTone } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { placeHref } from '../../navigation.js';
import { RepositorySearch } from './RepositorySearch.js';
import { NEW_DRAFT, type SetupDraft } from './setup-draft.js';
import { COLLECTION_LABELS, freshWords, historyWords, itemsWords, reasonWords, STATE_LABELS, summary } from './words.js';

const TONES: Record<RegistrationStatus['state'], BadgeTone> = {
  ready: 'good',
  refreshing: 'accent',
  indexing: 'accent',
  backfilling: 'accent',
  blocked: 'warn',
  disabled: 'neutral',
  degraded: 'danger',
  pending: 'neutral',
  waiting: 'warn',
};

function lastJob(r: RegistrationStatus): string {
  const job = r.jobs[0];
  if (!job) return 'none yet';
  const outcome = job.errorClass ? `${job.state}: ${failureWords(job.errorClass, r.forge)}` : job.state;
  return `${job.stage === 'rag' ? 'search index' : 'sync'} of ${laneWords(job.lane)} ${outcome} · ${formatRelativeTime(job.finishedAt ?? job.startedAt)}`;
}

function Toggle({ registration, onChanged }: { registration: RegistrationStatus; onChanged: (error?: Error) => void }): ReactElement | null {
  const disable = useAction('Maintenance.Disable');
  const enable = useAction('Maintenance.Enable');
  const canEnable = !registration.enabled && (registration.disabledReason === 'operator' || registration.disabledReason === null);
  if (!registration.enabled && !canEnable) return null;
  const action = registration.enabled ? disable : enable;
  const toggle = () => void action.run({ registrationId: registration.registrationId }).then(() => onChanged());
  const failed = disable.error ?? enable.error;
  return (
    <>
      <Button disabled={disable.busy || enable.busy} onClick={toggle}>
        {registration.enabled ? 'Pause' : 'Resume'}
      </Button>
      {failed && (
        <span className="maintenance-toggle__error" role="alert">
          {plainText(failed.message)}
        </span>
      )}
    </>
  );
}

/**
 * Stops maintaining a repository for good (`Maintenance.Remove`): asked in place; the cache file is
 * always kept from here (deleting one is the CLI's `--delete-cache`, which checks Steward made it).
 */
function StopMaintaining({ registration: r, onChanged }: { registration: RegistrationStatus; onChanged: (error?: Error) => void }): ReactElement {
  const remove = useAction('Maintenance.Remove');
  if (remove.data)
    return (
      <span className="maintenance-removed" role="status" data-testid="registration-removed">
        No longer maintained; its cache file was kept.
      </span>
    );
  return (
    <ConfirmInPlace
      ask="Stop maintaining…"
      label={`Stop maintaining ${r.canonicalRepoId}`}
      question={`Stop maintaining ${r.canonicalRepoId}? It is no longer synced or listed here; its cache file is kept.`}
      confirm="Yes, stop maintaining it"
      busy={remove.busy}
      error={remove.error}
      failed="It is still maintained."
      onConfirm={() => void remove.run({ registrationId: r.registrationId }).then((done) => done && onChanged())}
      testId="registration-remove"
    />
  );
}

const COLUMNS = [
  { header: 'Collection', cell: (c: CollectionStatus) => COLLECTION_LABELS[c.collection] ?? c.collection },
  { header: 'Items', cell: itemsWords, align: 'end' as const },
  { header: 'Recent changes', cell: freshWords },
  { header: 'History', cell: historyWords },
  { header: 'Note', cell: (c: CollectionStatus) => reasonWords(c.reason) },
];

/** Identifiers for operators and bug reports: behind a disclosure, never a path. */
function Identifiers({ r }: { r: RegistrationStatus }): ReactElement {
  return (
    <details className="maintenance-details">
      <summary>Details</summary>
      <DetailList
        label={`Identifiers of ${r.canonicalRepoId}`}
        items={[
          { term: 'Registration', value: <span className="maintenance-id">{r.registrationId}</span> },
          { term: 'Cache UUID', value: <span className="maintenance-id">{r.cacheUuid}</span> },
          { term: 'Path fingerprint', value: <span className="maintenance-id">{r.pathFingerprint}</span> },
          ...(r.aliases.length > 0 ? [{ term: 'Aliases', value: r.aliases.join(', ') }] : []),
          ...(r.legacyIds.length > 0 ? [{ term: 'Legacy registrations', value: r.legacyIds.join(', ') }] : []),
          { term: 'Policy', value: policyWords(r.policy) },
          { term: 'Configuration hash', value: <span className="maintenance-id">{r.configHash.slice(0, 16)}</span> },
          { term: 'Content generation', value: generationWords(r.generations, r.policy.rag) },
          ...(r.frontiers.length > 0 ? [{ term: 'Frontiers', value: r.frontiers.map(frontierWords).join(' · ') }] : []),
          { term: 'Last job', value: lastJob(r) },
        ]}
      />
    </details>
  );
}

export type Progress = EventPayload<'maintenance.progress'>;

/** The running job's last reported window, in counts: what a person watches while a sync runs. */
function progressWords(p: Progress): string {
  const lane = p.lane === 'tail' ? 'Reading older history' : 'Reading recent changes';
  return `${lane}: ${countOf(p.requests, 'request')}, ${formatCount(p.inserted)} new, ${formatCount(p.updated)} updated, ${formatCount(p.unchanged)} unchanged so far.`;
}

export function draftOfRegistration(r: RegistrationStatus): SetupDraft {
  return {
    ...NEW_DRAFT,
    registrationId: r.registrationId,
    repoLabel: r.canonicalRepoId,
    sync: r.policy.sync,
    collections: r.policy.collections.filter((c): c is SetupDraft['collections'][number] => (NEW_DRAFT.collections as readonly string[]).includes(c)),
    rag: r.policy.rag === 'maintain',
    profile: r.policy.profile,
  };
}

export function RegistrationCard({
  registration: r,
  progress,
  onChanged,
  onChangePolicy,
}: {
  registration: RegistrationStatus;
  progress: Progress | undefined;
  onChanged: (error?: Error) => void;
  onChangePolicy: () => void;
}): ReactElement {
  const running = r.jobs.some((j) => j.state === 'running');
  return (
    <Panel
      title={r.canonicalRepoId}
      actions={
        <span className="maintenance-actions">
          <Badge tone={TONES[r.state]}>{STATE_LABELS[r.state]}</Badge>
          <Button onClick={onChangePolicy}>Change policy</Button>
          <Toggle registration={r} onChanged={onChanged} />
          <StopMaintaining registration={r} onChanged={onChanged} />
        </span>
      }
    >
      <div data-testid="registration" data-registration-id={r.registrationId} data-state={r.state}>
        <p className="maintenance-summary" data-testid="registration-summary">
          {summary(r)}
        </p>
        {running && progress && (
          <p className="maintenance-progress" role="status" data-testid="registration-progress">
            {progressWords(progress)}
          </p>
        )}
        {r.collections.length > 0 && (
          <DataTable caption={`Collections of ${r.canonicalRepoId}`} columns={COLUMNS} rows={r.collections} rowKey={(c) => c.collection} />
        )}
        <p className="maintenance-next">
          {r.forge ? `From ${r.forge.host}. ` : ''}
          {r.nextRunAt !== null ? `Next sync ${formatRelativeTime(r.nextRunAt)}.` : r.enabled ? 'Next sync on the next pass.' : ''}
        </p>
        <Identifiers r={r} />
      </div>
      {r.policy.rag === 'maintain' && <RepositorySearch repo={r.canonicalRepoId} />}
    </Panel>
  );
}

/** A registration an open conflict holds: still listed, so it does not seem to vanish. */
export function HeldCard({ conflict, repo }: { conflict: ConflictView; repo: string }): ReactElement {
  return (
    <Panel title={repo} actions={<Badge tone="warn">Held: conflict</Badge>}>
      <p className="maintenance-summary" data-testid="held-registration">
        Nothing syncs for this repository until you choose which cache to keep. <a href={placeHref('conflicts')}>Resolve the conflict</a>
      </p>
      <details className="maintenance-details">
        <summary>Details</summary>
        <DetailList label={`Conflict holding ${repo}`} items={[{ term: 'Conflict', value: <span className="maintenance-id">{conflict.conflictId}</span> }, { term: 'Kind', value: conflict.kind }]} />
      </details>
    </Panel>
  );
}

export function heldRepositories(conflicts: readonly ConflictView[]): Array<{ conflict: ConflictView; repo: string }> {
  const out: Array<{ conflict: ConflictView; repo: string }> = [];
  for (const conflict of conflicts) {
    const repos = new Set(conflict.candidates.flatMap((c) => c.members.map((m) => m.canonicalRepoId ?? m.aliases[0] ?? null)).filter((x): x is string => x !== null));
    if (conflict.canonicalRepoId) repos.add(conflict.canonicalRepoId);
    for (const repo of repos) out.push({ conflict, repo });
  }
  return out;
}

