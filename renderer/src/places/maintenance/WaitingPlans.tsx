import type { ReactElement } from 'react';
import type { WaitingPlan } from '../../../../core/api/index.js';
import { Button, ErrorBanner, formatRelativeTime, Panel } from '../../components/index.js';
import { useAction } from '../../hooks.js';

/** Plans agents asked for that only a person may confirm: review (the same form and plan) or dismiss. */
export function WaitingPlans({ waiting, onReview, onDismissed }: { waiting: readonly WaitingPlan[]; onReview: (w: WaitingPlan) => void; onDismissed: () => void }): ReactElement | null {
  const dismiss = useAction('Maintenance.Dismiss');
  if (waiting.length === 0) return null;
  return (
    <Panel title="Waiting for your confirmation">
      <ul className="maintenance-waiting">
        {waiting.map((w) => (
          <li key={w.waitingId} data-testid="waiting-plan">
            <p>
              An agent asked Steward to maintain <strong>{w.repo}</strong> {formatRelativeTime(w.askedAt)}. Only you can confirm: {w.needs.join(' ')}
            </p>
            <span className="maintenance-actions">
              <Button variant="primary" onClick={() => onReview(w)}>
                Review the plan
              </Button>
              <Button variant="quiet" disabled={dismiss.busy} onClick={() => void dismiss.run({ waitingId: w.waitingId }).then(onDismissed)}>
                Dismiss
              </Button>
            </span>
          </li>
        ))}
      </ul>
      <ErrorBanner title="The plan could not be dismissed." error={dismiss.error} />
    </Panel>
  );
}

