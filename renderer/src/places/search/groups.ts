import type { SearchHit } from '../../../../core/api/index.js';
import { groupBySession } from '../../../../core/api/reading.js';

/** The hits of a page grouped by conversation (core/api/reading.ts), in the order each first matched. */
export function sessionGroups(hits: readonly SearchHit[]): Array<{ sessionId: string; hits: SearchHit[] }> {
  return [...groupBySession(hits)].map(([sessionId, grouped]) => ({ sessionId, hits: grouped }));
}

/**
 * The first hit a further page added, in the order the results show them (a new match of a
 * conversation already shown joins its group): it takes the focus when the page arrives.
 */
export function firstNewHit(before: readonly SearchHit[], after: readonly SearchHit[]): string | undefined {
  const known = new Set(before.map((hit) => hit.partId));
  return [...groupBySession(after).values()]
    .flat()
    .find((hit) => !known.has(hit.partId))?.partId;
}
