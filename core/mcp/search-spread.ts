import type { Result } from '../api/index.js';

type Found = Result<'Search.Query'>;
type Hit = Found['hits'][number];

/** A conversation's matches a page counts instead of listing (search_transcripts' `unlisted`). */
export interface Unlisted {
  sessionId: string;
  /** Matches not listed, with the repeats each stands for (SearchHit.alike). */
  matches: number;
}

/** How many pages' worth of hits past a crowded page are looked at for other conversations'. */
const LOOK_AHEAD = 4;
/** The most hits Search.Query gives at once (the contract's limit). */
const OWNER_MAX = 100;

/** At most this many hits of one conversation on a page while others match: a few, never the whole page. */
export function perConversation(limit: number): number {
  return Math.max(1, Math.min(3, Math.ceil(limit / 2)));
}

/**
 * A page of at most `limit` hits, a few of each conversation (perConversation) while other
 * conversations match among the next hits; the rest of a conversation's hits in the stretch of the
 * ranking the page covers are counted, not listed (a subagent's 20 Greps would fill a page of 3). Paging
 * stays the owner's: the cursor goes on after exactly the hits the page listed or counted, so a next
 * page neither repeats nor skips one. `ask` is Search.Query with the request's filters and cursor.
 */
export async function spreadPage(ask: (limit: number) => Promise<Found>, limit: number): Promise<{ found: Found; unlisted: Unlisted[] }> {
  const first = await ask(limit);
  const cap = perConversation(limit);
  if (!crowded(first.hits, cap)) return { found: first, unlisted: [] };
  const ahead = first.cursor === undefined ? first : await ask(Math.min(OWNER_MAX, limit * LOOK_AHEAD));
  if (new Set(ahead.hits.map((h) => h.sessionId)).size < 2) return { found: first, unlisted: [] };
  const covered = Math.max(...listedOf(ahead.hits, limit, cap)) + 1;
  // Asked again for exactly the hits covered, so the cursor goes on after the last of them.
  const page = covered === ahead.hits.length ? ahead : await ask(covered);
  // Everything this page holds is listed or counted, even were it not the stretch looked at (a part forgotten between the two asks).
  const listed = listedOf(page.hits, limit, cap);
  return { found: { ...page, hits: page.hits.filter((_, i) => listed.has(i)) }, unlisted: tally(page.hits.filter((_, i) => !listed.has(i))) };
}

function crowded(hits: readonly Hit[], cap: number): boolean {
  const counts = new Map<string, number>();
  return hits.some((h) => {
    const n = (counts.get(h.sessionId) ?? 0) + 1;
    counts.set(h.sessionId, n);
    return n > cap;
  });
}

/**
 * Which hits (by place) a page lists: in ranked order, up to `cap` of each conversation; where that
 * leaves room, the best-ranked of the others. Every conversation among them has its best hit listed.
 */
function listedOf(hits: readonly Hit[], limit: number, cap: number): Set<number> {
  const listed = new Set<number>();
  const counts = new Map<string, number>();
  hits.forEach((h, i) => {
    const n = counts.get(h.sessionId) ?? 0;
    if (listed.size >= limit || n >= cap) return;
    listed.add(i);
    counts.set(h.sessionId, n + 1);
  });
  for (let i = 0; i < hits.length && listed.size < limit; i += 1) listed.add(i);
  return listed;
}

function tally(hits: readonly Hit[]): Unlisted[] {
  const counts = new Map<string, number>();
  for (const h of hits) counts.set(h.sessionId, (counts.get(h.sessionId) ?? 0) + 1 + (h.alike ?? 0));
  return [...counts].map(([sessionId, matches]) => ({ sessionId, matches }));
}
