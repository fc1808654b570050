import type { Result } from '../../../../core/api/index.js';
import { countOf, formatBytes, formatDate, listOf, providerLabel } from '../../components/index.js';

type Survey = Result<'Providers.Survey'>;

/** "the last year", "the last 90 days", or all of it when no window is set (0 days). */
export function spanWords(days: number): string {
  if (days === 0) return 'all of their history';
  return days === 365 ? 'the last year' : `the last ${countOf(days, 'day')}`;
}

type Agent = Survey['providers'][number];

/** The agents by a number each has (its window, its clean-up's), in the survey's order: "90 for Claude and Gemini". */
function byDays(agents: readonly Agent[], days: (agent: Agent) => number, words: (days: number) => string): string {
  const groups = new Map<number, string[]>();
  for (const a of agents) groups.set(days(a), [...(groups.get(days(a)) ?? []), providerLabel(a.provider)]);
  return listOf([...groups].map(([d, labels]) => `${words(d)} for ${listOf(labels)}`));
}

/**
 * How far back the scheduled import reaches, from the listing: one span when every agent shares it,
 * else each span with its agents ("the last 90 days for Claude and the last year for Codex CLI and Gemini").
 */
export function windowWords(survey: Survey): string | undefined {
  const spans = new Set(survey.providers.map((p) => p.windowDays));
  if (spans.size === 0) return undefined;
  if (spans.size === 1) return spanWords(survey.providers[0]!.windowDays);
  return byDays(survey.providers, (p) => p.windowDays, spanWords);
}

/** Where an agent's own window is set: there is no control for it in the panel. */
const ownKey = (agent: Agent) => `providers.${agent.provider}.backfill.window_days`;

/** Agents that keep their own window, whatever the cache retention says: "Claude keeps the last 90 days (its own window, … in config.json)". */
function ownWords(own: readonly Agent[]): string {
  const kept = listOf(own.map((a) => `${providerLabel(a.provider)} keeps ${spanWords(a.windowDays)}`));
  return `${kept} (${own.length === 1 ? 'its own window' : 'their own windows'}, ${listOf(own.map(ownKey))} in config.json)`;
}

/**
 * Which agents a narrower cache retention (Home's "Only the last 30 days") reaches, and which keep
 * their own window: an agent's own `backfill.window_days` wins over the cache retention.
 */
export function narrowerScope(survey: Survey): { follow: Agent[]; own: Agent[]; window: number | undefined } {
  const follow = survey.providers.filter((p) => p.windowFrom !== 'agent');
  return { follow, own: survey.providers.filter((p) => p.windowFrom === 'agent'), window: follow[0]?.windowDays };
}

/** The narrower windows worth offering: those narrower than the window of the agents a saved retention reaches (none when every agent has its own). */
export function narrowerChoices<D extends number>(survey: Survey, choices: readonly D[]): D[] {
  const { follow, window } = narrowerScope(survey);
  if (follow.length === 0 || window === undefined) return [];
  return choices.filter((days) => window === 0 || days < window);
}

/** A narrower window's choice: for every agent, or for those it reaches, naming who keeps their own window and where that is set. */
export function narrowerWords(days: number, survey: Survey): string {
  const { follow, own } = narrowerScope(survey);
  const removed = 'from the next start (older conversations are then removed from Steward, never from your agents\u2019 folders)';
  if (own.length === 0) return `Only the last ${days} days, ${removed}`;
  return `Only the last ${days} days for ${listOf(follow.map((p) => providerLabel(p.provider)))}, ${removed}; ${ownWords(own)}`;
}

/**
 * What saving a narrower window covers, said with its question (whose counts include what the agents'
 * own windows remove at the same start) and once it is saved; undefined when it covers every agent.
 */
export function narrowerNote(survey: Survey): string | undefined {
  const { follow, own } = narrowerScope(survey);
  if (own.length === 0) return undefined;
  return `The window is for ${listOf(follow.map((p) => providerLabel(p.provider)))}; ${ownWords(own)}, and the count includes what is older than that.`;
}

/** The sentence once a narrower window is saved. */
export function narrowerSaved(days: number, survey: Survey): string {
  const { follow, own } = narrowerScope(survey);
  if (own.length === 0) return `Saved: from the next start Steward keeps the last ${days} days.`;
  return `Saved: from the next start Steward keeps the last ${days} days for ${listOf(follow.map((p) => providerLabel(p.provider)))}; ${ownWords(own)}.`;
}

/**
 * What the automatic clean-up removes again of what importing everything brings in: the agents with a
 * window written in config.json (their own, or the cache retention), and where it is set; undefined
 * when the clean-up removes nothing.
 */
