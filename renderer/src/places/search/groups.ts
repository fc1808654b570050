import type { SearchHit } from '../../../../core/api/index.js';

/** The hits of a page grouped by conversation, in the order each conversation first matched. */
export function groupBySession(hits: readonly SearchHit[]): Array<{ sessionId: string; hits: SearchHit[] }> {
  const groups = new Map<string, SearchHit[]>();
  for (const hit of hits) groups.set(hit.sessionId, [...(groups.get(hit.sessionId) ?? []), hit]);
  return [...groups].map(([sessionId, grouped]) => ({ sessionId, hits: grouped }));
}

/**
 * The first hit a further page added, in the order the results show them (a new match of a
 * conversation already shown joins its group): it takes the focus when the page arrives.
 */
export function firstNewHit(before: readonly SearchHit[], after: readonly SearchHit[]): string | undefined {
  const known = new Set(before.map((hit) => hit.partId));
  return groupBySession(after)
    .flatMap((group) => group.hits)
    .find((hit) => !known.has(hit.partId))?.partId;
}
