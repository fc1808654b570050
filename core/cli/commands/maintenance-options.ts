import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { devNull } from 'node:os';
import { resolve } from 'node:path';
import { COLLECTIONS, RAG_MODES, SYNC_MODES } from '../../api/index.js';
import { UsageError } from '../output.js';

// The options `steward maintenance …`, `steward rag …` and `steward service` share.

/** `--format json` is the spec's form; `--json` is its alias. */
export function formatOption(value: string | undefined, json?: boolean): 'text' | 'json' {
  if (json) return 'json';
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new UsageError('--format must be text or json');
}

export const isJson = (o: { format?: string; json?: boolean }) => o.json === true || o.format === 'json';

/** The policy flags `add` and `enroll` share, checked here so a typo is a usage error (exit 2). */
export function policyOf(options: { sync?: string; rag?: string; profile?: string; collections?: string }) {
  if (options.sync !== undefined && !(SYNC_MODES as readonly string[]).includes(options.sync)) throw new UsageError(`--sync must be ${SYNC_MODES.join(', ')}`);
  if (options.rag !== undefined && !(RAG_MODES as readonly string[]).includes(options.rag)) throw new UsageError(`--rag must be ${RAG_MODES.join(', ')}`);
  const collections = options.collections?.split(',').map((c) => c.trim()).filter((c) => c.length > 0);
  const unknown = collections?.filter((c) => !(COLLECTIONS as readonly string[]).includes(c)) ?? [];
  if (unknown.length > 0) throw new UsageError(`--collections takes ${COLLECTIONS.join(',')}; not ${unknown.join(',')}`);
  return {
    ...(options.sync ? { sync: options.sync as (typeof SYNC_MODES)[number] } : {}),
    ...(options.rag ? { rag: options.rag as (typeof RAG_MODES)[number] } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(collections ? { collections: collections as Array<(typeof COLLECTIONS)[number]> } : {}),
  };
}

/** A repeatable option's values, in the order given (commander's collector). */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

export interface DocumentSourceInput {
  kind: 'git' | 'worktree';
  ref: string;
  root: string;
}

/**
 * The ref a worktree source carries. The lanes read a worktree as it is on disk whatever is checked
 * out, but the ref is part of the source's identity: a branch name here would make the same folder,
 * enrolled again after `git switch`, a conflicting source. One fixed word keeps it one source.
 */
export const WORKTREE_REF = 'worktree';

/** git as the lanes run it: no prompt, no user or system config; null when it fails. */
function gitOut(cwd: string, args: string[]): string | null {
  try {
    const env = { PATH: process.env['PATH'] ?? '', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull, LC_ALL: 'C' };
    return execFileSync('git', ['-C', cwd, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError('document folders are read with git, and git is not on PATH');
    return null;
  }
}

/** The real absolute folder a flag names; the only error that repeats what was typed (it is the person's own input). */
function folderOf(flag: string, value: string): string {
  let root: string;
  try {
    root = realpathSync(resolve(value));
  } catch {
    throw new UsageError(`${flag}: there is no folder ${JSON.stringify(value)}`);
  }
  if (!statSync(root).isDirectory()) throw new UsageError(`${flag}: ${JSON.stringify(value)} is a file, not a folder`);
  return root;
}

/** `PATH@REF` of `--docs-git`: a folder that exists as typed keeps any `@` in its name. */
function splitAtRef(value: string): { path: string; ref: string | null } {
  const at = value.lastIndexOf('@');
  if (at <= 0 || existsSync(value)) return { path: value, ref: null };
  return { path: value.slice(0, at), ref: value.slice(at + 1) || null };
}

function nth(flag: string, i: number, n: number): string {
  return n > 1 ? `${flag} folder ${i + 1} of ${n}` : `the ${flag} folder`;
}

/** A local folder of documents: a worktree source (tracked and untracked files, not ignored ones). */
function worktreeSource(value: string, i: number, n: number): DocumentSourceInput {
  const root = folderOf('--docs', value);
  // The lanes list a worktree with `git ls-files`: outside a work tree they would find nothing, ever.
  if (gitOut(root, ['rev-parse', '--is-inside-work-tree']) !== 'true') {
    throw new UsageError(`${nth('--docs', i, n)} is not inside a git work tree, and Steward lists a folder's documents with git: run \`git init\` in it (nothing needs to be committed), or use --docs-git for a repository`);
  }
  return { kind: 'worktree', ref: WORKTREE_REF, root };
}

/** A git repository's documents at a ref (its committed files): the branch checked out unless `@REF` names one. */
function gitSource(value: string, i: number, n: number): DocumentSourceInput {
  const { path, ref: asked } = splitAtRef(value);
  const root = folderOf('--docs-git', path);
  const which = nth('--docs-git', i, n);
  if (gitOut(root, ['rev-parse', '--git-dir']) === null) throw new UsageError(`${which} is not a git repository`);
  const ref = asked ?? gitOut(root, ['symbolic-ref', '-q', '--short', 'HEAD']) ?? 'HEAD';
  // A ref is handed to git as an argument: one that looks like an option is never one.
  if (ref.startsWith('-') || ref.length > 300) throw new UsageError(`--docs-git: ${JSON.stringify(ref)} is not a ref`);
  if (gitOut(root, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]) === null) throw new UsageError(`${which} has no commit at ${JSON.stringify(ref)}`);
  return { kind: 'git', ref, root };
}

/** The document sources `--docs` and `--docs-git` name, each checked here, the same one given twice kept once. */
export function documentSourcesOf(options: { docs?: string[]; docsGit?: string[] }): DocumentSourceInput[] {
  const docs = options.docs ?? [];
  const gits = options.docsGit ?? [];
  const all = [...docs.map((d, i) => worktreeSource(d, i, docs.length)), ...gits.map((g, i) => gitSource(g, i, gits.length))];
  const seen = new Map(all.map((s) => [`${s.kind}\u0000${s.ref}\u0000${s.root}`, s]));
  if (seen.size > 32) throw new UsageError('at most 32 document folders per repository');
  return [...seen.values()];
}
