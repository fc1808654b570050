import type { Command } from 'commander';
import { countOf, lastCheckOf, nobodyIndexesNote, numberOf, percentDown, PROTOCOL_VERSION, ROOT_LEFT_OUT_WORDS, statusLines, StewardError, type CacheStats, type Result, type StewardClient } from '../../api/index.js';
import { resolveHome, stewardVersion } from '../../config/index.js';
import { commandHolding } from '../../store/lock/index.js';
import { panelUrlOf, withClient } from '../connect.js';
import { runningOwner } from '../launch.js';
import { formatUnreadable, leftOutWhy, setBy, whyNoFolder, type UnreadableAsOf } from './sweep.js';
import { configInFull, EXIT, localTime, printJson, type CliIo, type Run } from '../output.js';

/** What the stores hold: the counts, and the last check of the agents' folders (Sweep.Status's `lastCheckAt`, as Home says it). */
export interface Stored {
  conversations: number;
  messages: number;
  /** Projects holding a conversation: what the history comes from (Cache.Stats's rule, MCP's list_projects). */
  projects: number;
  /** Projects listed with no conversation left (forgotten or pruned): `steward projects` lists them, they count in no "from". */
  projectsEmpty: number;
  lastCheckedAt: number | null;
}

async function storedFacts(client: StewardClient, sweep: SweepStatus | undefined): Promise<Stored> {
  const stats: CacheStats = await client.call('Cache.Stats', {});
  // An owner from before lastCheckAt knows only its schedule's ticks.
  const lastCheckedAt = sweep ? lastCheckOf(sweep) : null;
  // Counted as `steward projects` words them ("no conversations left"), so the two lists add up.
  const { projects } = await client.call('Projects.List', {});
  const projectsEmpty = projects.filter((p) => p.sessions === 0).length;
  return { conversations: stats.conversations, messages: stats.messages, projects: stats.projects, projectsEmpty, lastCheckedAt };
}

type SweepStatus = Result<'Sweep.Status'>;

type Folders = Result<'Providers.Roots'>['providers'];

/** The agents' folders as the owner reads them; an owner from before Providers.Roots names none. */
async function agentFolders(client: StewardClient): Promise<Folders> {
  try {
    return (await client.call('Providers.Roots', {})).providers;
  } catch (error) {
    if (error instanceof StewardError && error.code === 'method_not_found') return [];
    throw error;
  }
}

/** `/x (found)`; a folder the person set that is none says why (a typo shows), a default one only that it is not there. */
function folderWords(folder: { path: string; exists: boolean }, byDefault: boolean): string {
  if (folder.exists) return `${folder.path} (found)`;
  if (byDefault) return `${folder.path} (not found)`;
  return `${folder.path} (${whyNoFolder(folder.path) === 'does not exist' ? 'does not exist' : 'not a folder'})`;
}

/**
 * Each agent's kinds of folder, by path (the person's own terminal; never in logs or status), with
 * whether each is there and what chose them: `  Codex CLI (set by STEWARD_CODEX_ROOTS): /x (does not exist)`.
 * An agent turned off reads none: said off. A folder left out (`leftOut`) is named on its own line, with why.
 */
function foldersBlock(providers: Folders): string {
  if (providers.length === 0) return '';
  const lines = providers.flatMap((p) => {
    if (!p.enabled) return [`  ${p.label}: off`];
    return p.roots.flatMap((kind) => {
      const folders = kind.watched.map((f) => folderWords(f, kind.source === 'default')).join(', ');
      // A folder the setting names that is not read is named under it, with why: not silently dropped.
      const leftOut = (kind.leftOut ?? []).map((f) => `    ${f.path} is left out: ${ROOT_LEFT_OUT_WORDS[f.reason]}`);
      // None read because the setting's folders were all left out: said why there, not a bare "none" (the way out follows).
      const none = kind.leftOut?.length ? `none read: ${kind.leftOut.map(leftOutWhy).join('; ')}` : 'none';
      return [`  ${kind.label} (${setBy(p.provider, kind)}): ${folders || none}`, ...leftOut];
    });
  });
  return `Transcript folders:\n${lines.map((line) => `${line}\n`).join('')}`;
}

