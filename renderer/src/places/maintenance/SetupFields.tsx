import { useId, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { DOCUMENT_SOURCES_LIMIT } from '../../../../core/api/document-sources.js';
import { Button, Field } from '../../components/index.js';
import { BOUNDARY_WORDS } from './PlanView.js';
import { COLLECTIONS, FORGES, SYNC_LABELS, type Collection, type DocumentRow, type Forge, type RowErrors, type SetupDraft, type Sync } from './setup-draft.js';
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


const KIND_WORDS: Record<DocumentRow['kind'], { legend: string; path: string; hint: string }> = {
  worktree: { legend: 'Folder', path: 'Folder path', hint: 'Its files as they are on disk (tracked and untracked, not ignored); the folder must be inside a git work tree.' },
  git: { legend: 'Git repository', path: 'Repository folder path', hint: "The files committed at a branch or tag, not what is on disk." },
};

function DocumentRowFields({ row, index, errors, change, remove }: { row: DocumentRow; index: number; errors: RowErrors | undefined; change: (row: DocumentRow) => void; remove: () => void }): ReactElement {
  const words = KIND_WORDS[row.kind];
  return (
    <fieldset className="setup-documents__row" data-testid="document-row">
      <legend>
        {words.legend} {index + 1}
      </legend>
      <Field label={words.path} hint={words.hint} {...(errors?.path !== undefined ? { error: errors.path } : {})}>
        {(control) => <input {...control} className="input" value={row.path} placeholder="/home/me/notes" spellCheck={false} onChange={(e) => change({ ...row, path: e.currentTarget.value })} />}
      </Field>
      {row.kind === 'git' && (
        <Field label="Branch or tag (optional)" hint="Empty reads the branch checked out now." {...(errors?.ref !== undefined ? { error: errors.ref } : {})}>
          {(control) => <input {...control} className="input" value={row.ref} placeholder="main" spellCheck={false} onChange={(e) => change({ ...row, ref: e.currentTarget.value })} />}
        </Field>
      )}
      <Button variant="quiet" onClick={remove} aria-label={`Remove ${words.legend.toLowerCase()} ${index + 1}`}>
        Remove
      </Button>
    </fieldset>
  );
}

/**
 * Local documents of a repository being added: folders typed as paths (there is no folder picker
 * in every panel), each checked by Steward when the plan is made; a refusal shows beside its field.
 */
export function DocumentFields({ draft, set, errors }: { draft: SetupDraft; set: (change: Partial<SetupDraft>) => void; errors: { rows: Record<number, RowErrors>; section?: string } }): ReactElement {
  const rows = draft.documents;
  const replace = (i: number, row: DocumentRow | null) => set({ documents: row === null ? rows.filter((_, j) => j !== i) : rows.map((r, j) => (j === i ? row : r)) });
  const add = (kind: DocumentRow['kind']) => set({ documents: [...rows, { kind, path: '', ref: '' }] });
  const full = rows.length >= DOCUMENT_SOURCES_LIMIT;
  return (
    <fieldset className="setup-documents" aria-label="Local documents" data-testid="setup-documents">
      <legend>Local documents</legend>
      <p className="field__hint">Optional: notes or docs on this computer kept beside the repository&rsquo;s cache and searched with it. Steward keeps the paths to itself; plans and status only count them.</p>
      {rows.map((row, i) => (
        <DocumentRowFields key={i} row={row} index={i} errors={errors.rows[i]} change={(r) => replace(i, r)} remove={() => replace(i, null)} />
      ))}
      {errors.section !== undefined && (
        <p className="field__error" role="alert">
          {errors.section}
        </p>
      )}
      <span className="maintenance-actions">
        <Button onClick={() => add('worktree')} disabled={full}>
          Add a folder
        </Button>
        <Button onClick={() => add('git')} disabled={full}>
          Add a git repository
        </Button>
      </span>
    </fieldset>
  );
}