export function cleanUpWords(survey: Survey): string | undefined {
  const kept = survey.providers.filter((p) => p.cleanUpDays > 0);
  if (kept.length === 0) return undefined;
  const own = kept.filter((p) => p.windowFrom === 'agent');
  const where = [...(own.length > 0 ? [`${listOf(own.map(ownKey))} in config.json`] : []), ...(own.length < kept.length ? ['the retention window in Settings'] : [])];
  const all = kept.length === survey.providers.length && new Set(kept.map((p) => p.cleanUpDays)).size === 1;
  const older = all ? `older than ${countOf(kept[0]!.cleanUpDays, 'day')}` : `older than ${byDays(kept, (p) => p.cleanUpDays, (d) => countOf(d, 'day'))}`;
  return `the clean-up removes again what is ${older} (set by ${listOf(where)})`;
}

/** Files that could not be read: what they hold is not imported, whatever else is. */
function unreadableWords(files: number): string {
  return `${countOf(files, 'transcript file')} could not be read, so what ${files === 1 ? 'it holds is' : 'they hold is'} not imported (see Needs you)`;
}

/**
 * Why a count of older messages is "up to": it counts each file's lines, and the same message may be
 * in several files, so importing everything may write fewer.
 */
const COPIES = 'a message copied into several files, as a resumed conversation carries the one it resumed, counts in each';

/** Files whose older messages were not counted (Providers.Survey's `olderUncounted`), and what brings them in. */
export function uncountedWords(files: number): string {
  return `Steward has not counted the older messages of ${countOf(files, 'file')} yet (imported before it kept that count, by a narrower import, or removed by a clean-up since); importing everything brings in any there are`;
}

const DAY_MS = 86_400_000;

/**
 * The oldest message Steward holds that is older than its agent's window (`stored.oldestAt` against
 * `windowDays` back from `now`), or undefined when none is. The survey reads no transcript byte: the
 * files' times cannot show an old message in a file changed since, but the stored messages' own dates
 * (one query of the cache) can, for what was imported.
 */
export function storedOlderAt(survey: Survey, now: number): number | undefined {
  const older = survey.providers.filter((p) => p.windowDays > 0 && p.stored !== undefined && p.stored.oldestAt < now - p.windowDays * DAY_MS).map((p) => p.stored!.oldestAt);
  return older.length === 0 ? undefined : Math.min(...older);
}

/** Why new files may hold old messages: said wherever only the files' times were measured. */
const BY_DATE = "the window goes by each message's own date, not its file's";

/**
 * The "Everything" choice: what importing the rest would read and how long it may take, or, when no
 * file older than the window is left to import, that there is nothing more (never "the 0 older
 * files"). `olderFiles` counts only those not imported yet; `imported`, those an import of everything
 * already read whole (Providers.Survey's `older.imported`) and whose messages stay, which are never
 * offered again. `olderMessages`: up to how many messages the import left out as older than the window
 * from files changed within it (a copy that did not keep file times); `uncounted`: files whose older
 * messages were not counted. While there are any of either, all there is may not have been imported.
 * `gaps`: files that could not be read (`unreadable`), older files read whole whose messages the
 * clean-up removes (`readOnce`), and what the clean-up removes again (`cleanUp`, from cleanUpWords):
 * with any, all there is is not in Steward either. `storedBefore`: the oldest message Steward holds
 * older than the window (storedOlderAt), said when no file is, so "nothing is older" is never said of
 * what only the files' times were measured for. `reads`: every file the import reads (Backfill.Run with `all`
 * reads every file of every agent watched, not only the older ones), said when it is more than the older
 * files, so the estimate, which counts them all (estimateMs), describes the same work.
 */
