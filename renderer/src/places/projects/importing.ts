import { useEffect, useRef, useState, type RefObject } from 'react';
import type { EventPayload, Params, Result } from '../../../../core/api/index.js';
import { countOf, formatCount, formatDuration, skippedLines } from '../../components/index.js';
import { useAction, useEvent } from '../../hooks.js';
import { placeHref } from '../../navigation.js';

/** The section of Projects where earlier history is imported: its panel's id, and the address that lands on it. */
export const IMPORT_SECTION = 'import-history';
export const IMPORT_HREF = placeHref('projects', IMPORT_SECTION);

type Progress = EventPayload<'backfill.progress'>;
type Outcome = Result<'Backfill.Run'>;

/** " 1,204 lines held no conversation: 1,190 bookkeeping, 14 unreadable." — or nothing when every line did. */
function skippedSentence(outcome: Outcome): string {
  const skipped = skippedLines(outcome.providers);
  return skipped ? ` ${skipped}.` : '';
}

const sum = (outcome: Outcome, pick: (p: Outcome['providers'][number]) => number) => outcome.providers.reduce((n, p) => n + pick(p), 0);

/** "Cancelled after 30 of 60 files; what was imported before stays." — from the result, which knows how far the run got. */
function cancelledSentence(outcome: Outcome): string {
  if (!outcome.providers.some((p) => p.cancelled)) return '';
  const listed = sum(outcome, (p) => p.discovered);
  if (listed === 0) return 'Cancelled before any file was listed. ';
  const done = listed - sum(outcome, (p) => p.notReached ?? 0);
  return `Cancelled after ${formatCount(done)} of ${countOf(listed, 'file')}; what was imported before stays. `;
}

/** " 3 files older than the window were not read." — never counted as up to date. */
function outsideSentence(outcome: Outcome): string {
  const outside = sum(outcome, (p) => p.outsideWindow ?? 0);
  return outside > 0 ? ` ${countOf(outside, 'file')} older than the window ${outside === 1 ? 'was' : 'were'} not read.` : '';
}

/**
 * An import's result in words: how far a cancelled one got, the messages it added, or that everything
 * was already there (with how many files were checked, so "nothing" reads as done rather than as a
 * failure); files outside the window and failed ones are said apart.
 */
export function importSentence(outcome: Outcome): string {
  const cancelled = cancelledSentence(outcome);
  const checked = sum(outcome, (p) => p.discovered - (p.outsideWindow ?? 0) - (p.notReached ?? 0));
  const read = sum(outcome, (p) => p.read);
  const messages = sum(outcome, (p) => p.messagesWritten ?? 0);
  const parts = sum(outcome, (p) => p.partsWritten);
  const failed = sum(outcome, (p) => p.failed);
  const upToDate = cancelled || checked === 0 ? 'Nothing new.' : `Already up to date — ${countOf(checked, 'file')} checked.`;
  // Files read, said as read (Telemetry's rule): the result does not count which of them held the new messages.
  const body = parts === 0 ? upToDate : `Imported ${countOf(messages, { one: 'new message', other: 'new messages' })}; ${countOf(read, 'file')} read.`;
  const failures = failed > 0 ? ` ${countOf(failed, 'file')} could not be read; Telemetry says why.` : '';
  return `${cancelled}${body}${outsideSentence(outcome)}${skippedSentence(outcome)}${failures}`;
}

/**
 * Whether all there is has been imported, by Home's rule for offering Import everything: no file older
 * than the window left unread, no older message left out of the newer files, none whose older messages
 * were not counted. (Unforget drops its files' checkpoints, so what it lifted counts as left again.)
 */
export function allImported(survey: Result<'Providers.Survey'>): boolean {
  return survey.providers.length > 0 && survey.providers.every((s) => s.older.files <= s.older.imported.files && s.olderMessages === 0 && s.olderUncounted === 0);
}

/** How far back an import on request reaches, in days (0: everything). */
export const IMPORT_SPANS = [
  { id: '30d', label: 'Last 30 days', days: 30 },
  { id: '1y', label: 'Last year', days: 365 },
  { id: 'all', label: 'Everything', days: 0 },
] as const;

/**
 * The reaches an import on request offers (`days` back, 0: everything), the first chosen until the
 * person picks another. The scheduled checks already import each agent's window (`windows`, 0:
 * everything): a reach no wider than the narrowest of them reads only files read already and imports
 * nothing, so only wider ones are offered, and Everything always (an import of everything reads every
 * file again). Before the windows are known, every reach.
 */
