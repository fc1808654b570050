import { localDay, missingOf, noStoredProjectWords, ProjectKey, projectsNamed, repoMatches, StewardError, type ForgetCover, type NamedProject, type StewardClient, type Tombstone } from '../api/index.js';
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
  throw new UsageError(`${option}: ${keys.length} projects are called ${JSON.stringify(text)} (${keys.join(', ')}); give one of those keys (\`steward projects\` lists each with its folder)`);
}

/**
 * The projectKey a person meant by `--project` (or a project argument): a key as it is, else the
 * project of that name or slug among those `steward projects` lists. A key is passed on unchecked:
 * the contract says whether it is known.
 */
export async function projectKeyFor(client: StewardClient, text: string, option = '--project'): Promise<string> {
  if (ProjectKey.safeParse(text).success) return text;
  const { projects } = await client.call('Projects.List', {});
  if (projectsNamed(text, projects).length === 0) await refuseForgottenProject(client, text, option);
  return oneProject(option, text, projects, '`steward projects`');
}

/**
 * The key of a project Steward holds, named by key or by name: a key nothing holds (a typo, a forgotten
 * project's) is refused in the words a name is (mustBeStoredProject), not the contract's own.
 */
export async function storedProjectKeyFor(client: StewardClient, text: string, option: string): Promise<string> {
  const key = await projectKeyFor(client, text, option);
  // A name was resolved among the stored projects already; a key was passed on unchecked.
  if (key === text) await mustBeStoredProject(client, key, option);
  return key;
}

/** The forgotten projects among `tombstones`, named as `steward forget --list` shows them (their key, and the name they had). */
export function asNamedProjects(tombstones: readonly Tombstone[]): NamedProject[] {
  return tombstones.filter((t) => t.kind === 'project').map((t) => ({ projectKey: t.id, name: t.label ?? '' }));
}

/** What the person forgot, or none when the owner cannot say (the plain not-found words are said then). */
async function forgetRecords(client: StewardClient): Promise<Tombstone[]> {
  try {
    return (await client.call('Forget.List', {})).tombstones;
  } catch {
    return [];
  }
}

/** A project the person forgot is not "no project is called": say when, and the way back. */
async function refuseForgottenProject(client: StewardClient, text: string, option: string): Promise<void> {
  const forgotten = (await forgetRecords(client)).filter((t) => t.kind === 'project' && projectsNamed(text, asNamedProjects([t])).length > 0);
  const [first] = forgotten;
  if (!first) return;
  // Its name brings it back when it names one forgotten project; else its key does.
  const back = forgotten.length === 1 ? text : first.id;
  throw new StewardError('not_found', `${option}: you forgot the project ${JSON.stringify(text)} on ${localDay(first.createdAt)}; \`steward unforget --project ${back}\` brings it back`);
}

/** The forget record that covers a conversation id (see Forget.Of), or none (none too when the owner cannot say). */
export async function forgetRecordCovering(client: StewardClient, sessionId: string): Promise<ForgetCover | null> {
  try {
    return (await client.call('Forget.Of', { sessionId })).record;
  } catch {
    return null;
  }
}

/**
 * A conversation the person forgot (or whose parent they forgot, for a subagent, or whose project) is
 * said to be forgotten, with when and the way back, as the panel says it; a part not in a stored
 * conversation is said as it is, and any other "not found" reads as wholeSessionId says it.
 */
export function forgottenOrWhole(client: StewardClient, sessionId: string): (error: unknown) => Promise<never> {
  return async (error) => {
    if (!(error instanceof StewardError && error.code === 'not_found') || missingOf(error) === 'part') throw error;
    const record = await forgetRecordCovering(client, sessionId);
    if (record?.via === 'self') throw new StewardError('not_found', `You forgot this conversation on ${localDay(record.createdAt)}; \`steward unforget --session ${record.id}\` brings it back`);
    if (record?.via === 'parent') throw new StewardError('not_found', `You forgot the conversation this subagent belongs to on ${localDay(record.createdAt)}; \`steward unforget --session ${record.id}\` brings both back`);
    if (record?.via === 'project') {
      const name = record.label === null ? '' : ` ${JSON.stringify(record.label)}`;
      throw new StewardError('not_found', `You forgot the project${name} this conversation was in on ${localDay(record.createdAt)}; \`steward unforget --project ${record.id}\` brings it back`);
    }
    return wholeSessionId(error);
  };
}

