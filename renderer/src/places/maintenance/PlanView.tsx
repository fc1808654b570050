import type { ReactElement } from 'react';
import type { DataBoundary, EffectClass, SetupPlan } from '../../../../core/api/index.js';
import { Badge } from '../../components/index.js';

export const BOUNDARY_WORDS: Record<DataBoundary, string> = {
  local_process: 'nothing leaves this computer',
  local_network: "text goes to a server on this computer's network",
  remote: 'text goes to a remote service',
  unknown: 'where text goes is not known',
};

const CLASS_HEADINGS: Record<EffectClass, string> = {
  inspect: 'Checks first',
  local_config_write: "Changes to Steward's settings",
  local_service_change: 'Services on this computer',
  large_download: 'Downloads',
  provider_data_transfer: 'Where repository text goes',
  job_enqueue: 'Work it starts',
};

const STATUS_WORDS: Record<SetupPlan['status'], string> = {
  ready: 'Nothing to change: it is up to date.',
  refreshing: 'Nothing to change: recent changes are being read.',
  indexing: 'Nothing to change: it is being indexed.',
  backfilling: 'Nothing to change: older history is being read.',
  confirmation_required: 'Nothing happens until you confirm.',
  blocked: 'This cannot be applied yet.',
};

/** A sentence whose `commands` are set as code, as the core writes them for terminals too. */
export function Words({ text }: { text: string }): ReactElement {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
    </>
  );
}

/** The plan in plain words, by class; what only a person may confirm is marked. */
export function PlanView({ plan }: { plan: SetupPlan }): ReactElement {
  const classes = [...new Set(plan.effects.map((e) => e.class))];
  return (
    <section className="setup-plan" aria-label="Plan" data-testid="setup-plan" data-plan-id={plan.planId} data-status={plan.status}>
      <h3>What this will do for {plan.repo}</h3>
      <p className="muted">{STATUS_WORDS[plan.status]}</p>
      {classes.map((cls) => (
        <div key={cls} className="setup-plan__class" data-effect-class={cls}>
          <h4>{CLASS_HEADINGS[cls]}</h4>
          <ul>
            {plan.effects
              .filter((e) => e.class === cls)
              .map((e, i) => (
                <li key={i}>
                  <Words text={e.description} /> {e.needsPerson && <Badge tone="warn">needs your confirmation</Badge>}
                </li>
              ))}
          </ul>
        </div>
      ))}
      <p className="field__hint">
        Profile <strong>{plan.profile.name}</strong> ({plan.profile.provider}, {plan.profile.model}): data boundary <code>{plan.dataBoundary}</code> — {BOUNDARY_WORDS[plan.dataBoundary]}
        {plan.policy.rag === 'off' ? ' (search indexing is off, so nothing is sent)' : ''}. Configuration <code>{plan.configHash.slice(0, 12)}</code>.
      </p>
      {plan.blocker && (
        <div className="error-banner" role="alert" data-testid="setup-blocked">
          <div className="error-banner__text">
            <strong>Blocked: {plan.blocker.message}</strong>
            <span>
              <Words text={plan.blocker.remediation} />
            </span>
            <span className="error-banner__code">Code: {plan.blocker.code}</span>
          </div>
        </div>
      )}
    </section>
  );
}

