import { useState, type FormEvent, type ReactElement } from 'react';
import type { SetupPlan, SetupRequest } from '../../../../core/api/index.js';
import { folderWords } from '../../../../core/api/document-sources.js';
import { Button, ErrorBanner, Panel } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { PlanView } from './PlanView.js';
import { DocumentFields, PolicyFields, TargetFields } from './SetupFields.js';
import { documentErrors, newIdempotencyKey, requestOf, type SetupDraft } from './setup-draft.js';

export { draftOfRequest, NEW_DRAFT, type SetupDraft } from './setup-draft.js';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function detailsOf(error: unknown): unknown {
  return (error as { data?: { details?: unknown } } | null)?.data?.details;
}

/** What the person added, counted: the result names no folder, only how many the cache now reads. */
const documentsWords = (count: number) => (count === 0 ? '' : ` with ${folderWords(count)}`);

function remedyOf(error: unknown): string | undefined {
  const details = (error as { data?: { details?: { remediation?: unknown } } } | null)?.data?.details;
  return typeof details?.remediation === 'string' ? details.remediation : undefined;
}

/**
 * Add repository / Change policy (the parent gives it a `key` per target, so a new target starts afresh): the choices, then the plan with its effects by class in plain
 * words, then Confirm, which applies exactly that plan. A plan that went stale says so and is
 * planned again on request.
 */
export function SetupForm({ initial, onDone, onCancel }: { initial: SetupDraft; onDone: (message: string, registrationId: string) => void; onCancel: () => void }): ReactElement {
  const profiles = useCall('Maintenance.Profiles', {});
  const planning = useAction('Maintenance.Plan');
  const applying = useAction('Maintenance.Apply');
  const [draft, setDraft] = useState<SetupDraft>(initial);
  const [plan, setPlan] = useState<(SetupPlan & { key: string; request: SetupRequest }) | undefined>();
  const busy = planning.busy || applying.busy;
  const set = (change: Partial<SetupDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setPlan(undefined);
    applying.reset();
  };

  const makePlan = () => {
    const request = requestOf(draft);
    setPlan(undefined);
    applying.reset();
    void planning.run(request).then((result) => result && setPlan({ ...result, key: newIdempotencyKey(), request }));
  };

  const confirm = () => {
    if (!plan) return;
    void applying.run({ ...plan.request, planId: plan.planId, idempotencyKey: plan.key, confirmedBy: 'person', detach: true }).then((applied) => {
      if (!applied) return;
      const what = applied.enrollment.created ? 'Added' : applied.enrollment.updated ? 'Changed' : 'Confirmed';
      const next = applied.enrollment.created ? 'the first sync runs now' : 'it syncs now under this policy';
      const documents = applied.enrollment.created ? documentsWords(applied.documentFolders) : '';
      onDone(`${what} ${applied.repo}${documents}: ${applied.serviceInstalled ? 'start at login is on, and ' : ''}${next}.`, applied.registrationId);
    });
  };
  // A plan overtaken by a change is not an error to show: the form says so and plans again on request.
  const wentStale = codeOf(applying.error) === 'stale_plan';
  const error = planning.error ?? (wentStale ? undefined : applying.error);
  const folderErrors = documentErrors(detailsOf(error), draft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    makePlan();
  };
  const title = draft.registrationId ? `Change policy of ${draft.repoLabel ?? draft.registrationId}` : 'Add repository';
  const failure = error === undefined ? undefined : Object.assign(new Error([error.message, remedyOf(error)].filter(Boolean).join(' ')), { code: codeOf(error) });
  return (
    <Panel title={title}>
      <form className="setup-form" aria-label={title} onSubmit={submit} data-testid="setup-form">
        {!draft.registrationId && <TargetFields draft={draft} set={set} />}
        <PolicyFields draft={draft} set={set} profiles={profiles.data?.profiles ?? []} />
        {!draft.registrationId && <DocumentFields draft={draft} set={set} errors={folderErrors} />}
        <div className="setup-form__actions">
          <Button type="submit" variant="primary" disabled={busy}>
            {planning.busy ? 'Planning…' : plan ? 'Plan again' : 'Show the plan'}
          </Button>
          <Button variant="quiet" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
      <ErrorBanner title="That did not work." error={failure} />
      {wentStale && (
        <div className="error-banner" role="alert" data-testid="setup-stale">
          <div className="error-banner__text">
            <strong>The plan is out of date.</strong>
            <span>Something changed after the plan was made (the configuration, the cache, the service state or the policy), so nothing was applied. Plan again to see what would happen now.</span>
          </div>
          <Button onClick={makePlan}>Plan again</Button>
        </div>
      )}
      {plan && !wentStale && <PlanView plan={plan} />}
      {plan && !wentStale && plan.status !== 'blocked' && (
        <div className="setup-form__actions">
          <Button variant="primary" onClick={confirm} disabled={busy}>
            {applying.busy ? 'Applying…' : 'Confirm'}
          </Button>
          <span className="muted">Only this plan is applied; if anything changed first, you will be asked to plan again.</span>
        </div>
      )}
    </Panel>
  );
}
