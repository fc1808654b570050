import type { TelemetryEntry } from '../../../../core/api/index.js';
import { failuresOf } from '../../../../core/api/import-words.js';
import { countOf, formatCount, formatDuration, listOf, skippedLines, type NounForms } from '../../components/index.js';
import { foundNothingNew, tickOf, totalsOf, type Tick } from './ticks.js';

const PARTS = { one: 'part', other: 'parts' };
const CURATOR: Record<string, string> = { offline: 'the offline curator', anthropic: 'Anthropic', 'openai-compatible': 'an OpenAI-compatible model' };

/** What one row is, in words. */
export const KIND_WORDS: Record<string, string> = {
  'sweep.tick': 'Scheduled check',
  'backfill.run': 'Import on request',
  'sweeper.sweep': 'Project notes',
  'cache.prune': 'Clean-up',
};

/**
 * What one row is, in words: a check someone asked for (Check now, Import now, `steward sweep`) is a
 * check on request, not a scheduled one (its row's `trigger`).
 */
export function whatOf(entry: TelemetryEntry): string {
  if (tickOf(entry)?.byHand) return 'Check on request';
  return KIND_WORDS[entry.kind] ?? entry.kind;
}

/** The kinds a person can filter by, as a filter names them; checks, scheduled and on request alike, are one kind of row. */
export const KIND_FILTERS: Record<string, string> = {
  'sweep.tick': 'Checks',
  'backfill.run': 'Imports on request',
  'sweeper.sweep': 'Project notes',
  'cache.prune': 'Clean-ups',
};

/** A row of each kind as a count names it: `2 checks`, `1 notes run`. */
const ROW_NOUNS: Record<string, NounForms> = {
  'sweep.tick': { one: 'check', other: 'checks' },
  'backfill.run': { one: 'import on request', other: 'imports on request' },
  'sweeper.sweep': { one: 'notes run', other: 'notes runs' },
  'cache.prune': { one: 'clean-up', other: 'clean-ups' },
};

/**
 * Whether the row records something that went wrong. A file already known unreadable, not opened
 * again, is not a new failure: it is the warning `warned` tells of.
 */
export function failed(entry: TelemetryEntry): boolean {
  const tick = tickOf(entry);
  if (tick) return failuresOf(tick.providers).level === 'failed';
  return entry.data.outcome === 'failed' || entry.data.outcome === 'paused' || entry.data.complete === false;
}

/** Whether a check's only trouble is files already known unreadable (the status's amber warning, not a failure). */
export function warned(entry: TelemetryEntry): boolean {
  const tick = tickOf(entry);
  return tick !== undefined && failuresOf(tick.providers).level === 'warning';
}

function tickSentence(entry: TelemetryEntry): string | undefined {
  const tick = tickOf(entry);
  if (!tick) return undefined;
  const t = totalsOf(tick);
  const took = formatDuration(t.durationMs);
  // Files read, said as read: the result does not count which of them held the new messages (one may hold all).
  const written = t.messages !== undefined ? countOf(t.messages, { one: 'new message', other: 'new messages' }) : countOf(t.parts, PARTS);
  const what = foundNothingNew(tick) ? 'nothing new' : `${written}; ${countOf(t.read, 'file')} read`;
  const fresh = t.failed - t.stillUnreadable;
  const failures = fresh > 0 ? `; ${countOf(fresh, 'file')} could not be read` : '';
  const known = t.stillUnreadable > 0 ? `; ${countOf(t.stillUnreadable, 'file')} still unreadable, not read again until ${t.stillUnreadable === 1 ? 'it changes' : 'they change'}` : '';
  const outside = t.outsideWindow > 0 ? `; ${formatCount(t.outsideWindow)} older than the window, not read` : '';
  const skipped = skippedLines(tick.providers);
  const lead = tick.kind === 'scheduled' ? 'Checked' : 'Imported on request: checked';
  // A cancelled run says how far it got, never as if it had checked every file.
  const files = t.notReached === undefined ? `${lead} ${countOf(t.files, 'file')}` : `${tick.kind === 'scheduled' ? 'Check' : 'Import on request'} cancelled after ${formatCount(t.files - t.notReached)} of ${countOf(t.files, 'file')}`;
  return `${files}, ${what}${outside}${failures}${known}${skipped ? `; ${skipped}` : ''}, ${took}`;
}

