import type { EventPayload, ScrubStatus } from '../../../../core/api/index.js';
import { formatPastTime } from '../../components/index.js';

/** What a wipe line is: one under way, one owed but not running, the last one done, or one that failed. */
export type WipeTone = 'running' | 'waiting' | 'done' | 'failed';

export interface WipeLine {
  tone: WipeTone;
  text: string;
  /** A failed wipe: the person can run it again from here. */
  retry: boolean;
}

/** What a failed wipe's code asks of the person first, when it asks anything. */
function firstStep(code: string): string {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'Free some disk space, then wipe it again';
  // A search, an export or a command was still reading the cache when the wipe came to empty its journal.
  if (code === 'SQLITE_BUSY') return 'Something was still reading the cache: wipe it again in a moment';
  return 'Wipe it again';
}

/**
 * The line the Forgotten list (and the page of what was just forgotten) shows about wiping forgotten text
 * from the disk, from Forget.ScrubStatus; undefined when there is nothing to say (no wipe was ever run
 * or asked for here). A failure wins over an older "wiped", and a running wipe over both.
 */
export function wipeLine(status: ScrubStatus | undefined, now = Date.now()): WipeLine | undefined {
  if (status === undefined) return undefined;
  if (status.running) {
    // Running but no piece written yet: it waits its turn at the disk (a checkpoint, an import's write).
    const text = status.progress ? `Wiping forgotten text from the disk… ${status.progress.percent}%` : 'Wiping forgotten text from the disk: waiting for the disk…';
    return { tone: 'running', text, retry: false };
  }
  if (status.failed) {
    const { at, code } = status.failed;
    return {
      tone: 'failed',
      text:
        `Forgotten text could not be wiped from the disk (${formatPastTime(at, now)}, ${code}). What you forgot is deleted from Steward, but its words can stay in the cache file's free space until a wipe finishes. ` +
        `${firstStep(code)} (Wipe now, or steward forget --scrub); Steward also tries again when it next starts.`,
      retry: true,
    };
  }
  if (status.pending) return { tone: 'waiting', text: 'Forgotten text is waiting to be wiped from the disk: after the forget under way, or when Steward next starts.', retry: false };
  if (status.lastWipedAt !== null) return { tone: 'done', text: `Forgotten text was wiped from the disk ${formatPastTime(status.lastWipedAt, now)}.`, retry: false };
  return undefined;
}

/**
 * What a forget's own line says while the wipe asked with it runs, per phase from `forget.scrub`
 * events; `erased` once the forget's rows are gone (its `forget.progress` said complete).
 */
export function wipingSentence(progress: EventPayload<'forget.scrub'> | undefined, erased: boolean): string | undefined {
  // The forget answers a moment after: until then, what is done.
  if (progress?.complete) return 'Forgotten and wiped from the disk.';
  // Deleted, and the wipe has written nothing yet: it waits its turn at the disk.
  if (progress === undefined) return erased ? 'Forgotten. Wiping it from the disk: waiting for the disk…' : undefined;
  const share = progress.total > 0 ? ` ${Math.floor((100 * progress.done) / progress.total)}%` : '';
  const doing = { index: `rewriting the search index…${share}`, free: `overwriting free space…${share}`, journal: 'emptying the journal…' }[progress.phase];
  return `Wiping it from the disk: ${doing}`;
}
