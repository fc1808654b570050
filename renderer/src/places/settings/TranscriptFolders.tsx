import { useState, type FormEvent, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { folderFoundWords, ROOT_LEFT_OUT_WORDS } from '../../../../core/api/root-words.js';
import { Badge, ErrorBanner, Field, Panel, PathText, providerLabel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { useDraft, type Same } from './drafts.js';
import { SaveRow } from './SaveRow.js';
import { lines, linesProblemWords, useSave, type ConfigView } from './saving.js';
import { SECTIONS } from './sections.js';
import { useFolderSurvey } from '../home/survey.js';

type Provider = Result<'Providers.Roots'>['providers'][number];
type Kind = Provider['roots'][number];

/**
 * Each folder found or not, by the rule Home's folder list says it with (folderFoundWords). `files`: the
 * transcripts the agent's watched folders hold (Providers.Survey), for the folders watched now only: a
 * default folder not watched is not what the survey counted.
 */
function Folders({ title, folders, files }: { title: string; folders: Kind['watched']; files?: number | undefined }): ReactElement {
  return (
    <div className="settings-root__folders">
      <span className="settings-root__title">{title}</span>
      {folders.length === 0 ? (
        <span className="muted"> none</span>
      ) : (
        <ul>
          {folders.map((f) => (
            <li key={f.path}>
              <FoundBadge exists={f.exists} files={files} /> <PathText path={f.path} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}


function FoundBadge({ exists, files }: { exists: boolean; files: number | undefined }): ReactElement {
  const words = folderFoundWords(exists, files);
  return <Badge tone={words === 'Found' ? 'good' : 'neutral'}>{words}</Badge>;
}

/** The folders Steward left out of what it watches now, each as written, and why. */
function LeftOut({ folders }: { folders: NonNullable<Kind['leftOut']> }): ReactElement {
  return (
    <ul className="settings-root__left-out">
      {folders.map((f) => (
        <li key={f.path}>
          <Badge tone="warn">Left out</Badge> <PathText path={f.path} /> is left out: {ROOT_LEFT_OUT_WORDS[f.reason]}
        </li>
      ))}
    </ul>
  );
}

export function RootKindField({ id, kind, draft, onDraft, problem, files }: { id: string; kind: Kind; draft: string; onDraft: (text: string) => void; problem: string | undefined; files?: number | undefined }): ReactElement {
  return (
    <div className="settings-root">
      <Field label={`${kind.label} folders`} hint={`Folders that hold ${kind.holds}, one per line. Empty uses the folders found by default.`} error={problem}>
        {(control) => <textarea {...control} className="input settings-lines" rows={2} value={draft} onChange={(e) => onDraft(e.currentTarget.value)} data-setting={id} />}
      </Field>
      <Folders title="Watched now:" folders={kind.watched} files={files} />
      {kind.leftOut && <LeftOut folders={kind.leftOut} />}
      <Folders title="Found by default:" folders={kind.detected} />
      {kind.source === 'environment' && (
        <p className="field__hint">
          <code>{kind.env}</code> is set in Steward&rsquo;s environment and decides these folders; what you save here applies once it is unset.
        </p>
      )}
    </div>
  );
}

/** Folder lists compare as their lines without blanks: an edit back to what is saved is no edit. */
const sameLines: Same = (key, draft, saved) => (key.startsWith('enabled:') ? draft === saved : lines(draft).join('\n') === saved);

/** Which agents Steward reads and from which folders: found or not, detected defaults, the environment's say. */
export function TranscriptFolders({ config, onSaved }: { config: ConfigView; onSaved: () => void }): ReactElement {
  const roots = useCall('Providers.Roots', {});
  const survey = useFolderSurvey();
  // The survey too: a newly set folder's badge would count the transcripts of the folders watched before.
  const saving = useSave(() => (onSaved(), roots.reload(), survey.reload()));
  // The lines as last sent: a refusal names entries of these, which the person may have edited since.
  const [sent, setSent] = useState<Record<string, string>>({});
  // What is saved, as text: each agent's on/off (`enabled:<agent>`) and its folders, one per line.
  const savedText: Record<string, string> = Object.fromEntries(
    (roots.data?.providers ?? []).flatMap((p) => [
      [`enabled:${p.provider}`, String(config.saved.providers[p.provider]?.enabled ?? p.enabled)],
      ...p.roots.map((k) => [`providers.${p.provider}.${k.key}`, (k.configured ?? []).join('\n')]),
    ]),
  );
  const draft = useDraft('folders', savedText, sameLines);
  const drafts = draft.values;
  const enabled = (provider: string) => drafts[`enabled:${provider}`] !== 'false';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: Record<string, unknown> = {};
    for (const p of roots.data?.providers ?? []) {
      if (enabled(p.provider) !== config.saved.providers[p.provider]?.enabled) changes[`providers.${p.provider}.enabled`] = enabled(p.provider);
      for (const k of p.roots) {
        const key = `providers.${p.provider}.${k.key}`;
        const next = lines(drafts[key] ?? '');
        if (next.join('\n') !== (k.configured ?? []).join('\n')) changes[key] = next.length === 0 ? null : next;
      }
    }
    if (Object.keys(changes).length === 0 || saving.busy) return;
    setSent(drafts);
    saving.save(changes);
  };

  return (
    <Panel title={SECTIONS.agents.title} id={SECTIONS.agents.id}>
      <ErrorBanner title="The folders could not be listed." error={roots.error} onRetry={roots.reload} />
      <form className="settings-form" onSubmit={submit} aria-label="Agents and their folders">
        {roots.data?.providers.map((p) => (
          <fieldset key={p.provider} className="settings-provider" data-provider={p.provider}>
            <legend>{providerLabel(p.provider)}</legend>
            <label className="settings-check">
              <input type="checkbox" checked={enabled(p.provider)} onChange={(e) => draft.set(`enabled:${p.provider}`, String(e.currentTarget.checked))} /> Import this agent&rsquo;s conversations
            </label>
            {p.roots.map((k) => {
              const key = `providers.${p.provider}.${k.key}`;
              const files = survey.data?.providers.find((s) => s.provider === p.provider)?.files;
              return <RootKindField key={key} id={key} kind={k} draft={drafts[key] ?? ''} onDraft={(text) => draft.set(key, text)} problem={linesProblemWords(key, sent[key] ?? '', saving.problems)} files={files} />;
            })}
          </fieldset>
        ))}
        <SaveRow saving={saving} label="Save agents and folders" draft={draft} />
      </form>
    </Panel>
  );
}