export function everythingWords(
  olderFiles: number,
  olderBytes: number,
  estimate?: string,
  imported = 0,
  olderMessages = 0,
  uncounted = 0,
  gaps: { unreadable?: number; readOnce?: number; cleanUp?: string | undefined; storedBefore?: number | undefined; reads?: number } = {},
): string {
  const reads = gaps.reads ?? 0;
  const reading = reads > olderFiles ? `, reading all ${countOf(reads, 'file')}` : '';
  const about = `${reading}${estimate ? `, about ${estimate}` : ''}`;
  const cleanUp = gaps.cleanUp ? `; ${gaps.cleanUp}` : '';
  if (olderMessages > 0 || uncounted > 0) {
    const newer = olderFiles === 0 ? 'in files changed within the window' : 'in newer files';
    const counted = olderMessages > 0 ? `up to ${countOf(olderMessages, 'older message')} ${newer}` : '';
    const notCounted = uncounted === 0 ? '' : olderMessages > 0 ? `, and any in the ${countOf(uncounted, 'file')} not counted yet` : `any older messages in the ${countOf(uncounted, olderFiles === 0 ? 'file' : 'newer file')} Steward has not counted yet`;
    // With no file read (none counted yet), the estimate would say "about 0 ms".
    if (olderFiles === 0) return `Everything: also import ${counted}${notCounted}${reads > 0 ? about : ''}${cleanUp}`;
    return `Everything: also import the ${countOf(olderFiles, 'older file')} (${formatBytes(olderBytes)}) and ${counted}${notCounted}${about}${cleanUp}`;
  }
  if (olderFiles > 0) return `Everything: also import the ${countOf(olderFiles, 'older file')} (${formatBytes(olderBytes)})${about}${cleanUp}`;
  const unreadable = gaps.unreadable ?? 0;
  const done =
    imported > 0
      ? `the ${countOf(imported, 'older file')} ${imported === 1 ? 'is' : 'are'} imported already`
      : (gaps.readOnce ?? 0) > 0
        ? // Read whole once, their older messages removed by the clean-up since: importing them again would last until its next pass.
          `the ${countOf(gaps.readOnce ?? 0, 'older file')} ${gaps.readOnce === 1 ? 'was' : 'were'} imported once`
        : gaps.storedBefore === undefined
          ? 'no file is older than the window'
          : `no file is older than the window, and Steward already holds messages older than it (from ${formatDate(gaps.storedBefore)})`;
  if (unreadable === 0 && !cleanUp) return `Everything: ${done}, so all there is has been imported`;
  return `Everything: ${done}${unreadable > 0 ? `, but ${unreadableWords(unreadable)}` : ''}${cleanUp}`;
}

/**
 * What the window means now: how far back scheduled checks import (`span`, from windowWords), and the
 * older files imported once on request whose messages stay (the clean-up's are not counted).
 */
export function windowMeaning(span: string, imported: number): string {
  const once = imported === 0 ? '' : `; you also imported the ${countOf(imported, 'older file')} once, which the checks do not read again`;
  return `how far back Steward imports on its own: ${span} now${once}.`;
}

/**
 * What the files' times say, then what the import found inside them: the window applies to each
 * line's time, so files changed within it (a copy that did not keep file times) may still hold
 * messages older than it, which the import left out (up to `olderMessages`: a message in several
 * files counts in each), and in `uncounted` files nobody counted them yet. When every file is newer
 * and nothing was left out, the older messages Steward holds (`storedBefore`, storedOlderAt) are said,
 * or that the files' times cannot rule them out: a wider import took them in, a clean-up may have
 * removed them since, and the survey reads no transcript to know.
 */
export function olderWords(files: number, olderFiles: number, olderMessages: number, uncounted = 0, storedBefore?: number): string {
  const one = files === 1;
  const dated = olderFiles > 0 ? `${countOf(olderFiles, 'file')} ${olderFiles === 1 ? 'is' : 'are'} entirely older than the window` : `${one ? 'it' : 'every one'} was last changed within the window`;
  const notCounted = uncounted > 0 ? `; ${uncountedWords(uncounted)}` : '';
  if (olderMessages === 0 && uncounted === 0 && olderFiles === 0) {
    if (storedBefore !== undefined) return `${dated}, but Steward holds messages older than the window (from ${formatDate(storedBefore)}): ${BY_DATE}`;
    return `${dated}; messages in ${one ? 'it' : 'them'} may still be older, as ${BY_DATE}`;
  }
  if (olderMessages === 0) return `${dated}${notCounted}`;
  const verbs = olderMessages === 1 ? 'is older than the window and was' : 'are older than the window and were';
  return `${dated}, but up to ${countOf(olderMessages, 'message')} in ${olderFiles > 0 ? 'the others' : one ? 'it' : 'them'} ${verbs} not imported (${COPIES})${notCounted}`;
}

/**
 * How long importing everything should take: `files` (every file the import reads) at the pace the
 * newest tick that read something read its own (its duration over the files it read), or undefined
 * until a tick has read something. `ticks`: Telemetry.Recent's sweep ticks, newest first.
 */
export function estimateMs(files: number, ticks: Result<'Telemetry.Recent'>['entries']): number | undefined {
  for (const entry of ticks) {
    const providers = (entry.data.providers ?? []) as Array<{ read?: number; durationMs?: number }>;
    const read = providers.reduce((n, p) => n + (p.read ?? 0), 0);
    const ms = providers.reduce((n, p) => n + (p.durationMs ?? 0), 0);
    if (read > 0) return (ms / read) * files;
  }
  return undefined;
}
