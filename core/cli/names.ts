import { ProjectKey, projectsNamed, StewardError, type NamedProject, type StewardClient } from '../api/index.js';
import { UsageError } from './output.js';

/**
 * The one key `text` names among `projects`, or an error that says what to do instead; `where` says
 * which list was searched. A name nothing holds is `not_found` (exit 1), as an unknown key or id is;
 * a name two projects share is the command line's to fix (a usage error, exit 2).
 */
export function oneProject(option: string, text: string, projects: readonly NamedProject[], where: string): string {
  const keys = projectsNamed(text, projects);
  if (keys.length === 1) return keys[0]!;
  if (keys.length === 0) throw new StewardError('not_found', `${option}: no project is called ${JSON.stringify(text)}; ${where} lists each project's name and key`);
  throw new UsageError(`${option}: ${keys.length} projects are called ${JSON.stringify(text)} (${keys.join(', ')}); give one of those keys (\`steward projects --json\` shows each one's folder)`);
}

/**
 * The projectKey a person meant by `--project` (or a project argument): a key as it is, else the
 * project of that name or slug among those `steward projects` lists. A key is passed on unchecked:
 * the contract says whether it is known.
 */
export async function projectKeyFor(client: StewardClient, text: string, option = '--project'): Promise<string> {
  if (ProjectKey.safeParse(text).success) return text;
  const { projects } = await client.call('Projects.List', {});
  return oneProject(option, text, projects, '`steward projects`');
}

/**
 * A key Steward holds no project under is `not_found`, as a name nothing holds is (oneProject): a
 * filter on it would select nothing, and "No matches." would say it was searched.
 */
export async function mustBeStoredProject(client: StewardClient, projectKey: string, option = '--project'): Promise<void> {
  const { projects } = await client.call('Projects.List', {});
  if (projects.some((p) => p.projectKey === projectKey)) return;
  throw new StewardError('not_found', `${option}: no stored project has the key ${projectKey} (it may have been forgotten); \`steward projects\` lists each project's name and key`);
}

/** The same for a forgotten project (`unforget --project`): its row is gone, so its name comes from what `steward forget --list` shows. */
export async function forgottenProjectKeyFor(client: StewardClient, text: string, option = '--project'): Promise<string> {
  if (ProjectKey.safeParse(text).success) return text;
  const { tombstones } = await client.call('Forget.List', {});
  const forgotten = tombstones.filter((t) => t.kind === 'project').map((t) => ({ projectKey: t.id, name: t.label ?? '' }));
  return oneProject(option, text, forgotten, '`steward forget --list`');
}

/** Whether a conversation (or a subagent's) is stored under exactly this id. */
export async function isStoredSession(client: StewardClient, sessionId: string): Promise<boolean> {
  try {
    await client.call('Sessions.Get', { sessionId, limit: 1 });
    return true;
  } catch (error) {
    if (error instanceof StewardError && error.code === 'not_found') return false;
    throw error;
  }
}

/**
 * A conversation is named by its whole id; an unknown one (often a prefix, copied short) is told
 * where to copy the whole id from. Other errors pass as they are.
 */
export function wholeSessionId(error: unknown): never {
  if (error instanceof StewardError && error.code === 'not_found') {
    throw new StewardError('not_found', `${error.message}; give the whole id (a part of one is not enough), as \`steward sessions list\` or \`steward search\` prints it`, error.details);
  }
  throw error;
}
