import { useEffect, useId, useRef, type ReactElement } from 'react';
import type { PruneReport } from '../../../../core/api/index.js';
import { Button } from '../../components/index.js';
import { removalQuestion } from './retention-words.js';
import './cache-retention.css';

/**
 * The question before a retention window that removes stored history is saved (Settings, and Home's
 * narrower window, with `note` on which agents it covers): what goes at the next start, counted by a dry run. Cancel takes the focus (Enter
 * never confirms by accident), and Escape or Cancel puts it away with nothing saved.
 */
export function ConfirmRemoval({
  days,
  report,
  busy,
  note,
  onConfirm,
  onCancel,
}: {
  days: number;
  report: PruneReport;
  busy: boolean;
  /** What the window covers, when not every agent (Home's narrower window): said with the question. */
  note?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}): ReactElement {
  const question = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      className="cache-retention__confirm"
      role="group"
      aria-labelledby={question}
      data-testid="retention-window-confirm"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onCancel();
      }}
    >
      <p id={question}>
        {removalQuestion(days, report)}
        {note ? ` ${note}` : ''}
      </p>
      <div className="cache-retention__actions">
        <Button variant="danger" disabled={busy} onClick={onConfirm}>
          Yes, save it and remove them at the next start
        </Button>
        <Button ref={cancel} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
