import type { ReactElement } from 'react';
import { Button, ErrorBanner } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { checkedSentence, type Check } from './held.js';

/** The check a view holds, or its own: the viewer passes its own in, to load the conversation again once it ran. */
export function useCheck(given?: Check): Check {
  const own = useAction('Sweep.Tick');
  return given ?? own;
}

/** Runs the check the next one would (Sweep.Tick, as `steward sweep`) now, with what it did said beside it. */
export function CheckNow({ check }: { check: Check }): ReactElement {
  return (
    <div className="check-now">
      <Button onClick={() => void check.run({})} disabled={check.busy}>
        {check.busy ? 'Checking…' : 'Check now'}
      </Button>
      <span role="status">{check.data && checkedSentence(check.data)}</span>
      <ErrorBanner title="The check did not complete." error={check.error} />
    </div>
  );
}