/**
 * A key Steward holds no project under is `not_found`, as a name nothing holds is (oneProject): a
 * filter on it would select nothing, and "No matches." would say it was searched.
 */
export async function mustBeStoredProject(client: StewardClient, projectKey: string, option = '--project'): Promise<void> {
  const { projects } = await client.call('Projects.List', {});
  if (projects.some((p) => p.projectKey === projectKey)) return;
  const forgotten = (await forgetRecords(client)).find((t) => t.kind === 'project' && t.id === projectKey);
  if (forgotten) throw new StewardError('not_found', `${option}: you forgot the project ${projectKey} on ${localDay(forgotten.createdAt)}; \`steward unforget --project ${projectKey}\` brings it back`);
  throw new StewardError('not_found', `${option}: ${noStoredProjectWords(projectKey, projects.length > 0)}`);
}

/**
 * A repository no stored project belongs to is `not_found`, as an unknown project key is: `--repo`
 * would select nothing, and "No matches." would say it was searched. Projects.List gives each project's
 * repository; the match is the one Search.Query narrows by (repoMatches).
 */
export async function mustBeStoredRepo(client: StewardClient, repo: string, option = '--repo'): Promise<void> {
  const { projects } = await client.call('Projects.List', {});
  if (!repoMatches(repo, projects.map((p) => p.repoId))) throw new StewardError('not_found', `${option}: no stored project belongs to the repository ${repo}; \`steward projects\` shows each project's repository`);
}

/** A folder as a person types one: absolute, home-relative, or a Windows drive or share. */
const FOLDER = /^(?:\/|~(?:\/|$)|[A-Za-z]:[\\/]|\\\\)/;

/**
 * The key of the project a folder names (`/home/ana/src/app`, `~/src/app`), as capture keys its
 * conversations, whether or not it was ever imported; undefined when `text` is no folder.
 */
export async function folderProjectKey(text: string, home: string | undefined): Promise<string | undefined> {
  if (!FOLDER.test(text)) return undefined;
  // Loaded when a folder is named: the projects room brings the stores, which `steward --help` must not load.
  const { normalizeCwd, projectKeyOf } = await import('../projects/index.js');
  return projectKeyOf(normalizeCwd(text.startsWith('~') && home ? `${home}${text.slice(1)}` : text));
}

/** What is forgotten under exactly this kind and id, or none (none too when the owner cannot say). */
export async function forgetRecordOf(client: StewardClient, kind: Tombstone['kind'], id: string): Promise<Tombstone | undefined> {
  return (await forgetRecords(client)).find((t) => t.kind === kind && t.id === id);
}

/** How a person named a project: by its key, its folder or its name (or slug). */
export type ProjectForm = 'key' | 'folder' | 'name';

/**
 * The same for a forgotten project (`unforget --project`): its row is gone, so its name comes from what
 * `steward forget --list` shows; a folder names the key it was forgotten under, as `forget` keyed it.
 * `key` is undefined when the name names no forgotten project: as a key or a folder nothing is forgotten
 * under, it is nothing to lift (a name two forgotten projects share is still the command line's to fix).
 */
export async function forgottenProjectKeyFor(client: StewardClient, text: string, option = '--project', home?: string): Promise<{ key: string | undefined; form: ProjectForm }> {
  if (ProjectKey.safeParse(text).success) return { key: text, form: 'key' };
  const folder = await folderProjectKey(text, home);
  if (folder !== undefined) return { key: folder, form: 'folder' };
  const { tombstones } = await client.call('Forget.List', {});
  const forgotten = asNamedProjects(tombstones);
  if (projectsNamed(text, forgotten).length === 0) return { key: undefined, form: 'name' };
  return { key: oneProject(option, text, forgotten, '`steward forget --list`'), form: 'name' };
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
