/**
 * Why a folder the person set is not read, in their words, with the way out: one table for the panel's
 * Settings (TranscriptFolders), `steward info` and a run's result. Free of zod (the contract's
 * providers.ts declares the reasons with it), so the panel may import it.
 */
export type RootLeftOutReason = 'not_full_path' | 'home_not_full_path';

/** The reasons `leftOut` gives (Providers.Roots), in the order they are checked. */
export const ROOT_LEFT_OUT_REASONS = ['not_full_path', 'home_not_full_path'] as const satisfies readonly RootLeftOutReason[];

/** Why, with the way out: a sentence after "… is left out:". */
export const ROOT_LEFT_OUT_WORDS: Readonly<Record<RootLeftOutReason, string>> = {
  not_full_path: 'it is not a full path, so it would be read under whichever folder Steward was started in. Write it in full (from /, ~/ or a drive letter).',
  home_not_full_path: 'your home folder (HOME) is not a full path, so ~ names no folder. Set HOME to a full path in Steward’s environment, or write the folder in full.',
};

/** Why alone, short enough for one line of a run's result ("… was left out because …"). */
export const ROOT_LEFT_OUT_WHY: Readonly<Record<RootLeftOutReason, string>> = {
  not_full_path: 'it is not a full path',
  home_not_full_path: 'HOME is not a full path, so ~ names no folder',
};

/**
 * A watched folder as the panel says it: not there; there, but the agent's folders hold no transcript
 * yet (an agent installed and never used, a folder set ahead of time); or there. `agentFiles`: the
 * transcript files the agent's watched folders hold together (Providers.Survey's `files`), undefined
 * until counted. Counted per agent: with none in all of them each found folder holds none; with some,
 * each found one is "Found" (the survey does not say which folder holds them). One rule for every agent.
 */
export function folderFoundWords(exists: boolean, agentFiles: number | undefined): 'Not found' | 'Found, no conversations yet' | 'Found' {
  if (!exists) return 'Not found';
  return agentFiles === 0 ? 'Found, no conversations yet' : 'Found';
}
