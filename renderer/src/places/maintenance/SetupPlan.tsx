import { useId, useState, type FormEvent, type ReactElement } from 'react';
import type { DataBoundary, EffectClass, Params, Result, SetupPlan, SetupRequest } from '../../../../core/api/index.js';
import { Badge, ErrorBanner, Panel } from '../../components/index.js';
import { useCall, useClient } from '../../hooks.js';
import { COLLECTION_LABELS } from './words.js';

/** The forge's collections in the order people think of them; GitCode has no wiki Steward can read. */
const COLLECTIONS = ['issues', 'issue-comments', 'pulls', 'pr-comments', 'wiki'] as const;
type Collection = (typeof COLLECTIONS)[number];
type Forge = 'github' | 'gitea' | 'gitcode';
type Sync = 'off' | 'head' | 'head-and-backfill';

const FORGES: ReadonlyArray<{ id: Forge; label: string; hint: string }> = [
  { id: 'github', label: 'GitHub', hint: 'github.com, or GitHub Enterprise with its API address (https://HOST/api/v3).' },
  { id: 'gitea', label: 'Gitea or Forgejo', hint: 'Needs the API address, https://HOST/api/v1.' },
  { id: 'gitcode', label: 'GitCode', hint: 'gitcode.com (its API address is filled in).' },
];

const SYNC_LABELS: Record<Sync, string> = { off: 'Nothing (keep what is cached)', head: 'Recent changes only', 'head-and-backfill': 'Recent changes and all history' };

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
  serviceInstall: true,
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

function requestOf(draft: SetupDraft): SetupRequest {
  const target = draft.registrationId
    ? { registrationId: draft.registrationId }
    : { repo: draft.repo.trim(), forge: draft.forge, ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}) };
  return {
    ...target,
    policy: { sync: draft.sync, collections: draft.collections, rag: draft.rag ? 'maintain' : 'off', profile: draft.profile },
    ...(draft.serviceInstall ? {} : { serviceInstall: false }),
  };
}

/** A fresh operation key per rendered plan: a retried Confirm of the same plan replays, never repeats. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `panel-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function remedyOf(error: unknown): string | undefined {
  const details = (error as { data?: { details?: { remediation?: unknown } } } | null)?.data?.details;
  return typeof details?.remediation === 'string' ? details.remediation : undefined;
}

/** A sentence whose `commands` are set as code, as the core writes them for terminals too. */
export function Words({ text }: { text: string }): ReactElement {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
    </>
  );
}

/** The plan in plain words, by class; what only a person may confirm is marked. */
function PlanView({ plan }: { plan: SetupPlan }): ReactElement {
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

function Checkbox({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }): ReactElement {
  return (
    <div className="field">
      <label>
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} /> {label}
      </label>
      {hint && <p className="field__hint">{hint}</p>}
    </div>
  );
}

type Profiles = Result<'Maintenance.Profiles'>['profiles'];

