// Local document sources in the contract's constants and words, for the owner, the CLI and the panel
// alike. It imports nothing, as maintenance-words.ts, so the panel can load it at run time.

/**
 * The ref a worktree source carries. The lanes read a worktree as it is on disk whatever is checked
 * out, but the ref is part of the source's identity: a branch name here would make the same folder,
 * enrolled again after `git switch`, a conflicting source. One fixed word keeps it one source.
 */
export const WORKTREE_REF = 'worktree';

/** At most this many document folders per registration (`--docs`, the panel's Local documents, the contract). */
export const DOCUMENT_SOURCES_LIMIT = 32;

/** A git source's ref that asks for the branch checked out, as `--docs-git` without @REF: the owner resolves it to that branch. */
export const CHECKED_OUT_REF = 'HEAD';

/** "1 local document folder", "2 local document folders": how plans and results speak of folders, which they never name. */
export function folderWords(n: number): string {
  return `${n} local document folder${n === 1 ? '' : 's'}`;
}