export function offeredSpans<S extends { days: number }>(spans: readonly S[], windows: readonly number[] | undefined): S[] {
  if (windows === undefined || windows.length === 0) return [...spans];
  const reach = (days: number) => (days === 0 ? Number.POSITIVE_INFINITY : days);
  const narrowest = Math.min(...windows.map(reach));
  return spans.filter((s) => s.days === 0 || reach(s.days) > narrowest);
}

export interface ImportState {
  start: (params: Params<'Backfill.Run'>, expectedFiles?: number) => void;
  cancel: () => void;
  running: boolean;
  cancelling: boolean;
  /** Files done and expected so far across providers, when any progress arrived. */
  done: number;
  total: number;
  /** Time left at the pace measured so far; undefined until there is enough to measure it (timeLeftMs). */
  remainingMs: number | undefined;
  perProvider: Progress[];
  result: Outcome | undefined;
  error: Error | undefined;
}

/** How far an import had got at a moment: when (ms), and its files done (a file counts once its read begins). */
export interface ProgressMark {
  at: number;
  done: number;
}

/**
 * The least reading a pace is measured on: a second of it, and a few files (one file's size says
 * nothing of the next one's). An import shorter than that ends before it would say any time left.
 */
const PACE_MIN_MS = 1_000;
const PACE_MIN_FILES = 3;

/**
 * The time an import has left, at the pace it read between its first progress event (`first`) and its
 * latest: undefined until that is enough to measure (PACE_MIN_*), and once every file is under way.
 * Not from the click: the first event comes only once the folders are listed, and with its file counted
 * as done when the read begins; the time before it, spread over the files left, said "about 8 s left"
 * for an import of 0.6 s.
 */
export function timeLeftMs(first: ProgressMark, latest: ProgressMark, total: number): number | undefined {
  const files = latest.done - first.done;
  const ms = latest.at - first.at;
  if (total <= latest.done || files < PACE_MIN_FILES || ms < PACE_MIN_MS) return undefined;
  return (ms / files) * (total - latest.done);
}

/** One import (`Backfill.Run`) with its progress events summed into a bar and a time left. */
export function useImport(onDone?: () => void): ImportState {
  const run = useAction('Backfill.Run');
  const cancelAction = useAction('Backfill.Cancel');
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  const [expected, setExpected] = useState(0);
  // The first progress event's mark, and when the latest came: the pace is measured between them.
  const [paced, setPaced] = useState<{ first: ProgressMark; lastAt: number }>();
  const [cancelling, setCancelling] = useState(false);
  useEvent('backfill.progress', (p) => {
    if (!run.busy) return;
    const at = Date.now();
    setProgress((previous) => ({ ...previous, [p.provider]: p }));
    setPaced((previous) => ({ first: previous?.first ?? { at, done: p.filesDone }, lastAt: at }));
  });
  const perProvider = Object.values(progress);
  const done = perProvider.reduce((n, p) => n + p.filesDone, 0);
  const total = Math.max(expected, perProvider.reduce((n, p) => n + p.filesTotal, 0));
  const remainingMs = run.busy && paced ? timeLeftMs(paced.first, { at: paced.lastAt, done }, total) : undefined;
  return {
    start: (params, expectedFiles = 0) => {
      setProgress({});
      setExpected(expectedFiles);
      setPaced(undefined);
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

/** "about 2 min 10 s left", or nothing while no pace is measured yet. */
export function remainingWords(ms: number | undefined): string {
  return ms === undefined ? '' : `about ${formatDuration(ms)} left`;
}

/**
 * The button that starts an import is disabled while it runs, and Cancel (disabled while cancelling) is gone
 * once it ends: either drops the focus to the page's top. A keyboard user lands on Cancel when the
 * import starts and on its result when it ends, never lost; a focus the person moved elsewhere stays.
 */
export function useImportFocus(running: boolean): { submit: RefObject<HTMLButtonElement | null>; cancel: RefObject<HTMLButtonElement | null>; result: RefObject<HTMLParagraphElement | null> } {
  const submit = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const result = useRef<HTMLParagraphElement>(null);
  const ran = useRef(running);
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (running && (lost || document.activeElement === submit.current)) cancel.current?.focus();
    else if (!running && ran.current && (lost || document.activeElement === cancel.current)) (result.current ?? submit.current)?.focus();
    ran.current = running;
  }, [running]);
  return { submit, cancel, result };
}
