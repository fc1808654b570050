import type { Command } from 'commander';
import { countOf, localDay, ProjectKey, projectsNamed, StewardError, type ForgetResult, type ForgetVia, type NamedProject, type Result, type ScrubResult, type StewardClient, type Tombstone } from '../../api/index.js';
import { askOrRefuse } from '../confirm.js';
import { withClient } from '../connect.js';
import { asNamedProjects, folderProjectKey, forgetRecordCovering, forgetRecordOf, isStoredSession, oneProject } from '../names.js';
import { EXIT, localTime, printJson, printText, UsageError, type CliIo, type Run } from '../output.js';
import { withProgress } from '../progress.js';

export interface TargetOptions {
  session?: string;
  project?: string;
}

/** Every form `steward forget` takes, said when it is given none of them (or two). */
const FORGET_FORMS = 'forget takes one of: --session ID or --project PROJECT (either with --scrub to wipe the disk too), --scrub alone (wipes what earlier forgets deleted), or --list';

/** Exactly one of --session / --project; `forms`: the command's every form, when it has more. */
export function target(options: TargetOptions, verb: string, forms?: string): { kind: 'session'; id: string } | { kind: 'project'; id: string } {
  if ((options.session === undefined) === (options.project === undefined)) throw new UsageError(forms ?? `${verb} takes exactly one of --session ID or --project PROJECT`);
  return options.session !== undefined ? { kind: 'session', id: options.session } : { kind: 'project', id: options.project! };
}

/** The project a forget names, looked up before it goes: its name, and its conversations (subagents apart). */
export interface ForgottenProject {
  name: string;
  conversations: number;
}

/**
 * What a forget removed, in a person's words. The contract counts sessions (a subagent is a session of
 * its own) and parts (pieces of messages), not messages: so a conversation is "it", with its subagents
 * only when it had some, and a project's conversations are those it listed before it went.
 */
export function formatForget(result: ForgetResult, project?: ForgottenProject, name?: string, loss: Loss = NO_LOSS): string {
  const keptOut = `It stays out of future imports; \`steward unforget --${result.kind} ${result.id}\` lifts that.\n`;
  const ownLost = loss.lost - loss.onlySubagentsLost;
  // Its transcript was gone from disk (see Forget.Lost): nothing brings it back, and saying Unforget might would mislead.
  if (result.kind === 'session' && ownLost > 0 && result.removedSessions > 0) {
    return `Forgot conversation ${result.id}: deleted it from Steward for good. Its transcript was no longer on disk, so it cannot be brought back.\n`;
  }
  // A project listed before it went had a row, which a forget always removes: it was there, only empty.
  if (result.kind === 'project' && project && result.removedSessions === 0) {
    return `Removed the empty project ${project.name} (${result.id})${result.notesRemoved ? ' and its notes' : ''}; it held no conversations. ${keptOut}`;
  }
  // A project never imported, named by its folder, is called by the folder's own name (`name`), as its forget record is.
  const called = project?.name ?? name;
  const what = result.kind === 'session' ? `conversation ${result.id}` : called ? `project ${called} (${result.id})` : `project ${result.id}`;
  // Nothing stored under a session id is often a part of one: the tombstone keeps exactly the id typed.
  const nothing = result.kind === 'session' ? 'nothing was stored under that id (a conversation is named by its whole id, as `steward sessions list` prints it)' : 'nothing was stored';
  const removed = result.removedSessions === 0 ? nothing : `deleted ${removedWhat(result, project)} from Steward`;
  const gone = loss.lost > 0 && result.removedSessions > 0 ? `${lostWords(result.kind, loss)} ` : '';
  return `Forgot ${what}: ${removed}. ${gone}${keptOut}`;
}

const NO_LOSS: Loss = { lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };

/** `1 of its subagents' transcripts is` / `2 of its subagents' transcripts are` (`was`/`were` once forgotten). */
function subagentsGoneWords(subagents: number, past: boolean): string {
  const verb = subagents === 1 ? (past ? 'was' : 'is') : past ? 'were' : 'are';
  return `${subagents} of its subagents' transcripts ${verb} no longer on disk`;
}

/**
 * What a forget deleted for good (a conversation whose own transcript was gone is said apart, whole):
 * a conversation's subagents whose transcripts were gone; a project's conversations whose own were,
 * and those that kept theirs but lost subagents'.
 */
