import type { CollectionStatus, RegistrationStatus } from '../../../../core/api/index.js';
import { COLLECTION_LABELS, failureWords, reasonWords, STATE_LABELS as SHARED_STATE_LABELS, tokenNameOf } from '../../../../core/api/maintenance-words.js';
import { countOf, formatCount, formatDateTime, formatRelativeTime } from '../../components/index.js';

/** The spec's lifecycle words, as `steward service maintenance` says them too. */
export const STATE_LABELS = SHARED_STATE_LABELS as Readonly<Record<RegistrationStatus['state'], string>>;

export { COLLECTION_LABELS, reasonWords };

/** Paused by the person (a reason of `operator`, or none recorded), not blocked by Steward. */
const pausedByPerson = (r: RegistrationStatus) => r.disabledReason === 'operator' || r.disabledReason === null;

/**
 * Why a paused or blocked registration's stages last failed: it may be why it was paused, and the
 * person resuming it wants to know; marked as from before the pause, since nothing is retried now.
 */
function lastFailures(r: RegistrationStatus): string {
  const failed = [
    ...(r.stages.sync.errorClass ? [`the last sync failed: ${failureWords(r.stages.sync.errorClass, r.forge)}`] : []),
    ...(r.stages.rag.errorClass ? [`the last search index run failed: ${failureWords(r.stages.rag.errorClass, r.forge)}`] : []),
  ];
  return failed.length === 0 ? '' : ` Before ${pausedByPerson(r) ? 'the pause' : 'it was blocked'}, ${failed.join('; ')}.`;
}

function pausedWords(r: RegistrationStatus): string {
  const head = pausedByPerson(r) ? 'Paused: nothing is scheduled until you resume it.' : `Blocked: ${(r.disabledReason ?? '').replace(/_/g, ' ')}.`;
  return `${head}${lastFailures(r)}`;
}

/** One sentence on what the registration is doing and, when it waits or fails, why and until when. */
export function summary(r: RegistrationStatus): string {
  const w = r.waiting;
  if (!r.enabled) return pausedWords(r);
  if (w?.reason === 'token_missing') {
    const name = tokenNameOf(r.forge);
    return `Waiting: token missing for ${w.host ?? 'this forge'}. Store one with the command steward secrets set ${name} (or set ${name} in Steward's environment).`;
  }
  if (w?.reason === 'rate_limited') return `Waiting until ${w.until !== null ? formatDateTime(w.until) : 'the forge allows more requests'}: the forge's rate limit is used up. What was read is kept.`;
  if (w?.reason === 'forge_unknown') return 'Waiting: this cache does not say which forge it syncs from. Add the repository again with the command steward maintenance add.';
  const failing = r.stages.sync.errorClass;
  if (failing) return `Sync failed ${r.stages.sync.failures} time${r.stages.sync.failures === 1 ? '' : 's'} in a row: ${failureWords(failing, r.forge)}. Next try ${r.stages.sync.nextAttemptAt !== null ? formatRelativeTime(r.stages.sync.nextAttemptAt) : 'soon'}.`;
  if (r.degraded.length > 0) return `Needs attention: ${r.degraded.map((d) => d.replace(/_/g, ' ')).join(', ')}.`;
  if (r.state === 'pending' && r.stages.sync.lastSuccessAt === null) return 'Not synced yet: the first sync runs on the next pass.';
  if (r.state === 'pending') return 'Synced. The first search index run has not finished yet.';
  if (r.state === 'backfilling') return 'Recent changes are kept current while older history is read in the background.';
  if (r.state === 'refreshing') return 'Catching up with recent changes.';
  if (r.state === 'ready' && r.policy.sync === 'head') return 'Recent changes are current; older history is not read under this policy.';
  if (r.state === 'ready') return 'Every collection is current and its history complete.';
  return STATE_LABELS[r.state];
}

export function itemsWords(c: CollectionStatus): string {
  const parts = [formatCount(c.items)];
  if (c.tombstones > 0) parts.push(`${formatCount(c.tombstones)} deleted`);
  if (c.skipped > 0) parts.push(`${formatCount(c.skipped)} unreadable`);
  return parts.join(' · ');
}

export function freshWords(c: CollectionStatus): string {
  if (c.head.state === 'off') return 'off';
  if (c.head.state === 'never') return 'not yet';
  if (c.head.state === 'catching-up') return c.head.freshAt !== null ? `catching up (was current ${formatRelativeTime(c.head.freshAt)})` : 'catching up';
  return c.head.freshAt !== null ? `current ${formatRelativeTime(c.head.freshAt)}` : 'current';
}

export function historyWords(c: CollectionStatus): string {
  if (c.tail.state === 'off') return 'recent only';
  if (c.tail.state === 'complete') return 'complete';
  if (c.tail.pagesDone === 0) return 'not started';
  return c.tail.pagesKnown !== null && c.tail.pagesKnown > 0 ? `reading: ${formatCount(c.tail.pagesDone)} of ${countOf(c.tail.pagesKnown, 'page')}` : `reading: ${countOf(c.tail.pagesDone, 'page')} so far`;
}