/** When the folders were last checked and will be next; an owner from before Sweep.Status says neither. */
async function sweepStatus(client: StewardClient): Promise<SweepStatus | undefined> {
  try {
    return await client.call('Sweep.Status', {});
  } catch (error) {
    if (error instanceof StewardError && error.code === 'method_not_found') return undefined;
    throw error;
  }
}

/** Every count with separators, as countOf writes one ("1,500 more", not "1500 more"); --json keeps numbers. */
export function storedLine(stored: Stored): string {
  const empty = stored.projectsEmpty > 0 ? ` (${numberOf(stored.projectsEmpty)} more ${stored.projectsEmpty === 1 ? 'has' : 'have'} no conversations left)` : '';
  const counts = `${countOf(stored.messages, 'message')} in ${countOf(stored.conversations, 'conversation')} from ${countOf(stored.projects, 'project')}${empty}`;
  const last = stored.lastCheckedAt === null ? "the agents' folders were never checked" : `folders last checked ${localTime(stored.lastCheckedAt)}`;
  return `Stored: ${counts}; ${last}`;
}

type Indexing = Result<'Search.Indexing'>['indexing'];

/** How far the index's walks have come; an owner from before Search.Indexing says nothing of them. */
async function indexingOf(client: StewardClient): Promise<Indexing> {
  try {
    return (await client.call('Search.Indexing', {})).indexing;
  } catch (error) {
    if (error instanceof StewardError && error.code === 'method_not_found') return null;
    throw error;
  }
}

/**
 * The counts are written as parts are indexed, and an upgrade's recount (migration 22) rides on the
 * re-tag walk: until a walk ends they may still change (the answer does not say which walk holds a
 * recount, so "may"). With no owner nothing walks, and the search's own words say what finishes it.
 */
function countsPendingLines(indexing: Indexing, running: boolean): string[] {
  if (indexing === null) return [];
  const walk =
    indexing.phase === 'retag'
      ? `the search index is being updated (${percentDown(indexing.indexedParts, indexing.totalParts)} checked)`
      : `earlier history is still being indexed (${percentDown(indexing.indexedParts, indexing.totalParts)} done)`;
  const note = `Message counts may still change: ${walk}, and the counts are brought up to date with it.`;
  return running ? [note] : [note, nobodyIndexesNote(indexing)];
}

/** The transcript files that could not be read when last tried, named; an owner from before they were remembered names none. */
async function unreadableFiles(client: StewardClient): Promise<Result<'Sweep.Unreadable'>> {
  try {
    return await client.call('Sweep.Unreadable', {});
  } catch (error) {
    if (error instanceof StewardError && error.code === 'method_not_found') return { files: [], total: 0 };
    throw error;
  }
}

/**
 * When the unreadable list was found: at the last check, which the list stays as until the next
 * one (no file is looked at for `info`); the next is the running owner's, none without one.
 */
function unreadableAsOf(sweep: SweepStatus | undefined, running: boolean, checkedAt: number | null): UnreadableAsOf {
  return { checkedAt, nextCheckAt: running ? (sweep?.nextTickAt ?? null) : null };
}

/** How to start an owner: `steward serve` runs in this terminal, until it is stopped (Ctrl+C or `steward stop`). */
const START_HINT = 'To start it: `npm start` (the desktop app) or `steward serve` (headless, in this terminal until you stop it).\n';

/** Where the answer came from and where Steward keeps its files, never the path itself. */
function sourceLine(via: 'owner' | 'in-process', homeKind: 'env' | 'platform-default'): string {
  const folder = homeKind === 'env' ? 'the folder STEWARD_HOME names' : "this system's usual place for app data";
  return via === 'owner' ? `Answered by the running Steward, which keeps its files in ${folder}.\n` : `Read directly from Steward's files in ${folder}.\n`;
}

