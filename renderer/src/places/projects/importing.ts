import { useState } from 'react';
import type { EventPayload, Params, Result } from '../../../../core/api/index.js';
import { countOf, formatDuration, skippedLines } from '../../components/index.js';
import { useAction, useEvent } from '../../hooks.js';

type Progress = EventPayload<'backfill.progress'>;
type Outcome = Result<'Backfill.Run'>;

/** " 1,204 lines held no conversation: 1,190 bookkeeping, 14 unreadable." — or nothing when every line did. */
function skippedSentence(outcome: Outcome): string {
  const skipped = skippedLines(outcome.providers);
  return skipped ? ` ${skipped}.` : '';
}

const sum = (outcome: Outcome, pick: (p: Outcome['providers'][number]) => number) => outcome.providers.reduce((n, p) => n + pick(p), 0);

/**
 * An import's result in words: the messages it added, or that everything was already there (with
 * how many files were checked, so "nothing" reads as done rather than as a failure).
 */
export function importSentence(outcome: Outcome, cancelled = false): string {
  const checked = sum(outcome, (p) => p.discovered);
  const read = sum(outcome, (p) => p.read);
  const messages = sum(outcome, (p) => p.messagesWritten ?? 0);
  const parts = sum(outcome, (p) => p.partsWritten);
  const failed = sum(outcome, (p) => p.failed);
  const head = cancelled ? 'Cancelled; what was imported before stays. ' : '';
  const body =
    parts === 0
      ? `Already up to date — ${countOf(checked, 'file')} checked.`
      : `Imported ${countOf(messages, { one: 'new message', other: 'new messages' })} from ${countOf(read, 'file')}.`;
  const failures = failed > 0 ? ` ${countOf(failed, 'file')} could not be read; Telemetry says why.` : '';
  return `${head}${body}${skippedSentence(outcome)}${failures}`;
}

export interface ImportState {
  start: (params: Params<'Backfill.Run'>, expectedFiles?: number) => void;
  cancel: () => void;
  running: boolean;
  cancelling: boolean;
  /** Files done and expected so far across providers, when any progress arrived. */
  done: number;
  total: number;
  /** Time left at the pace so far; undefined until there is a pace. */
  remainingMs: number | undefined;
  perProvider: Progress[];
  result: Outcome | undefined;
  error: Error | undefined;
}

/** One import (`Backfill.Run`) with its progress events summed into a bar and a time left. */
export function useImport(onDone?: () => void): ImportState {
  const run = useAction('Backfill.Run');
  const cancelAction = useAction('Backfill.Cancel');
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  const [expected, setExpected] = useState(0);
  const [startedAt, setStartedAt] = useState(0);
  const [cancelling, setCancelling] = useState(false);
  useEvent('backfill.progress', (p) => {
    if (run.busy) setProgress((previous) => ({ ...previous, [p.provider]: p }));
  });
  const perProvider = Object.values(progress);
  const done = perProvider.reduce((n, p) => n + p.filesDone, 0);
  const total = Math.max(expected, perProvider.reduce((n, p) => n + p.filesTotal, 0));
  const elapsed = Date.now() - startedAt;
  const remainingMs = run.busy && done > 0 && total > done ? (elapsed / done) * (total - done) : undefined;
  return {
    start: (params, expectedFiles = 0) => {
      setProgress({});
      setExpected(expectedFiles);
      setStartedAt(Date.now());
      setCancelling(false);
      void run.run(params).then((outcome) => outcome && onDone?.());
    },
    cancel: () => {
      setCancelling(true);
      void cancelAction.run({});
    },
    running: run.busy,
    cancelling,
    done,
    total,
    remainingMs,
    perProvider,
    result: run.data,
    error: run.error ?? cancelAction.error,
  };
}

/** "about 2 min 10 s left", or nothing when there is no pace yet. */
export function remainingWords(ms: number | undefined): string {
  return ms === undefined ? '' : `about ${formatDuration(ms)} left`;
}
