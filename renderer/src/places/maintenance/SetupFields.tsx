import { useId, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { BOUNDARY_WORDS } from './PlanView.js';
import { COLLECTIONS, FORGES, SYNC_LABELS, type Collection, type Forge, type SetupDraft, type Sync } from './setup-draft.js';
import { COLLECTION_LABELS } from './words.js';

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

export function TargetFields({ draft, set }: { draft: SetupDraft; set: (change: Partial<SetupDraft>) => void }): ReactElement {
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

export function PolicyFields({ draft, set, profiles }: { draft: SetupDraft; set: (change: Partial<SetupDraft>) => void; profiles: Profiles }): ReactElement {
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

