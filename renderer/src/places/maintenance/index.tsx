import { useState, type ReactElement } from 'react';
import type { CollectionStatus, ConflictView, EventPayload, RegistrationStatus, WaitingPlan } from '../../../../core/api/index.js';
import { Badge, DataTable, DetailList, EmptyState, ErrorBanner, formatCount, formatRelativeTime, Panel, PlaceHeader, type BadgeTone } from '../../components/index.js';
import { placeHref } from '../../navigation.js';
import { useCall, useClient, useEvent } from '../../hooks.js';
import { RepositorySearch } from './RepositorySearch.js';
import { draftOfRequest, NEW_DRAFT, SetupForm, type SetupDraft } from './SetupPlan.js';
import { COLLECTION_LABELS, freshWords, historyWords, itemsWords, reasonWords, STATE_LABELS, summary } from './words.js';
import './maintenance.css';

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
  const outcome = job.errorClass ? `${job.state} (${job.errorClass})` : job.state;
  return `${job.stage}/${job.lane} ${outcome} · ${formatRelativeTime(job.finishedAt ?? job.startedAt)}`;
}

function Toggle({ registration, onChanged }: { registration: RegistrationStatus; onChanged: (error?: Error) => void }): ReactElement | null {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const canEnable = !registration.enabled && (registration.disabledReason === 'operator' || registration.disabledReason === null);
  if (!registration.enabled && !canEnable) return null;
  const method = registration.enabled ? 'Maintenance.Disable' : 'Maintenance.Enable';
  return (
    <button
      type="button"
      className="button"
      disabled={busy || !client}
      onClick={() => {
        if (!client) return;
        setBusy(true);
        client.call(method, { registrationId: registration.registrationId }).then(
          () => {
            setBusy(false);
            onChanged();
          },
          (error: unknown) => {
            setBusy(false);
            onChanged(error instanceof Error ? error : new Error('The change failed.'));
          },
        );
      }}
    >
      {registration.enabled ? 'Pause' : 'Resume'}
    </button>
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
          { term: 'Policy', value: `sync ${r.policy.sync} · RAG ${r.policy.rag} · profile ${r.policy.profile}` },
          { term: 'Configuration hash', value: <span className="maintenance-id">{r.configHash.slice(0, 16)}</span> },
          { term: 'Content generation', value: `${r.generations.content ?? '—'} (indexed ${r.generations.covered ?? '—'})` },
          ...(r.frontiers.length > 0
            ? [{ term: 'Frontiers', value: r.frontiers.map((f) => `${f.collection}/${f.lane} ${f.complete ? 'complete' : `next page ${f.nextPage ?? '—'}`}`).join(' · ') }]
            : []),
          { term: 'Last job', value: lastJob(r) },
        ]}
      />
    </details>
  );
}

type Progress = EventPayload<'maintenance.progress'>;

/** The running job's last reported window, in counts: what a person watches while a sync runs. */
function progressWords(p: Progress): string {
  const lane = p.lane === 'tail' ? 'Reading older history' : 'Reading recent changes';
  return `${lane}: ${formatCount(p.requests)} requests, ${formatCount(p.inserted)} new, ${formatCount(p.updated)} updated, ${formatCount(p.unchanged)} unchanged so far.`;
}