function lostWords(kind: 'session' | 'project', loss: Loss): string {
  if (kind === 'session') return `${subagentsGoneWords(loss.subagentsLost, true)}: ${loss.subagentsLost === 1 ? 'that subagent' : 'those subagents'} cannot be brought back.`;
  const own = loss.lost - loss.onlySubagentsLost;
  const only = loss.onlySubagentsLost;
  const ownWords = own === 0 ? '' : own === 1 ? '1 of them cannot be brought back: its transcript was no longer on disk.' : `${own} of them cannot be brought back: their transcripts were no longer on disk.`;
  const transcripts = loss.subagentsLost === 1 ? "1 subagent's transcript was" : `${loss.subagentsLost} subagents' transcripts were`;
  const subWords = only === 0 ? '' : `${own > 0 ? `${only} more` : `${only} of them`} lost subagents for good: ${transcripts} no longer on disk.`;
  return [ownWords, subWords].filter(Boolean).join(' ');
}

/**
 * Said before a forget that deletes the only copy of something (Forget.Lost): a conversation whose
 * transcript is no longer on disk, or whose subagents' are not; a project's that are not.
 */
export function lostWarning(kind: 'session' | 'project', loss: Loss & { conversations: number }, name: string): string {
  const own = loss.lost - loss.onlySubagentsLost;
  if (kind === 'session') {
    if (own > 0) return `Conversation ${name}'s transcript is no longer on disk: Steward holds the only copy. Forgetting it deletes it for good.\n`;
    return `Conversation ${name}: ${subagentsGoneWords(loss.subagentsLost, false)}: Steward holds their only copy; forgetting deletes them for good.\n`;
  }
  const { conversations } = loss;
  const only = loss.onlySubagentsLost;
  const has = (n: number) => (n === 1 ? 'has' : 'have');
  const which = own === conversations ? (own === 1 ? 'Its 1 conversation has' : `All ${countOf(own, 'conversation')} have`) : `${own} of its ${countOf(conversations, 'conversation')} ${has(own)}`;
  const ownWords = own === 0 ? '' : `${which} no transcript left on disk`;
  const subWords = only === 0 ? '' : `${own > 0 ? `${only} more` : `${only} of its ${countOf(conversations, 'conversation')}`} ${has(only)} subagents whose transcripts are no longer on disk`;
  const one = own + loss.subagentsLost === 1;
  return `Project ${name}: ${[ownWords, subWords].filter(Boolean).join(', and ')}: Steward holds the only copy. Forgetting the project deletes ${one ? 'it' : 'them'} for good.\n`;
}

/** What a forget deletes for good (Forget.Lost): how many conversations lose something for good (and of those, subagents' only), and how many are not known. */
type Loss = Pick<Result<'Forget.Lost'>, 'lost' | 'onlySubagentsLost' | 'subagentsLost' | 'unknown'>;

/**
 * Before a forget, whether it deletes the only copy of a conversation (Forget.Lost): said first, and then
 * asked in a terminal unless --yes; where nobody can answer, refused without --yes, as other verbs that
 * cannot be undone are. Returns the loss, or null when the person said no. One whose files Steward never
 * recorded (`unknown`: imported before it kept track) is not said: most of an upgraded store is, for
 * long, and a warning on nearly every forget, about what is most likely still on disk, would teach
 * people to pass over the one that is sure.
 */
async function confirmLoss(io: CliIo, client: StewardClient, what: { kind: 'session' | 'project'; id: string; name: string }, yes: boolean): Promise<Loss | null> {
  const { conversations, ...loss } = await client.call('Forget.Lost', { kind: what.kind, id: what.id });
  if (loss.lost === 0 || yes) return loss;
  const warning = lostWarning(what.kind, { conversations, ...loss }, what.name);
  // What it would forget, in Forget.Lost's counts, for a script that asked --json (askOrRefuse carries it).
  const plan = { kind: what.kind, id: what.id, conversations, ...loss };
  const asking = { question: 'Forget it for good?', refused: 'Nothing was forgotten.', remediation: 'Pass --yes to forget it all the same.', plan };
  return (await askOrRefuse(io, warning, asking)) ? loss : null;
}

