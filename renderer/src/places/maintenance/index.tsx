import { useState, type ReactElement } from 'react';
import type { RegistrationStatus } from '../../../../core/api/index.js';
import { DetailList, EmptyState, ErrorBanner, formatRelativeTime, Panel, PlaceHeader } from '../../components/index.js';
import { placeHref } from '../../navigation.js';
import { useCall, useClient } from '../../hooks.js';
import { RepositorySearch } from './RepositorySearch.js';
import './maintenance.css';

const STATE_LABELS: Record<RegistrationStatus['state'], string> = {
  ready: 'Ready',
  refreshing: 'Refreshing',
  indexing: 'Indexing',
  backfilling: 'Backfilling',
  blocked: 'Blocked',
  disabled: 'Disabled',
  degraded: 'Degraded',
};

function lastJob(r: RegistrationStatus): string {
  const job = r.jobs[0];
  if (!job) return '—';
  const outcome = job.errorClass ? `${job.state} (${job.errorClass})` : job.state;
  return `${job.stage}/${job.lane} ${outcome} · ${formatRelativeTime(job.finishedAt ?? job.startedAt)}`;
}

function problems(r: RegistrationStatus): string {
  const failing = (['sync', 'rag'] as const)
    .filter((stage) => r.stages[stage].errorClass !== null)
    .map((stage) => `${stage} ${r.stages[stage].errorClass} ×${r.stages[stage].failures}`);
  const all = [...new Set([...(r.disabledReason && r.disabledReason !== 'operator' ? [r.disabledReason] : []), ...r.degraded, ...failing])];
  return all.length > 0 ? all.join(', ') : '—';
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
      {registration.enabled ? 'Disable' : 'Enable'}
    </button>
  );
}

function stageLine(r: RegistrationStatus, stage: 'sync' | 'rag'): string {
  const s = r.stages[stage];
  const off = stage === 'sync' ? r.policy.sync === 'off' : r.policy.rag === 'off';
  if (off) return 'off';
  if (s.errorClass !== null) return `failing: ${s.errorClass} ×${s.failures}${s.nextAttemptAt !== null ? `, next attempt ${formatRelativeTime(s.nextAttemptAt)}` : ''}`;
  return s.lastSuccessAt !== null ? `healthy, last success ${formatRelativeTime(s.lastSuccessAt)}` : 'not run yet';
}

function RegistrationCard({ registration: r, onChanged }: { registration: RegistrationStatus; onChanged: (error?: Error) => void }): ReactElement {
  return (
    <Panel
      title={r.canonicalRepoId}
      actions={
        <span className="maintenance-actions">
          <span className={`badge maintenance-state maintenance-state--${r.state}`}>{STATE_LABELS[r.state]}</span>
          <Toggle registration={r} onChanged={onChanged} />
        </span>
      }
    >
      <div data-testid="registration" data-registration-id={r.registrationId}>
        <DetailList
          label={`Status of ${r.canonicalRepoId}`}
          items={[
            { term: 'Registration', value: <span className="maintenance-id">{r.registrationId}</span> },
            { term: 'Cache UUID', value: <span className="maintenance-id">{r.cacheUuid}</span> },
            { term: 'Path fingerprint', value: <span className="maintenance-id">{r.pathFingerprint}</span> },
            ...(r.aliases.length > 0 ? [{ term: 'Aliases', value: r.aliases.join(', ') }] : []),
            ...(r.legacyIds.length > 0 ? [{ term: 'Legacy registrations', value: r.legacyIds.join(', ') }] : []),
            { term: 'Policy', value: `sync ${r.policy.sync} · RAG ${r.policy.rag} · profile ${r.policy.profile} · ${r.policy.collections.join(', ') || 'no collections'}` },
            { term: 'Configuration hash', value: <span className="maintenance-id">{r.configHash.slice(0, 16)}</span> },
            { term: 'Content generation', value: `${r.generations.content ?? '—'} (covered ${r.generations.covered ?? '—'})` },
            ...(r.frontiers.length > 0
              ? [{ term: 'Frontiers', value: r.frontiers.map((f) => `${f.collection}/${f.lane} ${f.complete ? 'complete' : `next page ${f.nextPage ?? '—'}`}`).join(' · ') }]
              : []),
            { term: 'Sync', value: stageLine(r, 'sync') },
            { term: 'RAG', value: stageLine(r, 'rag') },
            { term: 'Last job', value: lastJob(r) },
            { term: 'Problems', value: problems(r) },
          ]}
        />
      </div>
      {r.policy.rag === 'maintain' && <RepositorySearch repo={r.canonicalRepoId} />}
    </Panel>
  );
}

/**
 * Maintenance: every registered repository cache with its sanitized status from `Maintenance.List`
 * (cache UUID and path fingerprint, never a path), plus Disable/Enable and a reconcile pass.
 */
export function MaintenancePlace(): ReactElement {
  const client = useClient();
  const list = useCall('Maintenance.List', {}, { refreshOn: ['maintenance.changed'] });
  const [actionError, setActionError] = useState<Error | undefined>();
  const [reconciling, setReconciling] = useState(false);
  const status = list.data;
  const registrations = status?.registrations ?? [];

  const changed = (error?: Error) => {
    setActionError(error);
    list.reload();
  };
  const reconcile = () => {
    if (!client) return;
    setReconciling(true);
    client.call('Maintenance.Reconcile', {}).then(
      () => {
        setReconciling(false);
        changed();
      },
      (error: unknown) => {
        setReconciling(false);
        changed(error instanceof Error ? error : new Error('The pass failed.'));
      },
    );
  };

  return (
    <>
      <PlaceHeader
        title="Maintenance"
        description="Repository caches that Steward keeps in sync and indexed for retrieval."
        actions={
          registrations.length > 0 ? (
            <button type="button" className="button" onClick={reconcile} disabled={reconciling || !client}>
              {reconciling ? 'Reconciling…' : 'Reconcile now'}
            </button>
          ) : undefined
        }
      />
      <ErrorBanner title="Maintenance status could not be loaded." error={list.error} onRetry={list.reload} />
      <ErrorBanner title="That did not work." error={actionError} />
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
      {status !== undefined && status.registry.state !== 'degraded' && registrations.length === 0 && (
        <EmptyState
          icon="maintenance"
          title="No repository caches enrolled"
          command="steward maintenance enroll --cache PATH --repo OWNER/NAME --idempotency-key KEY"
          commandLabel="Register an existing cache"
        >
          <p>
            Steward keeps each enrolled cache&rsquo;s issues, comments, pull requests, wiki and local documents current. A cache is
            identified by the durable UUID inside it, so its file path never appears here: only a fingerprint of it.
          </p>
          <p>No cache has been enrolled on this machine yet, so there is nothing to maintain.</p>
        </EmptyState>
      )}
      {registrations.map((r) => (
        <RegistrationCard key={`${r.registrationId}:${r.pathFingerprint}`} registration={r} onChanged={changed} />
      ))}
    </>
  );
}
