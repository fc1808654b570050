import { useState, type ReactElement } from 'react';
import { Button, countOf, EmptyState, ErrorBanner, formatCount, PlaceHeader } from '../../components/index.js';
import { placeHref } from '../../navigation.js';
import { useAction, useCall, useEvent } from '../../hooks.js';
import { draftOfRegistration, HeldCard, heldRepositories, RegistrationCard, type Progress } from './RegistrationCard.js';
import { draftOfRequest, NEW_DRAFT, SetupForm, type SetupDraft } from './SetupPlan.js';
import { WaitingPlans } from './WaitingPlans.js';
import './maintenance.css';

/**
 * Maintenance: every repository cache Steward keeps in sync, in the words people use — how many
 * items, how current, how much history — with identifiers behind "Details", plus pause/resume and
 * a sync pass. Registrations an open conflict holds stay listed as "Held: conflict".
 */
export function MaintenancePlace(): ReactElement {
  const list = useCall('Maintenance.List', {}, { refreshOn: ['maintenance.changed'] });
  const conflicts = useCall('Conflicts.List', {}, { refreshOn: ['maintenance.changed'] });
  // An agent's waiting plan changes the status (a `plan-waiting` item), not the registry.
  const waiting = useCall('Maintenance.Waiting', {}, { refreshOn: ['maintenance.changed', 'app.status'] });
  const [setup, setSetup] = useState<{ key: string; draft: SetupDraft } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  useEvent('maintenance.progress', (p) => setProgress((all) => ({ ...all, [p.registrationId]: p })));
  const [actionError, setActionError] = useState<Error | undefined>();
  const pass = useAction('Maintenance.Reconcile');
  const status = list.data;
  const registrations = status?.registrations ?? [];
  const held = heldRepositories(conflicts.data?.conflicts ?? []);

  const changed = (error?: Error) => {
    setActionError(error);
    list.reload();
    conflicts.reload();
  };
  const reconcile = () => void pass.run({}).then(() => changed());
  const lastPass = pass.data ? `Sync pass finished: ${countOf(pass.data.jobs.length, 'job')} ran, ${formatCount(pass.data.skipped.length)} had nothing to do or had to wait.` : undefined;

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
            <Button variant="primary" onClick={() => open(NEW_DRAFT)}>
              Add repository
            </Button>
            {registrations.length > 0 && (
              <Button onClick={reconcile} disabled={pass.busy}>
                {pass.busy ? 'Syncing…' : 'Sync now'}
              </Button>
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
      <ErrorBanner title="The sync pass failed." error={pass.error} />
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
