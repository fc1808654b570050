import type { ReactElement } from 'react';
import { Button, countOf, ErrorBanner } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { projectHref } from '../../navigation.js';
import { sweepBlockedWords, sweptProblems, sweptSummaryWords, type SweepPlan, type SweepSummary } from './sweep-all-words.js';
import './sweep-all.css';

const BOUNDARY: Record<SweepPlan['dataBoundary'], string> = {
  local_process: 'Nothing leaves this computer',
  local_network: "Transcript text (with secrets removed) goes to a model server on this computer's network",
  remote: 'Transcript text (with secrets removed) goes to a remote model service',
  unknown: 'Where transcript text goes is not known',
};

const CURATOR: Record<string, string> = { offline: 'the offline curator', anthropic: 'Anthropic', 'openai-compatible': 'the OpenAI-compatible curator' };

/** What a sweep of all did, where the person asked for it: the count, then each project that did not update, by name, with why. */
function SweptResult({ summary }: { summary: SweepSummary }): ReactElement {
  const problems = sweptProblems(summary);
  return (
    <div className="sweep-all__result" role="status">
      <p>{sweptSummaryWords(summary)}</p>
      {problems.length > 0 && (
        <ul className="sweep-all__problems">
          {problems.map((p) => (
            <li key={p.projectKey}>
              <a href={projectHref(p.projectKey)}>{p.name}</a> {p.outcome}
              {p.why && `: ${p.why}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
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
  const blocked = plan ? sweepBlockedWords(plan) : null;
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
      {plan && blocked !== null && (
        <p role="status">
          {blocked}{' '}
          <Button variant="quiet" onClick={review.reset}>
            Close
          </Button>
        </p>
      )}
      {plan && blocked === null && plan.projects === 0 && (
        <p role="status">
          No project has activity that is not curated yet; nothing to sweep.{' '}
          <Button variant="quiet" onClick={review.reset}>
            Close
          </Button>
        </p>
      )}
      {plan && blocked === null && plan.projects > 0 && (
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
      {run.data && <SweptResult summary={run.data} />}
      <ErrorBanner title="The projects could not be swept." error={review.error ?? run.error} />
    </div>
  );
}
