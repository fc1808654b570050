// What a search says while the index's re-tag walk runs: one sentence for the CLI, MCP and the panel.
// No imports: the renderer bundles this file.

/** A progress figure as SearchQueryResult's `indexing` carries it (no phase from older owners: `index`). */
export interface IndexingFigure {
  phase?: 'index' | 'retag' | undefined;
  indexedParts: number;
  totalParts: number;
}

/** A whole percent, rounded down: a walk not yet done never says 100%. */
export function percentDown(done: number, total: number): string {
  return `${total > 0 ? Math.floor((Math.min(done, total) * 100) / total) : 0}%`;
}

/**
 * The re-tag walk's sentence: parts not checked yet are indexed with their old tags (a project they
 * left) or the old way of reading text (an upgrade's), so a search may miss some of them until it ends.
 */
export function indexingNote(indexing: IndexingFigure): string {
  return `Updating the search index: ${percentDown(indexing.indexedParts, indexing.totalParts)} checked; until it is done, some matches may be missing.`;
}

/**
 * Said when no Steward runs and nothing walks the index (the stores were opened for one call): asking
 * again finds the same. `steward sweep` waits for an import's walk, never for a re-tag (that walk
 * stops with the sweep); a running Steward finishes either.
 */
export function nobodyIndexesNote(indexing: IndexingFigure): string {
  const sweep = indexing.phase === 'retag' ? '' : '`steward sweep` finishes it now (saying how far it has come), or ';
  return `No Steward is running to finish it, so asking again will not change this: ${sweep}starting Steward (\`steward serve\`) finishes it in the background.`;
}

/**
 * How a note says a time: by default an ISO stamp (an agent's answer, MCP); the CLI passes its own
 * (localTime, `2026-12-05 14:08 UTC`), so the note reads as every other line it prints. A parameter,
 * not an import: the renderer bundles this file.
 */
export type TimeWords = (ms: number) => string;
const isoTime: TimeWords = (ms) => new Date(ms).toISOString();

/**
 * Said beside what a search or a list answers when no Steward runs (the stores were opened for one
 * call): nothing imports the agents' new transcripts meanwhile, so what they wrote since the last
 * check is not there. `lastCheckAt`: when Steward last looked at every agent's folders (Sweep.Status).
 */
export function nobodyImportsNote(lastCheckAt: number | null, at: TimeWords = isoTime): string {
  // With no check on record nothing was imported from every agent yet (a new store): what brings in
  // their history is an import of it (`steward backfill`), not one scheduled check of what changed.
  const remedy = lastCheckAt === null ? '`steward backfill` imports your agents’ transcript history now, starting Steward (`steward serve`) keeps new ones coming' : '`steward sweep` imports them now, starting Steward (`steward serve`) keeps them coming';
  return `No Steward is running to import new transcripts (${lastCheckWords(lastCheckAt, at)}), so newer messages are not here: ${remedy}.`;
}

/**
 * When Steward last looked at every agent's folders, from Sweep.Status: the schedule's own tick counts
 * where no full check is on record (the one rule for `steward info`, nobodyImportsNote's callers).
 */
export function lastCheckOf(sweep: { lastCheckAt: number | null; lastTickAt: number | null }): number | null {
  return sweep.lastCheckAt ?? sweep.lastTickAt ?? null;
}

/** When Steward last looked at every agent's folders, said inside nobodyImportsNote's parentheses. */
function lastCheckWords(lastCheckAt: number | null, at: TimeWords): string {
  return lastCheckAt === null ? 'no check of the agents’ folders is on record' : `the agents’ folders were last checked at ${at(lastCheckAt)}`;
}

/**
 * Everything nobody does with no Steward running, in one sentence: nobodyImportsNote's, and where the
 * index is behind (`indexing`), nobodyIndexesNote's merged into it, so "No Steward is running" is said
 * once. `steward sweep` finishes an import's walk as it imports, never a re-tag (see nobodyIndexesNote).
 */
export function nobodyRunsNote(indexing: IndexingFigure | undefined, lastCheckAt: number | null, at: TimeWords = isoTime): string {
  if (indexing === undefined) return nobodyImportsNote(lastCheckAt, at);
  const what = `No Steward is running to finish it or to import new transcripts (${lastCheckWords(lastCheckAt, at)}), so asking again will not change this`;
  if (indexing.phase === 'retag') return `${what}: starting Steward (\`steward serve\`) finishes it in the background and keeps new transcripts coming; \`steward sweep\` imports them now.`;
  return `${what}: \`steward sweep\` finishes it and imports newer messages now (saying how far it has come), or starting Steward (\`steward serve\`) does both in the background.`;
}
