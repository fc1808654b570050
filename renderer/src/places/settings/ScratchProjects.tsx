import { useId, useState, type ReactElement } from 'react';
import { projectChoiceLabels } from '../../../../core/api/names.js';
import { Button, ErrorBanner } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { projectHref } from '../../navigation.js';

/** The projects marked scratch, each with a way back, and a way to mark another. */
export function ScratchProjects(): ReactElement {
  const scratch = useCall('Projects.Scratch', {});
  const all = useCall('Projects.List', {});
  const set = useAction('Projects.SetScratch');
  const id = useId();
  const [chosen, setChosen] = useState('');
  const marked = new Set((scratch.data?.projects ?? []).map((p) => p.projectKey));
  const others = (all.data?.projects ?? []).filter((p) => !marked.has(p.projectKey));
  // Named as the whole list names them: a scratch project and another of the same name are told apart too.
  const labels = projectChoiceLabels(all.data?.projects ?? []);
  const change = (projectKey: string, value: boolean) => void set.run({ projectKey, scratch: value }).then(() => (scratch.reload(), setChosen('')));
  return (
    <div className="scratch-projects" role="group" aria-label="Scratch projects">
      <ErrorBanner title="Scratch projects could not be listed." error={scratch.error} onRetry={scratch.reload} />
      {scratch.data && scratch.data.projects.length === 0 && <p className="muted">No project is marked scratch.</p>}
      <ul className="scratch-projects__list">
        {scratch.data?.projects.map((p) => (
          <li key={p.projectKey}>
            <a href={projectHref(p.projectKey)}>{labels.get(p.projectKey) ?? p.name}</a>{' '}
            <Button variant="quiet" disabled={set.busy} onClick={() => change(p.projectKey, false)}>
              Write notes again
            </Button>
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <div className="scratch-projects__add">
          <label htmlFor={id}>Mark as scratch</label>
          <select id={id} className="select" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
            <option value="">Choose a project…</option>
            {others.map((p) => (
              <option key={p.projectKey} value={p.projectKey}>
                {labels.get(p.projectKey)}
              </option>
            ))}
          </select>
          <Button disabled={chosen === '' || set.busy} onClick={() => change(chosen, true)}>
            Mark as scratch
          </Button>
        </div>
      )}
      <ErrorBanner title="The project could not be changed." error={set.error} />
    </div>
  );
}
