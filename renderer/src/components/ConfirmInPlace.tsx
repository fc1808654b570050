import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Button } from './Button.js';
import { ErrorBanner } from './ErrorBanner.js';
import './confirm-in-place.css';

export interface ConfirmInPlaceProps {
  /** The button that asks: "Forget…". */
  ask: string;
  /** Names the question's group for assistive technology. */
  label: string;
  /** What will happen, in a sentence. */
  question: ReactNode;
  /** An option the action takes, asked with it (a checkbox), on a line of its own below the question. */
  choice?: ReactNode;
  /** The button that does it: "Yes, forget it". */
  confirm: string;
  busy: boolean;
  error: Error | undefined;
  /** Shown above the error when the action failed. */
  failed: string;
  onConfirm: () => void;
  /** While busy: how far the action has come ("Forgetting… 1,200 of 30,000 conversations"), where the person looks. */
  working?: string | undefined;
  testId?: string;
}

/**
 * A destructive action asks first, in place, where the person clicked: the question, the action and
 * Cancel (which takes the focus, so Enter never confirms by accident), and the failure, if any, below.
 * Cancel or Escape puts the question away and gives the focus back to the button that asked.
 */
export function ConfirmInPlace({ ask, label, question, choice, confirm, busy, error, failed, onConfirm, working, testId }: ConfirmInPlaceProps): ReactElement {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const asker = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asking) cancel.current?.focus();
    // Only after a question was put away: a view that merely shows the button leaves the focus alone.
    else if (asked.current) asker.current?.focus();
    asked.current = asking;
  }, [asking]);
  if (!asking)
    return (
      <Button ref={asker} variant="danger" onClick={() => setAsking(true)}>
        {ask}
      </Button>
    );
  return (
    <div
      className="confirm-in-place"
      role="group"
      aria-label={label}
      data-testid={testId}
      data-asking=""
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        setAsking(false);
      }}
    >
      <p>{question}</p>
      {choice}
      <Button variant="danger" disabled={busy} onClick={onConfirm}>
        {confirm}
      </Button>
      <Button ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </Button>
      {busy && working !== undefined && <p role="status">{working}</p>}
      <ErrorBanner title={failed} error={error} />
    </div>
  );
}