function TargetFields({ draft, set }: { draft: SetupDraft; set: (change: Partial<SetupDraft>) => void }): ReactElement {
  const ids = useId();
  const forge = FORGES.find((f) => f.id === draft.forge)!;
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-forge`}>
          Forge
        </label>
        <select id={`${ids}-forge`} className="select" value={draft.forge} onChange={(e) => set({ forge: e.currentTarget.value as Forge })}>
          {FORGES.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
        <p className="field__hint">{forge.hint}</p>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-repo`}>
          Repository (OWNER/NAME)
        </label>
        <input id={`${ids}-repo`} className="input" value={draft.repo} required placeholder="acme/widgets" onChange={(e) => set({ repo: e.currentTarget.value })} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-url`}>
          API address {draft.forge === 'gitea' ? '' : '(optional)'}
        </label>
        <input id={`${ids}-url`} className="input" type="url" value={draft.baseUrl} required={draft.forge === 'gitea'} placeholder={draft.forge === 'gitea' ? 'https://HOST/api/v1' : ''} onChange={(e) => set({ baseUrl: e.currentTarget.value })} />
      </div>
    </>
  );
}

function PolicyFields({ draft, set, profiles }: { draft: SetupDraft; set: (change: Partial<SetupDraft>) => void; profiles: Profiles }): ReactElement {
  const ids = useId();
  const chosen = profiles.find((p) => p.name === draft.profile);
  const toggle = (c: Collection, on: boolean) => set({ collections: on ? COLLECTIONS.filter((x) => x === c || draft.collections.includes(x)) : draft.collections.filter((x) => x !== c) });
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-sync`}>
          Keep in sync
        </label>
        <select id={`${ids}-sync`} className="select" value={draft.sync} onChange={(e) => set({ sync: e.currentTarget.value as Sync })}>
          {(Object.keys(SYNC_LABELS) as Sync[]).map((s) => (
            <option key={s} value={s}>
              {SYNC_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="setup-collections">
        <legend>Collections</legend>
        {COLLECTIONS.filter((c) => c !== 'wiki' || draft.forge !== 'gitcode').map((c) => (
          <Checkbox key={c} label={COLLECTION_LABELS[c] ?? c} checked={draft.collections.includes(c)} onChange={(on) => toggle(c, on)} />
        ))}
      </fieldset>
      <Checkbox label="Index for search (RAG)" checked={draft.rag} onChange={(rag) => set({ rag })} hint="Search by words and meaning over the cache; the profile below decides where text goes to be embedded." />
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-profile`}>
          Embedding profile
        </label>
        <select id={`${ids}-profile`} className="select" value={draft.profile} onChange={(e) => set({ profile: e.currentTarget.value })}>
          {profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name} — {p.provider} {p.model} ({p.dataBoundary})
            </option>
          ))}
          {!chosen && <option value={draft.profile}>{draft.profile}</option>}
        </select>
        {chosen && (
          <p className="field__hint" data-testid="profile-boundary">
            Data boundary <code>{chosen.dataBoundary}</code>: {BOUNDARY_WORDS[chosen.dataBoundary]}.
          </p>
        )}
      </div>
      <Checkbox label="Start Steward when I log in" checked={draft.serviceInstall} onChange={(serviceInstall) => set({ serviceInstall })} hint="So caches keep themselves current after you log in again. Planned only when it is off." />
    </>
  );
}

/**
 * Add repository / Change policy (the parent gives it a `key` per target, so a new target starts afresh): the choices, then the plan with its effects by class in plain
 * words, then Confirm, which applies exactly that plan. A plan that went stale says so and is
 * planned again on request.
 */
export function SetupForm({ initial, onDone, onCancel }: { initial: SetupDraft; onDone: (message: string, registrationId: string) => void; onCancel: () => void }): ReactElement {
  const client = useClient();
  const profiles = useCall('Maintenance.Profiles', {});
  const [draft, setDraft] = useState<SetupDraft>(initial);
  const [plan, setPlan] = useState<(SetupPlan & { key: string; request: SetupRequest }) | undefined>();
  const [busy, setBusy] = useState<'planning' | 'applying' | undefined>();
  const [error, setError] = useState<unknown>();
  const [stale, setStale] = useState(false);
  const set = (change: Partial<SetupDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setPlan(undefined);
    setStale(false);
  };

  const makePlan = () => {
    if (!client) return;
    const request = requestOf(draft);
    setBusy('planning');
    setError(undefined);
    setStale(false);
    setPlan(undefined);
    client.call('Maintenance.Plan', request).then(
      (result) => {
        setBusy(undefined);
        setPlan({ ...result, key: newIdempotencyKey(), request });
      },
      (e: unknown) => {
        setBusy(undefined);
        setError(e);
      },
    );
  };

  const confirm = () => {
    if (!client || !plan) return;
    setBusy('applying');
    setError(undefined);
    const params: Params<'Maintenance.Apply'> = { ...plan.request, planId: plan.planId, idempotencyKey: plan.key, confirmedBy: 'person', detach: true };
    client.call('Maintenance.Apply', params).then(
      (applied) => {
        setBusy(undefined);
        const what = applied.enrollment.created ? 'Added' : applied.enrollment.updated ? 'Changed' : 'Confirmed';
        const next = applied.enrollment.created ? 'the first sync runs now' : 'it syncs now under this policy';
        onDone(`${what} ${applied.repo}: ${applied.serviceInstalled ? 'start at login is on, and ' : ''}${next}.`, applied.registrationId);
      },
      (e: unknown) => {
        setBusy(undefined);
        if (codeOf(e) === 'stale_plan') {
          setStale(true);
          setPlan(undefined);
        } else setError(e);
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    makePlan();
  };
  const title = draft.registrationId ? `Change policy of ${draft.repoLabel ?? draft.registrationId}` : 'Add repository';
  const failure = error === undefined ? undefined : error instanceof Error ? Object.assign(new Error([error.message, remedyOf(error)].filter(Boolean).join(' ')), { code: codeOf(error) }) : 'The request failed.';
  return (
    <Panel title={title}>
      <form className="setup-form" aria-label={title} onSubmit={submit} data-testid="setup-form">
        {!draft.registrationId && <TargetFields draft={draft} set={set} />}
        <PolicyFields draft={draft} set={set} profiles={profiles.data?.profiles ?? []} />
        <div className="setup-form__actions">
          <button type="submit" className="button button--primary" disabled={busy !== undefined || !client}>
            {busy === 'planning' ? 'Planning…' : plan ? 'Plan again' : 'Show the plan'}
          </button>
          <button type="button" className="button button--quiet" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
      <ErrorBanner title="That did not work." error={failure} />
      {stale && (
        <div className="error-banner" role="alert" data-testid="setup-stale">
          <div className="error-banner__text">
            <strong>The plan is out of date.</strong>
            <span>Something changed after the plan was made (the configuration, the cache, the service state or the policy), so nothing was applied. Plan again to see what would happen now.</span>
          </div>
          <button type="button" className="button" onClick={makePlan}>
            Plan again
          </button>
        </div>
      )}
      {plan && <PlanView plan={plan} />}
      {plan && plan.status !== 'blocked' && (
        <div className="setup-form__actions">
          <button type="button" className="button button--primary" onClick={confirm} disabled={busy !== undefined}>
            {busy === 'applying' ? 'Applying…' : 'Confirm'}
          </button>
          <span className="muted">Only this plan is applied; if anything changed first, you will be asked to plan again.</span>
        </div>
      )}
    </Panel>
  );
}
