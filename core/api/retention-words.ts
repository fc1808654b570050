// What a retention window's clean-up would take for good, in the words people read, for the CLI and
// the panel alike. It imports nothing, as reading.ts, so the panel can load it at run time.

/**
 * Of the conversations a clean-up would remove whole, those whose transcript the agent deleted (a dry
 * run's `PruneReport.lost`): one sentence, said before a removal is asked for or a window saved, never
 * left for a person to guess. Empty when there are none. `afterSentence`: said after another sentence
 * (the CLI's and the panel's way), so a space before it when there is one. The count is formatted here
 * as numberOf (core/api/words.ts) formats every count: this file may import nothing.
 */
export function lostWords(lost: number | undefined, { afterSentence = false }: { afterSentence?: boolean } = {}): string {
  if (!lost) return '';
  const words = `${lost === 1 ? '1 of them has' : `${lost.toLocaleString('en')} of them have`} no transcript left on disk: Steward holds the only copy.`;
  return afterSentence ? ` ${words}` : words;
}