/** `it and its 2 subagents` / `its 3 conversations (with 1 subagent) and its notes`. */
function removedWhat(result: ForgetResult, project: ForgottenProject | undefined): string {
  const notes = result.notesRemoved ? ' and its notes' : '';
  if (result.kind === 'session') {
    const subagents = result.removedSessions - 1;
    return subagents > 0 ? `it and its ${countOf(subagents, 'subagent')}` : 'it';
  }
  // A project listed before it went says how many conversations; one not listed, how many sessions its key held.
  if (!project) return `its ${countOf(result.removedSessions, 'session')}${notes}`;
  const conversations = Math.min(project.conversations, result.removedSessions);
  const subagents = result.removedSessions - conversations;
  return `its ${countOf(conversations, 'conversation')}${subagents > 0 ? ` (with ${countOf(subagents, 'subagent')})` : ''}${notes}`;
}

/** What to do about an id, a key or a folder nothing is stored under, in the CLI's flags. */
const NOT_STORED_CLI = {
  session: 'Give the whole id, as `steward sessions list` prints it; to forget a conversation Steward has not imported (keeping it out of future imports), add --not-stored.',
  project: "`steward projects` lists each project's name and key; to forget a project Steward has not imported (keeping it out of future imports), add --not-stored.",
} as const;

/**
 * The core refuses an id it holds nothing under unless `notStored` says it is meant, in the call's words
 * (its param): said here with the CLI's flag (`--not-stored`) and verbs. A project named by a folder is
 * refused in the words of a folder; any other error passes as it is.
 */
function notStoredInCliWords(kind: 'session' | 'project', folder = false) {
  return (error: unknown): never => {
    if (!(error instanceof StewardError && error.code === 'not_found')) throw error;
    const message = folder ? 'No stored project is in that folder, so nothing was forgotten.' : error.message;
    throw new StewardError('not_found', message, { ...error.details, remediation: NOT_STORED_CLI[kind] });
  };
}

/** `--scrub` and `--not-stored` as the call's params: named only when asked, so an owner from before them still takes the call. */
const asked = (scrub: boolean, notStored: boolean) => ({ ...(scrub ? { scrub } : {}), ...(notStored ? { notStored } : {}) });

/**
 * What a forget did: removed (and kept out) what it named, or found it forgotten already, with nothing
 * to do; `via` says which record covers it: its own, the conversation it is a subagent of, or its project's.
 */
type Forgotten = { result: ForgetResult; project: ForgottenProject | undefined; name?: string; loss: Loss } | { already: Tombstone; via: ForgetVia } | { declined: true };

/** The session to forget, once it is known to be stored (or `--not-stored` says it need not be), unless it is forgotten already. */
async function forgetSession(io: CliIo, client: StewardClient, sessionId: string, anyway: boolean, scrub = false, yes = false): Promise<Forgotten> {
  if (!(await isStoredSession(client, sessionId))) {
    // Its own record, or (a subagent went with its conversation, and is kept out with it) its parent's.
    const covering = await forgetRecordCovering(client, sessionId);
    // With --scrub there is something to do still: wipe from the disk what the forget deleted. A
    // conversation kept out by its project's record alone gets its own with --not-stored, so that
    // unforgetting the project does not bring it back.
    if (covering && !scrub && !(anyway && covering.via === 'project')) {
      const { via, ...already } = covering;
      return { already, via };
    }
  }
  const loss = await confirmLoss(io, client, { kind: 'session', id: sessionId, name: sessionId }, yes);
  if (loss === null) return { declined: true };
  // Neither stored nor forgotten, and not --not-stored: the core refuses it (not_found) and changes nothing.
  return { result: await withProgress(io, client, 'forget', sessionId, client.call('Forget.Session', { sessionId, ...asked(scrub, anyway) }).catch(notStoredInCliWords('session'))), project: undefined, loss };
}

/**
 * The key of the project `text` names: a key as it is; a folder (`/home/ana/src/app`, `~/src/app`) as
 * capture keys its conversations, so a project never imported can be kept out with `--not-stored`;
 * else a name or slug among those `steward projects` lists, or, when none is, among those forgotten
 * (a forgotten project is listed no more: forgetting it again by its name is nothing to do).
 */
async function projectKeyNamed(client: StewardClient, text: string, projects: readonly NamedProject[], home: string | undefined): Promise<string> {
  if (ProjectKey.safeParse(text).success) return text;
  const folder = await folderProjectKey(text, home);
  if (folder !== undefined) return folder;
  if (projectsNamed(text, projects).length === 0) {
    const forgotten = asNamedProjects((await client.call('Forget.List', {})).tombstones);
    if (projectsNamed(text, forgotten).length > 0) return oneProject('--project', text, forgotten, '`steward forget --list`');
  }
  return oneProject('--project', text, projects, '`steward projects`');
}