export function registerInfo(program: Command, io: CliIo, run: Run): void {
  program
    .command('info')
    .description("show the running Steward's version, status and control panel address")
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const answered = withClient(io, async (client, via, connection) => {
          const info = await client.call('App.Info', {});
          const url = connection.panelUrl;
          // With no owner, App.Info answers for this short-lived process, which schedules nothing: its
          // "Up to date" would be a claim nobody checks. Say it is not running, and what the stores hold.
          const running = via === 'owner';
          const status = running ? info.status : (await import('../../app/index.js')).notRunningStatus();
          // What the stores hold, running or not: the one line that says Steward has the person's history.
          const sweep = await sweepStatus(client);
          const stored = await storedFacts(client, sweep);
          // Counts an upgrade recounts, or history not yet indexed, are said to be pending beside them.
          const indexing = await indexingOf(client);
          // The status counts them; here, where the person looks, they are named, with what to do.
          const unreadable = await unreadableFiles(client);
          const asOf = unreadable.total > 0 ? unreadableAsOf(sweep, running, stored.lastCheckedAt) : undefined;
          // Where each agent is read from: a typo in a folder set by hand shows here, not as an empty history.
          const folders = await agentFolders(client);
          if (options.json) printJson(io, { ...info, status, via, running, ...(url ? { url } : {}), stored, indexing, folders, ...(unreadable.total > 0 ? { unreadable: { ...unreadable, ...asOf } } : {}) });
          else {
            const [headline, ...rest] = statusLines(status);
            const details = [...rest, storedLine(stored), ...countsPendingLines(indexing, running)];
            io.stdout(
              `Steward ${info.version} (protocol ${info.protocol}) — ${headline}\n` +
                details.map((line) => `  ${line}\n`).join('') +
                foldersBlock(folders) +
                formatUnreadable(unreadable.files, unreadable.total, asOf) +
                (url ? `Control panel: ${url}\n` : START_HINT) +
                sourceLine(via, info.homeKind),
            );
          }
          return EXIT.ok;
        });
        return answered.catch((error: unknown) => whileCommandRuns(io, error, options.json === true)).catch((error: unknown) => withBrokenConfig(io, error, options.json === true));
      }, options.json),
    );
}

/**
 * With no owner, a one-shot command (`steward backfill --all &`) holds the store until it finishes:
 * Steward is not running, and the counts wait for the command. Any other refusal is thrown as it was.
 */
async function whileCommandRuns(io: CliIo, error: unknown, json: boolean): Promise<number> {
  const pid = commandHolding(error);
  if (pid === undefined) throw error;
  const headline = `Not running; a steward command (pid ${pid}) is using the store`;
  const status = { ...(await import('../../app/index.js')).notRunningStatus(), message: headline };
  const version = stewardVersion();
  if (json) printJson(io, { version, protocol: PROTOCOL_VERSION, status, via: 'none', running: false, command: { pid } });
  else io.stdout(`Steward ${version} (protocol ${PROTOCOL_VERSION}) — ${headline}\n  What it stores shows when it finishes: run \`steward info\` again then.\n${START_HINT}`);
  return EXIT.ok;
}

/**
 * A settings file Steward cannot use stops every verb, this one included: yet `info` is what a person
 * runs to find out what is wrong. It says what it knows without the file (the version, where the files
 * are, whether an owner runs) and names the problem with the file's full path (their own terminal,
 * never a log). Exit 1 all the same: nothing else works until the file is fixed, and a script must see it.
 */
async function withBrokenConfig(io: CliIo, error: unknown, json: boolean): Promise<number> {
  if (!(error instanceof StewardError) || error.code !== 'config_invalid') throw error;
  const problem = configInFull(error, io.env).message;
  const home = resolveHome(io.env);
  const owner = await runningOwner(io.env);
  const version = stewardVersion();
  if (json) {
    const url = owner ? { url: panelUrlOf(owner) } : {};
    printJson(io, { version, protocol: PROTOCOL_VERSION, home: home.dir, homeKind: home.kind, running: owner !== undefined, ...url, error: { code: error.code, message: problem } });
    return EXIT.failure;
  }
  const headline = owner ? `Running (pid ${owner.pid}), but its settings file has a problem` : 'Not running; its settings file has a problem';
  const folder = home.kind === 'env' ? 'the folder STEWARD_HOME names' : "this system's usual place for app data";
  io.stdout(
    `Steward ${version} (protocol ${PROTOCOL_VERSION}) — ${headline}\n` +
      `  ${problem}\n` +
      '  Fix that file (or move it aside to start from the defaults), then run `steward info` again.\n' +
      (owner ? `Control panel: ${panelUrlOf(owner)}\n` : '') +
      `Steward keeps its files in ${home.dir} (${folder}).\n`,
  );
  return EXIT.failure;
}