function draftOfRegistration(r: RegistrationStatus): SetupDraft {
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

function RegistrationCard({
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
          <button type="button" className="button" onClick={onChangePolicy}>
            Change policy
          </button>
          <Toggle registration={r} onChanged={onChanged} />
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
function HeldCard({ conflict, repo }: { conflict: ConflictView; repo: string }): ReactElement {
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

function heldRepositories(conflicts: readonly ConflictView[]): Array<{ conflict: ConflictView; repo: string }> {
  const out: Array<{ conflict: ConflictView; repo: string }> = [];
  for (const conflict of conflicts) {
    const repos = new Set(conflict.candidates.flatMap((c) => c.members.map((m) => m.canonicalRepoId ?? m.aliases[0] ?? null)).filter((x): x is string => x !== null));
    if (conflict.canonicalRepoId) repos.add(conflict.canonicalRepoId);
    for (const repo of repos) out.push({ conflict, repo });
  }
  return out;
}

/** Plans agents asked for that only a person may confirm: review (the same form and plan) or dismiss. */
function WaitingPlans({ waiting, onReview, onDismissed }: { waiting: readonly WaitingPlan[]; onReview: (w: WaitingPlan) => void; onDismissed: () => void }): ReactElement | null {
  const client = useClient();
  if (waiting.length === 0) return null;
  return (
    <Panel title="Waiting for your confirmation">
      <ul className="maintenance-waiting">
        {waiting.map((w) => (
          <li key={w.waitingId} data-testid="waiting-plan">
            <p>
              An agent asked Steward to maintain <strong>{w.repo}</strong> {formatRelativeTime(w.askedAt)}. Only you can confirm: {w.needs.join(' ')}
            </p>
            <span className="maintenance-actions">
              <button type="button" className="button button--primary" onClick={() => onReview(w)}>
                Review the plan
              </button>
              <button type="button" className="button button--quiet" onClick={() => client?.call('Maintenance.Dismiss', { waitingId: w.waitingId }).then(onDismissed, onDismissed)}>
                Dismiss
              </button>
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/**
 * Maintenance: every repository cache Steward keeps in sync, in the words people use — how many
 * items, how current, how much history — with identifiers behind "Details", plus pause/resume and
 * a sync pass. Registrations an open conflict holds stay listed as "Held: conflict".
 */
export function MaintenancePlace(): ReactElement {
  const client = useClient();
  const list = useCall('Maintenance.List', {}, { refreshOn: ['maintenance.changed'] });
  const conflicts = useCall('Conflicts.List', {}, { refreshOn: ['maintenance.changed'] });
  // An agent's waiting plan changes the status (a `plan-waiting` item), not the registry.
  const waiting = useCall('Maintenance.Waiting', {}, { refreshOn: ['maintenance.changed', 'app.status'] });
  const [setup, setSetup] = useState<{ key: string; draft: SetupDraft } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  useEvent('maintenance.progress', (p) => setProgress((all) => ({ ...all, [p.registrationId]: p })));
  const [actionError, setActionError] = useState<Error | undefined>();
  const [reconciling, setReconciling] = useState(false);
  const [lastPass, setLastPass] = useState<string | undefined>();
  const status = list.data;
  const registrations = status?.registrations ?? [];
  const held = heldRepositories(conflicts.data?.conflicts ?? []);

  const changed = (error?: Error) => {
    setActionError(error);
    list.reload();
    conflicts.reload();
  };
  const reconcile = () => {
    if (!client) return;
    setReconciling(true);
    client.call('Maintenance.Reconcile', {}).then(
      (result) => {
        setReconciling(false);
        setLastPass(`Sync pass finished: ${result.jobs.length} job${result.jobs.length === 1 ? '' : 's'} ran, ${result.skipped.length} had nothing to do or had to wait.`);
        changed();
      },
      (error: unknown) => {
        setReconciling(false);
        setLastPass(undefined);
        changed(error instanceof Error ? error : new Error('The pass failed.'));
      },
    );
  };

  const open = (draft: SetupDraft) => {
    setDone(undefined);
    setSetup({ key: `${Date.now()}`, draft });
  };
  return (
    <>
      <PlaceHeader
        title="Maintenance"
        description="Repository caches Steward keeps in sync with their forges: issues, pull requests, their comments, wikis and local documents."
        actions={
          <span className="maintenance-actions">
            <button type="button" className="button button--primary" onClick={() => open(NEW_DRAFT)} disabled={!client}>
              Add repository
            </button>
            {registrations.length > 0 && (
              <button type="button" className="button" onClick={reconcile} disabled={reconciling || !client}>
                {reconciling ? 'Syncing…' : 'Sync now'}
              </button>
            )}
          </span>
        }
      />
      {done && (
        <p className="maintenance-notice maintenance-notice--info" role="status" data-testid="setup-done">
          {done}
        </p>
      )}
      <WaitingPlans waiting={waiting.data?.waiting ?? []} onReview={(w) => open(draftOfRequest(w.request))} onDismissed={waiting.reload} />
      {setup && (
        <SetupForm
          key={setup.key}
          initial={setup.draft}
          onCancel={() => setSetup(undefined)}
          onDone={(message) => {
            setSetup(undefined);
            setDone(message);
            changed();
            waiting.reload();
          }}
        />
      )}
      <ErrorBanner title="Maintenance status could not be loaded." error={list.error} onRetry={list.reload} />
      <ErrorBanner title="That did not work." error={actionError} />
      {lastPass && (
        <p className="maintenance-notice maintenance-notice--info" role="status" data-testid="sync-pass-result">
          {lastPass}
        </p>
      )}
      {status?.registry.state === 'degraded' && (
        <ErrorBanner
          title="The maintenance registry is degraded."
          error={`managed-caches.json could not be understood (${status.registry.reason ?? 'unknown'}); it was left untouched and nothing is scheduled. Repair or move it, then restart Steward.`}
        />
      )}
      {status !== undefined && status.conflicts.length > 0 && (
        <p className="maintenance-notice" role="status">
          {status.conflicts.length === 1 ? 'One cache identity conflict needs' : `${status.conflicts.length} cache identity conflicts need`} your decision;
          the registrations involved are held until then. <a href={placeHref('conflicts')}>Open Conflicts</a>
        </p>
      )}
      {status !== undefined && status.registry.state !== 'degraded' && registrations.length === 0 && held.length === 0 && !setup && (
        <EmptyState icon="maintenance" title="No repository caches enrolled" command="steward maintenance enable --repo OWNER/NAME" commandLabel="Or in a terminal">
          <p>
            Steward can keep a local copy of a repository&rsquo;s issues, pull requests, comments and wiki current, from GitHub, Gitea or
            Forgejo, or GitCode. Store the forge&rsquo;s token first with <code>steward secrets set GITHUB_TOKEN</code>, then choose
            Add repository: you see exactly what Steward will do before anything happens.
          </p>
          <p>No cache has been enrolled on this machine yet, so there is nothing to maintain.</p>
        </EmptyState>
      )}
      {registrations.map((r) => (
        <RegistrationCard
          key={`${r.registrationId}:${r.pathFingerprint}`}
          registration={r}
          progress={progress[r.registrationId]}
          onChanged={changed}
          onChangePolicy={() => open(draftOfRegistration(r))}
        />
      ))}
      {held.map(({ conflict, repo }) => (
        <HeldCard key={`${conflict.conflictId}:${repo}`} conflict={conflict} repo={repo} />
      ))}
    </>
  );
}