/**
 * The project to forget, named as `steward projects` names it, or by its folder; its name and count are
 * read first, since once forgotten it is no longer listed. One never imported, named by its folder, is
 * remembered by the folder's own name, as a project is named (`steward forget --list`, `unforget`).
 */
async function forgetProject(io: CliIo, client: StewardClient, text: string, anyway: boolean, scrub = false, yes = false): Promise<Forgotten> {
  const home = io.env.HOME;
  const { projects } = await client.call('Projects.List', {});
  const projectKey = await projectKeyNamed(client, text, projects, home);
  const listed = projects.find((p) => p.projectKey === projectKey);
  if (!listed) {
    const already = await forgetRecordOf(client, 'project', projectKey);
    if (already && !scrub) return { already, via: 'self' };
  }
  const name = !listed && text !== projectKey ? folderName(text) : undefined;
  // No row to take its folder from: the record keeps the hashes of the one named, so other spellings
  // (and Gemini CLI's chats of it) stay out too.
  const folder = listed ? undefined : await folderHashesNamed(text, projectKey, home);
  const loss = await confirmLoss(io, client, { kind: 'project', id: projectKey, name: listed ? `${listed.name} (${projectKey})` : projectKey }, yes);
  if (loss === null) return { declined: true };
  // On a terminal, how far it has come meanwhile (`1,200 of 2,025 conversations and subagents deleted`), as the status says it.
  const forgetting = withProgress(io, client, 'forget', projectKey, client.call('Forget.Project', { projectKey, ...asked(scrub, anyway), ...(name ? { name } : {}), ...folder }));
  // Neither stored nor forgotten, and not --not-stored: the core refuses it (not_found) and changes nothing.
  const result = await forgetting.catch(notStoredInCliWords('project', text !== projectKey));
  return { result, project: listed && { name: listed.name, conversations: listed.sessions }, ...(name ? { name } : {}), loss };
}

/**
 * The hashes of the folder `text` names, when it names the project keyed `projectKey` by its folder (else
 * undefined): its folder hash (folderHashOf), and the names of the Gemini CLI hash folders
 * (`tmp/<sha256>`) Gemini would have made of it, as typed and in its stable form (`~/x/` → `/home/ana/x`).
 * Hashes only: the path never leaves the command line.
 */
async function folderHashesNamed(text: string, projectKey: string, home: string | undefined): Promise<{ folderHash: string; geminiFolders: string[] } | undefined> {
  if (text === projectKey || (await folderProjectKey(text, home)) !== projectKey) return undefined;
  // Loaded only then, as folderProjectKey loads it: the projects and transcripts rooms bring the stores.
  const [{ folderHashOf, normalizeCwd }, { KnownFolders }] = await Promise.all([import('../../projects/index.js'), import('../../transcripts/index.js')]);
  const folder = text.startsWith('~') && home ? `${home}${text.slice(1)}` : text;
  const geminiFolders = [...new Set([folder, normalizeCwd(folder)].flatMap((spelling) => KnownFolders.hashFoldersOf(spelling)))];
  return { folderHash: folderHashOf(folder), geminiFolders };
}

/** A folder's own name, as a project is named (`~/src/app/` → `app`). */
function folderName(folder: string): string | undefined {
  return folder.split(/[\\/]/).filter(Boolean).at(-1)?.slice(0, 200);
}

/**
 * `You forgot conversation X on 4 Dec 2026`: nothing to do, and the way back; `via` says whose record
 * it is (see Forget.Of), and a conversation kept out by its project's is told how to keep it out alone.
 */
export function formatAlreadyForgotten(record: Tombstone, via: ForgetVia = 'self', sessionId?: string): string {
  const named = record.kind === 'session' ? `conversation ${record.id}` : `project ${record.label ? `${record.label} (${record.id})` : record.id}`;
  const what = via === 'parent' ? 'the conversation this subagent belongs to' : via === 'project' ? `the ${named} this conversation was in` : named;
  const alone = via === 'project' && sessionId ? ` (\`steward forget --session ${sessionId} --not-stored\` keeps this conversation out even then)` : '';
  return `You forgot ${what} on ${localDay(record.createdAt)}: nothing more to do. It stays out of future imports; \`steward unforget --${record.kind} ${record.id}\` lifts that${alone}.\n`;
}

const WIPE_STOPPED = 'Wiping the disk stopped before it finished; the next start of Steward finishes it.\n';

