import { useState, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { FORCEABLE_SKIPS, sweepRunWords } from '../../../../core/api/sweeper-words.js';
import { Button, formatDateTime, plainText } from '../../components/index.js';
import { useAction, useEvent } from '../../hooks.js';

type Project = Result<'Projects.Get'>;
type Run = Result<'Sweeper.Run'>;

/** The words are the contract's (core/api/sweeper-words.ts, the CLI's skip words too); a backoff says when it ends, from the project's state. */
function said(run: Run, project: Project): string {
  const until = project.state.nextAttemptAt;
  return sweepRunWords(run, until !== null && until > Date.now() ? formatDateTime(until) : null);
}

/** Sweep now, with what it did said right beside the button; a skip that can be overridden offers Sweep anyway. */
export function SweepNow({ project, onSwept }: { project: Project; onSwept: () => void }): ReactElement {
  const sweep = useAction('Sweeper.Run');
  // A sweep the owner started on its own (after new turns) shows here too.
  const [running, setRunning] = useState(false);
  useEvent('sweeper.started', (e) => e.projectKey === project.projectKey && setRunning(true));
  useEvent('sweeper.finished', (e) => e.projectKey === project.projectKey && setRunning(false));
  useEvent('sweeper.failed', (e) => e.projectKey === project.projectKey && setRunning(false));
  const go = (force: boolean) => void sweep.run({ projectKey: project.projectKey, force }).finally(onSwept);
  const result = sweep.data;
  const canForce = (result?.outcome === 'skipped' && FORCEABLE_SKIPS.includes(result.reason ?? '')) || sweep.error?.code === 'curator_paused';
  const busy = sweep.busy || running;
  return (
    <div className="sweep-now" aria-busy={busy}>
      <Button variant="primary" disabled={busy || project.state.scratch || project.ignored} onClick={() => go(false)}>
        {busy ? 'Sweeping…' : 'Sweep now'}
      </Button>
      <span className="sweep-now__result" role="status" data-testid="sweep-result">
        {!busy && result && said(result, project)}
        {!busy && sweep.error && <span className="sweep-now__error">The sweep did not complete; nothing was written. {plainText(sweep.error.message)}</span>}
      </span>
      {!busy && canForce && (
        <Button variant="quiet" onClick={() => go(true)}>
          Sweep anyway
        </Button>
      )}
    </div>
  );
}
