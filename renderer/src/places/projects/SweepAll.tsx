import type { ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Button, countOf, ErrorBanner } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import './sweep-all.css';

type Plan = Result<'Sweeper.PlanAll'>;
type Summary = Result<'Sweeper.RunAll'>;

const BOUNDARY: Record<Plan['dataBoundary'], string> = {
  local_process: 'Nothing leaves this computer',
  local_network: "Transcript text (with secrets removed) goes to a model server on this computer's network",
  remote: 'Transcript text (with secrets removed) goes to a remote model service',
  unknown: 'Where transcript text goes is not known',
};

const CURATOR: Record<string, string> = { offline: 'the offline curator', anthropic: 'Anthropic', 'openai-compatible': 'the OpenAI-compatible curator' };

function summaryWords(s: Summary): string {
  const parts = [`${s.ok} updated`, `${s.nochange} unchanged`, `${s.skipped} skipped`, ...(s.failed > 0 ? [`${s.failed} failed`] : []), ...(s.paused > 0 ? [`${s.paused} paused`] : [])];
  return `Swept ${countOf(s.projects, 'project')}: ${parts.join(', ')}${s.calls > 0 ? ` (${countOf(s.calls, 'model call')})` : ''}.`;
}

/**
 * "Sweep all projects now": history imported from disk is never curated on its own (it costs nothing
 * until asked); this is the asking. The count and the curator are named before anything runs.
 */
export function SweepAll({ onDone }: { onDone: () => void }): ReactElement {
  const review = useAction('Sweeper.PlanAll');
  const run = useAction('Sweeper.RunAll');
  const plan = review.data;
  const busy = review.busy || run.busy;
  const go = () => plan && void run.run({ projects: plan.projects, curator: plan.curator }).then((s) => (review.reset(), s && onDone()));
  const curator = plan ? `${CURATOR[plan.curator] ?? plan.curator}${plan.model && plan.curator !== 'offline' ? ` (${plan.model})` : ''}` : '';
  return (
    <div className="sweep-all" aria-busy={busy}>
      <p className="field__hint">
        Imported history is not curated on its own: notes are written after new turns. To write notes for every project that has activity not curated yet, sweep them
        all now.
      </p>
      {!plan && (
        <div className="sweep-all__actions">
          <Button disabled={busy} onClick={() => (run.reset(), void review.run({}))}>
            {busy ? 'Working…' : 'Sweep all projects now…'}
          </Button>
        </div>
      )}
      {plan && plan.projects === 0 && (
        <p role="status">
          No project has activity that is not curated yet; nothing to sweep.{' '}
          <Button variant="quiet" onClick={review.reset}>
            Close
          </Button>
        </p>
      )}
      {plan && plan.projects > 0 && (
        <div className="sweep-all__confirm" role="group" aria-label="Sweep all projects">
          <p>
            <strong>
              Sweep {countOf(plan.projects, 'project')} with {curator}?
            </strong>{' '}
            {BOUNDARY[plan.dataBoundary]}.
            {plan.maxModelCalls > 0 && ` At most ${countOf(plan.maxModelCalls, 'model call')}; ${plan.budget.usedToday} of today's ${plan.budget.limit} are spent.`}
          </p>
          <div className="sweep-all__actions">
            <Button variant="primary" disabled={busy} onClick={go}>
              {run.busy ? 'Sweeping…' : `Sweep ${countOf(plan.projects, 'project')}`}
            </Button>
            <Button disabled={busy} onClick={review.reset}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {run.data && <p role="status">{summaryWords(run.data)}</p>}
      <ErrorBanner title="The projects could not be swept." error={review.error ?? run.error} />
    </div>
  );
}
