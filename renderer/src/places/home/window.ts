import type { Result } from '../../../../core/api/index.js';
import { countOf, formatBytes, listOf, providerLabel } from '../../components/index.js';

type Survey = Result<'Providers.Survey'>;

/** "the last year", "the last 90 days", or all of it when no window is set (0 days). */
export function spanWords(days: number): string {
  if (days === 0) return 'all of their history';
  return days === 365 ? 'the last year' : `the last ${countOf(days, 'day')}`;
}

/**
 * How far back the scheduled import reaches, from the listing: one span when every agent shares it,
 * else each agent's own ("the last 90 days for Claude Code and the last year for Codex").
 */
export function windowWords(survey: Survey): string | undefined {
  const spans = new Set(survey.providers.map((p) => p.windowDays));
  if (spans.size === 0) return undefined;
  if (spans.size === 1) return spanWords(survey.providers[0]!.windowDays);
  return listOf(survey.providers.map((p) => `${spanWords(p.windowDays)} for ${providerLabel(p.provider)}`));
}

/**
 * Why a count of older messages is "up to": it counts each file's lines, and the same message may be
 * in several files, so importing everything may write fewer.
 */
const COPIES = 'a message copied into several files, as a resumed conversation carries the one it resumed, counts in each';

/** Files whose older messages were not counted (Providers.Survey's `olderUncounted`), and what brings them in. */
export function uncountedWords(files: number): string {
  return `Steward has not counted the older messages of ${countOf(files, 'file')} yet (imported before it kept that count, or by a narrower import); importing everything brings in any there are`;
}

/**
 * The "Everything" choice: what importing the rest would read and how long it may take, or, when no
 * file older than the window is left to import, that there is nothing more (never "the 0 older
 * files"). `olderFiles` counts only those not imported yet; `imported`, those an import of everything
 * already read whole (Providers.Survey's `older.imported`), which are never offered again.
 * `olderMessages`: up to how many messages the import left out as older than the window from files
 * changed within it (a copy that did not keep file times); `uncounted`: files whose older messages
 * were not counted. While there are any of either, all there is may not have been imported.
 */
export function everythingWords(olderFiles: number, olderBytes: number, estimate?: string, imported = 0, olderMessages = 0, uncounted = 0): string {
  const about = estimate ? `, about ${estimate}` : '';
  if (olderMessages > 0 || uncounted > 0) {
    const newer = olderFiles === 0 ? 'in files changed within the window' : 'in newer files';
    const counted = olderMessages > 0 ? `up to ${countOf(olderMessages, 'older message')} ${newer}` : '';
    const notCounted = uncounted === 0 ? '' : olderMessages > 0 ? `, and any in the ${countOf(uncounted, 'file')} not counted yet` : `any older messages in the ${countOf(uncounted, olderFiles === 0 ? 'file' : 'newer file')} Steward has not counted yet`;
    // The estimate is the older files' reading time: with none, it would say "about 0 ms".
    if (olderFiles === 0) return `Everything: also import ${counted}${notCounted}`;
    return `Everything: also import the ${countOf(olderFiles, 'older file')} (${formatBytes(olderBytes)}) and ${counted}${notCounted}${about}`;
  }
  if (olderFiles === 0 && imported > 0) return `Everything: the ${countOf(imported, 'older file')} ${imported === 1 ? 'is' : 'are'} imported already, so all there is has been imported`;
  if (olderFiles === 0) return 'Everything: nothing is older than the window, so all there is has been imported';
  return `Everything: also import the ${countOf(olderFiles, 'older file')} (${formatBytes(olderBytes)})${about}`;
}

/** What the window means now: how far back scheduled checks import, and the older files imported once on request. */
export function windowMeaning(days: number, imported: number): string {
  const once = imported === 0 ? '' : `; you also imported the ${countOf(imported, 'older file')} once, which the checks do not read again`;
  return `how far back Steward imports on its own: ${spanWords(days)} now${once}.`;
}

/**
 * What the files' times say, then what the import found inside them: the window applies to each
 * line's time, so files changed within it (a copy that did not keep file times) may still hold
 * messages older than it, which the import left out (up to `olderMessages`: a message in several
 * files counts in each), and in `uncounted` files nobody counted them yet.
 */
export function olderWords(files: number, olderFiles: number, olderMessages: number, uncounted = 0): string {
  const one = files === 1;
  const dated = olderFiles > 0 ? `${countOf(olderFiles, 'file')} ${olderFiles === 1 ? 'is' : 'are'} entirely older than the window` : `${one ? 'it' : 'every one'} was last changed within the window`;
  const notCounted = uncounted > 0 ? `; ${uncountedWords(uncounted)}` : '';
  if (olderMessages === 0) return `${dated}${notCounted}`;
  const verbs = olderMessages === 1 ? 'is older than the window and was' : 'are older than the window and were';
  return `${dated}, but up to ${countOf(olderMessages, 'message')} in ${olderFiles > 0 ? 'the others' : one ? 'it' : 'them'} ${verbs} not imported (${COPIES})${notCounted}`;
}
