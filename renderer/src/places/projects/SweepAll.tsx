import { useState, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Button, ErrorBanner } from '../../components/index.js';
import { useClient } from '../../hooks.js';

type Plan = Result<'Sweeper.PlanAll'>;
type Summary = Result<'Sweeper.RunAll'>;

const BOUNDARY: Record<Plan['dataBoundary'], string> = {
  local_process: 'Nothing leaves this computer',
  local_network: "Transcript text (redacted) goes to a model server on this computer's network",
  remote: 'Transcript text (redacted) goes to a remote model service',
  unknown: 'Where transcript text goes is not known',
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * "Sweep all projects now": history imported from disk is never curated on its own (it costs nothing
 * until asked); this is the asking. The count and the curator are named before anything runs.
 */
export function SweepAll({ onDone }: { onDone: () => void }): ReactElement {
  const client = useClient();
  const [plan, setPlan] = useState<Plan | undefined>();
  const [summary, setSummary] = useState<Summary | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();

  const fail = (e: unknown) => {
    setBusy(false);
    setError(e instanceof Error ? e : new Error('Steward did not answer.'));
  };

  const review = () => {
    if (!client) return;
    setBusy(true);
    setError(undefined);
    setSummary(undefined);
    client.call('Sweeper.PlanAll', {}).then((p) => {
      setBusy(false);
      setPlan(p);
    }, fail);
  };

  const run = () => {
    if (!client || !plan) return;
    setBusy(true);
    client.call('Sweeper.RunAll', { projects: plan.projects, curator: plan.curator }).then((s) => {
      setBusy(false);
      setPlan(undefined);
      setSummary(s);
      onDone();
    }, (e: unknown) => {
      setPlan(undefined);
      fail(e);
    });
  };

  const curator = plan ? `the ${plan.curator} curator${plan.model ? ` (${plan.model})` : ''}` : '';
  return (
    <div className="sweep-all" aria-busy={busy}>
      <p className="field__hint">
        Imported history is not curated on its own: notes are written after new turns. To write notes for every project that has activity
        not curated yet, sweep them all now.
      </p>
      {!plan && (
        <div className="sweep-all__actions">
          <Button disabled={busy || !client} onClick={review}>
            {busy ? 'Working…' : 'Sweep all projects now…'}
          </Button>
        </div>
      )}
      {plan && plan.projects === 0 && (
        <p role="status">
          No project has activity that is not curated yet; nothing to sweep.{' '}
          <Button variant="quiet" onClick={() => setPlan(undefined)}>
            Close
          </Button>
        </p>
      )}
      {plan && plan.projects > 0 && (
        <div className="sweep-all__confirm" role="group" aria-label="Sweep all projects">
          <p>
            <strong>
              Sweep {plural(plan.projects, 'project')} with {curator}?
            </strong>{' '}
            {BOUNDARY[plan.dataBoundary]}.
            {plan.maxModelCalls > 0 && ` At most ${plural(plan.maxModelCalls, 'model call')}; ${plan.budget.usedToday} of today's ${plan.budget.limit} are spent.`}
          </p>
          <div className="sweep-all__actions">
            <Button variant="primary" disabled={busy} onClick={run}>
              {busy ? 'Sweeping…' : `Sweep ${plural(plan.projects, 'project')}`}
            </Button>
            <Button disabled={busy} onClick={() => setPlan(undefined)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {summary && (
        <p role="status">
          Swept {plural(summary.projects, 'project')}: {summary.ok} updated, {summary.nochange} unchanged, {summary.skipped} skipped
          {summary.failed > 0 ? `, ${summary.failed} failed` : ''}
          {summary.paused > 0 ? `, ${summary.paused} paused` : ''}
          {summary.calls > 0 ? ` (${plural(summary.calls, 'model call')})` : ''}.
        </p>
      )}
      <ErrorBanner title="The projects could not be swept." error={error} />
    </div>
  );
}
