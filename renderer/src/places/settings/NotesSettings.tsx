import { type FormEvent, type ReactElement } from 'react';
import { countOf, Field, Glossary } from '../../components/index.js';
import { sameSetting, useDraft } from './drafts.js';
import { SaveRow } from './SaveRow.js';
import { lines, problemWords, useSave, type ConfigView } from './saving.js';
import { ScratchProjects } from './ScratchProjects.js';

const sameNotes = sameSetting(['ignore']);

/** Folders whose notes Steward never writes, scratch projects, and the daily budget of model calls. */
export function NotesSettings({ config, budgetUsed, onSaved }: { config: ConfigView; budgetUsed: number; onSaved: () => void }): ReactElement {
  const saving = useSave(onSaved);
  const { saved } = config;
  const draft = useDraft('notes', { ignore: saved.sweeperIgnore.join('\n'), budget: String(saved.dailyModelCalls) }, sameNotes);
  const { ignore, budget } = draft.values;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: Record<string, unknown> = {};
    if (lines(ignore).join('\n') !== saved.sweeperIgnore.join('\n')) changes['sweeper.ignore'] = lines(ignore);
    const calls = budget.trim() === '' ? Number.NaN : Number(budget);
    if (calls !== saved.dailyModelCalls) changes['sweeper.daily_model_calls'] = Number.isFinite(calls) ? calls : budget;
    if (Object.keys(changes).length > 0) saving.save(changes);
  };

  return (
    <div className="notes-settings">
      <form className="settings-form" onSubmit={submit} aria-label="Which projects get notes">
        <Field label="Never write notes for these folders" hint="One folder pattern per line, such as /home/me/experiments/** ; their conversations are still kept and searchable." error={problemWords(saving.problem('sweeper.ignore'))}>
          {(control) => <textarea {...control} className="input settings-lines" rows={3} value={ignore} onChange={(e) => draft.set('ignore', e.currentTarget.value)} data-setting="sweeper.ignore" />}
        </Field>
        <Field
          label="Model calls a day, across all projects"
          hint={`${countOf(budgetUsed, 'call')} used today. Past the budget a remote curator pauses until tomorrow; the offline curator costs nothing and is never limited.`}
          error={problemWords(saving.problem('sweeper.daily_model_calls'), 'calls')}
        >
          {(control) => <input {...control} className="input settings-number" inputMode="numeric" value={budget} onChange={(e) => draft.set('budget', e.currentTarget.value)} data-setting="sweeper.daily_model_calls" />}
        </Field>
        <SaveRow saving={saving} label="Save folders and budget" draft={draft} />
      </form>
      <Glossary term="Scratch project">a folder for throwaway work. Its conversations are kept and searchable, but Steward never writes notes for it.</Glossary>
      <ScratchProjects />
    </div>
  );
}
