import type { EventPayload, StatusKind } from '../../../../core/api/index.js';

type Status = EventPayload<'app.status'>;

/**
 * Work that writes what Home counts (Cache.Stats): the index's walks count each part's messages as
 * they index it and an upgrade's recount rides on the re-tag walk, an import adds conversations, a
 * forget takes them away. None ends with a tick, so their end is what asks the figures again.
 */
const COUNTING_WORK: ReadonlySet<StatusKind> = new Set(['index', 'import', 'forget']);

/** The index's walk (and the recount riding on it) told its end: its figures are committed by then. Its steps ask nothing. */
export function walkEnded(progress: EventPayload<'search.indexing'>): boolean {
  return progress.complete;
}

const itemKey = (item: Status['working'][number]) => `${item.kind}\u0000${item.subject ?? ''}`;

/**
 * The status dropped a piece of counting work (working to idle, or to other work): a walk's end the
 * panel heard no event for (it was reconnecting) still asks once. The first status asks nothing: the
 * figures were just loaded.
 */
export function countingWorkEnded(before: Status | undefined, after: Status): boolean {
  if (before === undefined) return false;
  const still = new Set(after.working.map(itemKey));
  return before.working.some((item) => COUNTING_WORK.has(item.kind) && !still.has(itemKey(item)));
}
