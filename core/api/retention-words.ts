// What a retention window's clean-up would take for good, in the words people read, for the CLI and
// the panel alike. It imports nothing, as reading.ts, so the panel can load it at run time.

/**
 * Of the conversations a clean-up would remove whole, those whose transcript the agent deleted (a dry
 * run's `PruneReport.lost`): one sentence, said before a removal is asked for or a window saved, never
 * left for a person to guess. Empty when there are none.
 */
export function lostWords(lost: number | undefined): string {
  if (!lost) return '';
  return `${lost === 1 ? '1 of them has' : `${lost.toLocaleString('en')} of them have`} no transcript left on disk: Steward holds the only copy.`;
}
