import { useId, useState, type ReactElement } from 'react';
import type { ConflictPlan, ConflictView } from '../../../../core/api/index.js';
import { Button, countOf, DetailList, EmptyState, ErrorBanner, Panel, PlaceHeader } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { CandidateEvidence } from './Candidate.js';
import './conflicts.css';

const KIND_LABELS: Record<ConflictView['kind'], string> = {
  cache_clone_conflict: 'Copied cache (clone)',
  identity_conflict: 'Conflicting registrations',
  identity_unresolved: 'Unresolved legacy registrations',
};

const EFFECT_LABELS: Record<ConflictPlan['effects'][number]['effect'], string> = {
  restore: 'Restore',
  retire: 'Retire',
  rebind: 'Rebind',
  keep_unresolved: 'Keep unresolved',
};

/** A fresh operation key per rendered plan: a retried Confirm of the same plan replays, never repeats. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `panel-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function ConflictCard({ conflict, onResolved }: { conflict: ConflictView; onResolved: (message: string) => void }): ReactElement {
  const evidence = useCall('Conflicts.Evidence', { conflictId: conflict.conflictId }, { refreshOn: ['maintenance.changed'] });
  const planner = useAction('Conflicts.Plan');
  const applier = useAction('Conflicts.Apply');
  const name = useId();
  // No default: display order and recency never select a candidate.
  const [selected, setSelected] = useState<string | undefined>();
  const [plan, setPlan] = useState<(ConflictPlan & { idempotencyKey: string }) | undefined>();
  const planning = planner.busy;
  const applying = applier.busy;
  // A plan overtaken by a change is not an error: the card says so and plans again on request.
  const stale = errorCode(applier.error) === 'stale_plan';
  const error = planner.error ?? (stale ? undefined : applier.error);

  const makePlan = (candidateId: string) => {
    setPlan(undefined);
    applier.reset();
    void planner.run({ conflictId: conflict.conflictId, candidateId }).then((result) => result && setPlan({ ...result, idempotencyKey: newIdempotencyKey() }));
  };

  const confirm = () => {
    if (!plan) return;
    void applier.run({ planId: plan.planId, idempotencyKey: plan.idempotencyKey }).then((result) => {
      if (result) onResolved(`Resolved: restored ${countOf(result.restored.length, 'registration')}, retired ${countOf(result.retired.length, 'path fingerprint')}.`);
      else setPlan(undefined);
    });
  };

  const blocked = conflict.state === 'blocked';
  return (
    <Panel title={`${KIND_LABELS[conflict.kind]} · ${conflict.conflictId}`}>
      <div data-testid="conflict" data-conflict-id={conflict.conflictId}>
        <DetailList
          label="Conflict evidence"
          items={[
            { term: 'Kind', value: <span className="conflict-mono">{conflict.kind}</span> },
            ...(conflict.cacheUuid ? [{ term: 'Cache UUID', value: <span className="conflict-mono">{conflict.cacheUuid}</span> }] : []),
            ...(conflict.canonicalRepoId ? [{ term: 'Repository', value: conflict.canonicalRepoId }] : []),
            ...(conflict.aliases.length > 0 ? [{ term: 'Known aliases', value: conflict.aliases.join(', ') }] : []),
            ...(conflict.legacyIds.length > 0 ? [{ term: 'Legacy registrations', value: conflict.legacyIds.join(', ') }] : []),
          ]}
        />
        {blocked ? (
          <p className="conflict-blocked" role="status">{conflict.blockedReason}</p>
        ) : (
          <fieldset className="conflict-picker" disabled={planning || applying}>
            <legend>Choose the candidate to keep</legend>
            {conflict.candidates.map((candidate) => (
              <label key={candidate.candidateId} className="conflict-candidate" data-testid="conflict-candidate" data-candidate-id={candidate.candidateId}>
                <input
                  type="radio"
                  name={name}
                  value={candidate.candidateId}
                  checked={selected === candidate.candidateId}
                  onChange={() => {
                    setSelected(candidate.candidateId);
                    makePlan(candidate.candidateId);
                  }}
                />
                <CandidateEvidence candidate={candidate} evidence={evidence.data?.candidates.find((e) => e.candidateId === candidate.candidateId)} />
              </label>
            ))}
          </fieldset>
        )}
        <ErrorBanner title="The conflict could not be resolved." error={error} />
        {stale && selected !== undefined && (
          <div className="error-banner" role="alert" data-testid="stale-plan">
            <div className="error-banner__text">
              <strong>The plan is out of date.</strong>
              <span>The conflict or its caches changed after the plan was made, so nothing was applied. Plan again to see what would happen now.</span>
            </div>
            <Button onClick={() => makePlan(selected)}>Plan again</Button>
          </div>
        )}
        {planning && <p className="muted">Planning…</p>}
        {plan && (
          <section className="conflict-plan" aria-label="Resolution plan" data-testid="conflict-plan" data-plan-id={plan.planId}>
            <h3>Resolution plan</h3>
            <p>{plan.note}</p>
            <ul>
              {plan.effects.map((effect, index) => (
                <li key={index}>
                  <strong>{EFFECT_LABELS[effect.effect]}:</strong> {effect.description}
                </li>
              ))}
            </ul>
            <div className="conflict-plan__actions">
              <Button onClick={confirm} disabled={applying}>
                {applying ? 'Applying…' : 'Confirm'}
              </Button>
              <span className="muted">Only this plan is applied; if anything changed first, you will be asked to plan again.</span>
            </div>
          </section>
        )}
      </div>
    </Panel>
  );
}

/**
 * Conflicts: cache identity conflicts from `Conflicts.List`, each a picker of its candidates with
 * public-safe evidence (fingerprints and hashes). Choosing one shows `Conflicts.Plan`; Confirm
 * runs `Conflicts.Apply`.
 */
export function ConflictsPlace(): ReactElement {
  const list = useCall('Conflicts.List', {}, { refreshOn: ['maintenance.changed'] });
  const [done, setDone] = useState<string | undefined>();
  const conflicts = list.data?.conflicts ?? [];
  return (
    <>
      <PlaceHeader title="Conflicts" description="Repository caches whose identities disagree and need your decision." />
      <ErrorBanner title="Conflicts could not be loaded." error={list.error} onRetry={list.reload} />
      {done !== undefined && (
        <p className="conflict-done" role="status" data-testid="conflict-resolved">
          {done}
        </p>
      )}
      {list.data !== undefined && conflicts.length === 0 && (
        <EmptyState icon="check" tone="good" title="No conflicts">
          <p>None means all cache identities agree: every enrolled cache points at the repository it was registered for.</p>
          <p>
            If two registrations ever claim the same cache, or a cache is copied to another path, Steward stops maintaining it and lists
            the conflict here so you can choose what to keep.
          </p>
        </EmptyState>
      )}
      {conflicts.map((conflict) => (
        <ConflictCard
          key={conflict.conflictId}
          conflict={conflict}
          onResolved={(message) => {
            setDone(message);
            list.reload();
          }}
        />
      ))}
    </>
  );
}
