import { existsSync } from 'node:fs';
import { COLLECTIONS, DOCUMENT_SOURCES_LIMIT, RAG_MODES, SYNC_MODES, type DocumentSource } from '../../api/index.js';
import type { SourceProblemError } from '../../maintenance/index.js';
import { UsageError } from '../output.js';

// The options `steward maintenance …`, `steward rag …` and `steward service` share.

/** `--format json` is the spec's form; `--json` is its alias. */
export function formatOption(value: string | undefined, json?: boolean): 'text' | 'json' {
  if (json) return 'json';
  // Any case, as every choice of fixed words (choiceOption): `--format JSON` is json.
  const word = value?.toLowerCase();
  if (word === undefined || word === 'text') return 'text';
  if (word === 'json') return 'json';
  throw new UsageError('--format must be text or json');
}

export const isJson = (o: { format?: string; json?: boolean }) => o.json === true || o.format?.toLowerCase() === 'json';

/** The policy flags `add` and `enroll` share, checked here so a typo is a usage error (exit 2). */
export function policyOf(given: { sync?: string; rag?: string; profile?: string; collections?: string }) {
  // Fixed words in any case (choiceOption's rule).
  const options = { ...given, sync: given.sync?.toLowerCase(), rag: given.rag?.toLowerCase() };
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

function nth(flag: string, i: number, n: number): string {
  return n > 1 ? `${flag} folder ${i + 1} of ${n}` : `the ${flag} folder`;
}

/** The CLI's words for a refused folder; the only ones that repeat what was typed (it is the person's own input). */
function usageErrorOf(problem: SourceProblemError, flag: '--docs' | '--docs-git', typed: string, which: string): UsageError {
  switch (problem.problem) {
    case 'git_missing':
      return new UsageError('document folders are read with git, and git is not on PATH');
    case 'no_folder':
      return new UsageError(`${flag}: there is no folder ${JSON.stringify(typed)}`);
    case 'not_folder':
      return new UsageError(`${flag}: ${JSON.stringify(typed)} is a file, not a folder`);
    case 'not_work_tree':
      return new UsageError(`${which} is not inside a git work tree, and Steward lists a folder's documents with git: run \`git init\` in it (nothing needs to be committed), or use --docs-git for a repository`);
    case 'not_repository':
      return new UsageError(`${which} is not a git repository`);
    case 'bad_ref':
      return new UsageError(`--docs-git: ${JSON.stringify(problem.ref)} is not a ref`);
    case 'no_commit':
      return new UsageError(`${which} has no commit at ${JSON.stringify(problem.ref)}`);
  }
}

/**
 * The maintenance room (its checks of a folder, run with git), loaded when a --docs flag is read: this
 * file is imported by every maintenance, rag and service verb, and `steward --help` needs none of it.
 */
const maintenanceRoom = () => import('../../maintenance/index.js');

/** `PATH@REF` of `--docs-git`: a folder that exists as typed keeps any `@` in its name. */
function splitAtRef(value: string): { path: string; ref: string | null } {
  const at = value.lastIndexOf('@');
  if (at <= 0 || existsSync(value)) return { path: value, ref: null };
  return { path: value.slice(0, at), ref: value.slice(at + 1) || null };
}

/** One `--docs` or `--docs-git` value, checked by the maintenance room's own checks (the panel's folders pass the same ones). */
async function checked(flag: '--docs' | '--docs-git', value: string, i: number, n: number): Promise<DocumentSource> {
  const { gitSource, SourceProblemError: Problem, worktreeSource } = await maintenanceRoom();
  const { path, ref } = flag === '--docs-git' ? splitAtRef(value) : { path: value, ref: null };
  try {
    return flag === '--docs' ? await worktreeSource(path) : await gitSource(path, ref);
  } catch (error) {
    throw error instanceof Problem ? usageErrorOf(error, flag, path, nth(flag, i, n)) : error;
  }
}

/** The document sources `--docs` and `--docs-git` name, each checked here, the same one given twice kept once. */
export async function documentSourcesOf(options: { docs?: string[]; docsGit?: string[] }): Promise<DocumentSource[]> {
  const docs = options.docs ?? [];
  const gits = options.docsGit ?? [];
  const all: DocumentSource[] = [];
  for (const [i, d] of docs.entries()) all.push(await checked('--docs', d, i, docs.length));
  for (const [i, g] of gits.entries()) all.push(await checked('--docs-git', g, i, gits.length));
  const distinct = (await maintenanceRoom()).distinctSources(all);
  if (distinct.length > DOCUMENT_SOURCES_LIMIT) throw new UsageError(`at most ${DOCUMENT_SOURCES_LIMIT} document folders per repository`);
  return distinct;
}
