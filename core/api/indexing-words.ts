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
 * Said beside what a search or a list answers when no Steward runs (the stores were opened for one
 * call): nothing imports the agents' new transcripts meanwhile, so what they wrote since the last
 * check is not there. `lastCheckAt`: when Steward last looked at every agent's folders (Sweep.Status).
 */
export function nobodyImportsNote(lastCheckAt: number | null): string {
  const since = lastCheckAt === null ? 'no check of the agents’ folders is on record' : `the agents’ folders were last checked at ${new Date(lastCheckAt).toISOString()}`;
  return `No Steward is running to import new transcripts (${since}), so newer messages are not here: \`steward sweep\` imports them now, starting Steward (\`steward serve\`) keeps them coming.`;
}