function notesSentence(data: Record<string, unknown>, projectName: (key: string) => string | undefined): string {
  const project = typeof data.projectKey === 'string' ? (projectName(data.projectKey) ?? 'a project no longer listed') : 'a project';
  const by = CURATOR[String(data.mode)] ?? String(data.mode);
  const took = typeof data.durationMs === 'number' ? `, ${formatDuration(data.durationMs)}` : '';
  const calls = typeof data.calls === 'number' && data.calls > 0 ? `; ${countOf(data.calls, 'model call')}, ${countOf(Number(data.tokensIn ?? 0), 'token')} sent` : '';
  if (data.outcome === 'ok') return `Notes of ${project} updated by ${by}${calls}${took}`;
  if (data.outcome === 'nochange') return `Notes of ${project} checked by ${by}: nothing to change${calls}${took}`;
  const why = typeof data.failure === 'string' ? ` (${data.failure.replace(/_/g, ' ')})` : '';
  return `Notes of ${project} ${data.outcome === 'paused' ? 'paused' : 'failed'} with ${by}${why}${calls}${took}`;
}

/** A clean-up in messages and whole conversations; one recorded before it counted them, in parts and emptied sessions. */
function pruneSentence(data: Record<string, unknown>): string {
  const who = data.kind === 'manual' ? 'on request' : 'on schedule';
  const removed =
    typeof data.removedMessages === 'number'
      ? `${countOf(data.removedMessages, 'message')} and ${countOf(Number(data.removedConversations ?? 0), 'whole conversation')}`
      : `${countOf(Number(data.removedParts ?? 0), PARTS)} and ${countOf(Number(data.removedSessions ?? 0), 'conversation')}`;
  return `Retention window applied ${who}: removed ${removed}${data.complete === false ? ', stopped early' : ''}, ${formatDuration(Number(data.durationMs ?? 0))}`;
}

/** Counts and durations only (never content or paths), so an unknown kind's compact line is safe to show. */
function fallback(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([, value]) => typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(' · ');
}

/**
 * The scheduled checks listed, and how many found something: `3 checks, 1 with nothing new`; a count
 * of none is not said (`1 check, which found something new`), and no checks is `None`.
 */
export function checksTotal(checks: number, unchanged: number): string {
  if (checks === 0) return 'None';
  const listed = countOf(checks, 'check');
  if (unchanged === 0) return checks === 1 ? `${listed}, which found something new` : `${listed}, each found something new`;
  if (unchanged === checks) return checks === 1 ? `${listed}, which found nothing new` : `${listed}, none found anything new`;
  return `${listed}, ${formatCount(unchanged)} with nothing new`;
}

/** The scheduled checks listed (not those by hand), judged as each row's sentence judges them (`foundNothingNew`). */
export function scheduledTotal(entries: readonly TelemetryEntry[]): string {
  const scheduled = entries.map(tickOf).filter((t): t is Tick => t !== undefined && t.kind === 'scheduled' && !t.byHand);
  return checksTotal(scheduled.length, scheduled.filter(foundNothingNew).length);
}

/** The rows that record a failure, by what they are: `None`, `5 checks`, `2 checks and 1 notes run`. */
export function failuresTotal(entries: readonly TelemetryEntry[]): string {
  const byKind = new Map<string, number>();
  for (const entry of entries.filter(failed)) byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + 1);
  if (byKind.size === 0) return 'None';
  return listOf([...byKind].map(([kind, n]) => countOf(n, ROW_NOUNS[kind] ?? { one: 'other entry', other: 'other entries' })));
}

/** The checks whose only trouble was files already known unreadable: `3 checks met a file still unreadable`; undefined when none did. */
export function warningsTotal(entries: readonly TelemetryEntry[]): string | undefined {
  const ticks = entries.filter(warned).map(tickOf).filter((t): t is Tick => t !== undefined);
  if (ticks.length === 0) return undefined;
  const most = Math.max(...ticks.map((t) => totalsOf(t).stillUnreadable));
  return `${countOf(ticks.length, 'check')} met ${most === 1 ? 'a file' : 'files'} still unreadable`;
}

/** A telemetry row as a sentence, with the project's name where it is about one. */
export function sentenceOf(entry: TelemetryEntry, projectName: (key: string) => string | undefined): string {
  if (entry.kind === 'sweeper.sweep') return notesSentence(entry.data, projectName);
  if (entry.kind === 'cache.prune') return pruneSentence(entry.data);
  return tickSentence(entry) ?? fallback(entry.data);
}

/**
 * Whether any row says "parts" (a clean-up, or a check recorded before messages were counted): only
 * then does the page explain the word, so a person whose rows all count messages never meets it.
 */
export function speaksOfParts(entries: readonly TelemetryEntry[], projectName: (key: string) => string | undefined): boolean {
  return entries.some((entry) => /\bparts?\b/.test(sentenceOf(entry, projectName)));
}
