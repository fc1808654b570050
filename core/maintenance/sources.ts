import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { devNull } from 'node:os';
import { resolve } from 'node:path';
import { CHECKED_OUT_REF, WORKTREE_REF, type DocumentSource } from '../api/index.js';

// The checks of a local document source, shared by `--docs`/`--docs-git` (the CLI, before it asks)
// and the setup plan (the panel's Local documents, which only the owner can check): written once.

/** Why a folder cannot be a document source; each surface says it in its own words. */
export type SourceProblem = 'git_missing' | 'no_folder' | 'not_folder' | 'not_work_tree' | 'not_repository' | 'bad_ref' | 'no_commit';

export class SourceProblemError extends Error {
  readonly problem: SourceProblem;
  /** The ref that was refused (`bad_ref`, `no_commit`): the person's own input, never a path. */
  readonly ref: string | null;

  constructor(problem: SourceProblem, ref: string | null = null) {
    super(`document source refused: ${problem}`);
    this.name = 'SourceProblemError';
    this.problem = problem;
    this.ref = ref;
  }
}

/** git as the lanes run it: no prompt, no user or system config; null when it fails. Async: the owner's loop never waits on it. */
function gitOut(cwd: string, args: string[]): Promise<string | null> {
  const env = { PATH: process.env['PATH'] ?? '', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull, LC_ALL: 'C' };
  return new Promise((done, fail) => {
    execFile('git', ['-C', cwd, ...args], { env, encoding: 'utf8', timeout: 10_000 }, (error, stdout) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') fail(new SourceProblemError('git_missing'));
      else done(error ? null : stdout.trim());
    });
  });
}

/** The real absolute folder a path names. */
async function folderOf(path: string): Promise<string> {
  let root: string;
  try {
    root = await realpath(resolve(path));
  } catch {
    throw new SourceProblemError('no_folder');
  }
  if (!(await stat(root)).isDirectory()) throw new SourceProblemError('not_folder');
  return root;
}

/** A local folder of documents: a worktree source (tracked and untracked files, not ignored ones). */
export async function worktreeSource(path: string): Promise<DocumentSource> {
  const root = await folderOf(path);
  // The lanes list a worktree with `git ls-files`: outside a work tree they would find nothing, ever.
  if ((await gitOut(root, ['rev-parse', '--is-inside-work-tree'])) !== 'true') throw new SourceProblemError('not_work_tree');
  return { kind: 'worktree', ref: WORKTREE_REF, root };
}

/** A git repository's documents at a ref (its committed files); no ref is the branch checked out. */
export async function gitSource(path: string, asked: string | null): Promise<DocumentSource> {
  const root = await folderOf(path);
  if ((await gitOut(root, ['rev-parse', '--git-dir'])) === null) throw new SourceProblemError('not_repository');
  const ref = asked ?? (await gitOut(root, ['symbolic-ref', '-q', '--short', 'HEAD'])) ?? 'HEAD';
  // A ref is handed to git as an argument: one that looks like an option is never one.
  if (ref.startsWith('-') || ref.length > 300) throw new SourceProblemError('bad_ref', ref);
  if ((await gitOut(root, ['rev-parse', '--verify', '-q', `${ref}^{commit}`])) === null) throw new SourceProblemError('no_commit', ref);
  return { kind: 'git', ref, root };
}

/** One source of a request, checked: a worktree keeps its fixed ref; a git source at CHECKED_OUT_REF (`HEAD`) is its branch, as `--docs-git` without @REF. */
export function checkSource(s: DocumentSource): Promise<DocumentSource> {
  return s.kind === 'worktree' ? worktreeSource(s.root) : gitSource(s.root, s.ref === CHECKED_OUT_REF ? null : s.ref);
}

/** The same source named twice is one source. */
export function distinctSources<T extends DocumentSource>(sources: readonly T[]): T[] {
  return [...new Map(sources.map((s) => [`${s.kind}\u0000${s.ref}\u0000${s.root}`, s])).values()];
}