/** What `--scrub` adds to a forget's answer. */
export function formatScrubbed(scrubbed: boolean | undefined, kind: ForgetResult['kind'] = 'project'): string {
  if (scrubbed === undefined) return '';
  // A conversation's title or first request is its own words: the forget record keeps neither.
  const named = kind === 'session' ? ' (`steward forget --list` names it by its app, day and project only)' : '';
  return scrubbed ? `Wiped from the disk too: gateway.db and its journal hold none of it${named}.\n` : WIPE_STOPPED;
}

/** `steward forget --scrub` alone: what earlier forgets deleted, wiped from the disk. */
export function formatScrub(result: ScrubResult): string {
  // The wipe drops the titles and first requests forgets without --scrub kept as names (Forgetting.#dropTextLabels).
  return result.complete
    ? `Wiped from the disk what earlier forgets deleted (${(result.durationMs / 1000).toFixed(1)} s): gateway.db and its journal hold none of it, and \`steward forget --list\` shows no conversation's title or first request.\n`
    : WIPE_STOPPED;
}

function formatTombstones(tombstones: Tombstone[]): string {
  if (tombstones.length === 0) return 'Nothing is forgotten.\n';
  return `${tombstones.map((t) => `${t.kind}  ${t.id}  ${localTime(t.createdAt)}  ${t.label ?? ''}`.trimEnd()).join('\n')}\n`;
}

/** `steward forget --session ID | --project KEY [--scrub] | --scrub | --list`: delete a conversation or project and keep it out. */
export function registerForget(program: Command, io: CliIo, run: Run): void {
  program
    .command('forget')
    .description('delete a conversation (with its subagents) or a whole project, and keep it from being imported again')
    .option('--session <id>', 'the conversation to forget')
    .option('--project <project>', 'the project to forget (its name or key, as `steward projects` lists them, or its folder): every conversation, its row and its notes')
    .option('--not-stored', 'forget an id Steward holds nothing under (a conversation or project not imported yet), to keep it out of future imports')
    .option('--scrub', 'also wipe what is deleted from the disk now (it rewrites the search index: seconds per 100,000 messages); alone, wipes what earlier forgets deleted')
    .option('--list', 'list what is forgotten')
    .option('--yes', 'forget without asking even what has no transcript left on disk (Steward holds the only copy: it is deleted for good)')
    .option('--json', 'print JSON')
    .action((options: TargetOptions & { notStored?: boolean; scrub?: boolean; list?: boolean; yes?: boolean; json?: boolean }) =>
      run(async () => {
        if (options.list) {
          if (options.session !== undefined || options.project !== undefined || options.notStored || options.scrub) throw new UsageError('--list takes no --session, --project, --not-stored or --scrub');
          const result = await withClient(io, (client) => client.call('Forget.List', {}));
          if (options.json) printJson(io, result);
          else printText(io, formatTombstones(result.tombstones));
          return EXIT.ok;
        }
        const scrub = options.scrub === true;
        if (scrub && options.session === undefined && options.project === undefined) {
          if (options.notStored) throw new UsageError('--scrub alone takes no --not-stored');
          const wiped = await withClient(io, (client) => client.call('Forget.Scrub', {}));
          if (options.json) printJson(io, wiped);
          else io.stdout(formatScrub(wiped));
          return EXIT.ok;
        }
        const what = target(options, 'forget', FORGET_FORMS);
        const anyway = options.notStored === true;
        const yes = options.yes === true;
        const done = await withClient(io, (client) => (what.kind === 'session' ? forgetSession(io, client, what.id, anyway, scrub, yes) : forgetProject(io, client, what.id, anyway, scrub, yes)));
        if ('declined' in done) {
          if (options.json) printJson(io, { forgotten: null });
          else io.stdout('Nothing was forgotten.\n');
          return EXIT.ok;
        }
        if ('already' in done) {
          if (options.json) printJson(io, { alreadyForgotten: done.already, ...(done.via === 'parent' && { subagentOf: done.already.id }) });
          else printText(io, formatAlreadyForgotten(done.already, done.via, what.id));
          return EXIT.ok;
        }
        // With Forget.Lost's counts: how many it deleted for good, and how many it could not tell.
        if (options.json) printJson(io, { ...done.result, ...done.loss });
        else printText(io, formatForget(done.result, done.project, done.name, done.loss) + formatScrubbed(done.result.scrubbed, done.result.kind));
        return EXIT.ok;
      }, options.json),
    );
}
