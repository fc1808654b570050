import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ProjectSummary, Tombstone } from '../../api/index.js';
import { HOME_FILES, resolveHome } from '../../config/paths/index.js';
import { forgottenProjectContaining, isTooWideForProject, normalizeCwd, userHomeDir } from '../../projects/folder/index.js';
import { hookAnswer, sessionContext } from '../../sweeper/context/index.js';
import type { CliIo, Run } from '../output.js';

/** Stdin a hook may send is small; more than this is not a hook's input. */
const STDIN_MAX_BYTES = 1024 * 1024;
const STDIN_WAIT_MS = 2_000;

/** Everything on stdin, bounded in size and in time (an agent that never closes it does not hang the hook). */
export function readStdin(stream: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stream.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      // Let go of stdin so nothing keeps the process alive once the answer is written.
      stream.removeAllListeners('data');
      stream.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, STDIN_WAIT_MS);
    timer.unref();
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > STDIN_MAX_BYTES) return done();
      chunks.push(chunk);
    });
    stream.on('end', done);
    stream.on('error', done);
  });
}

/**
 * Why there are no notes for a project Steward knows, and what gives it notes: new activity that the
 * sweeper curates, or a run now. History imported from before Steward ran is stored but never curated
 * by itself (only live turns arm a sweep), so "once conversations are imported" would be untrue for it.
 * `project`: how `steward sweeper run` names it.
 */
export function noNotes(project: string, name = 'this folder'): string {
  return `no notes for ${name} yet. The sweeper writes them a little while after new conversation here; conversations from before Steward started are stored but not summarized until you ask: run \`steward sweeper run ${project}\``;
}

/** Said when Steward could not be asked which project holds the folder. */
export const NO_NOTES = `${noNotes('PROJECT')} (\`steward projects\` lists the names)`;

/** The other reasons there is nothing to print, each plainly (MCP's project_overview says the same rules). */
export const CONTEXT_MISSES = {
  tooWide: 'that folder is a filesystem root or your home folder, which never stands for a project (an agent started there works on no one project); give a project folder inside it',
  noHomeGiven: '--home: that folder holds no Steward data (nothing was ever stored there); give the folder STEWARD_HOME names where Steward runs',
  nothingStored: 'Steward has stored no conversations yet, so no folder has notes; `steward backfill` imports the history your agents keep',
  noProject: 'Steward knows no project containing that folder yet',
} as const;

/** Said for the folder of a project the person forgot (Steward knows it no more, and keeps no notes for it), with the way back. */
export function forgottenProjectWords(record: Pick<Tombstone, 'id' | 'label' | 'createdAt'>, day: string): string {
  const named = record.label ? `${record.label} (${record.id})` : record.id;
  return `You forgot the project ${named} on ${day}, so Steward keeps no notes for it; \`steward unforget --project ${record.id}\` brings it back`;
}

export interface ContextOptions {
  hook?: boolean;
  cwd?: string;
  /** Steward's home, for a hook that runs where STEWARD_HOME is not set (Claude Code's environment). */
  home?: string;
}

/**
 * `steward context --hook`: a Claude Code SessionStart hook's answer, or nothing; always exit 0.
 * `steward context [--cwd DIR]`: the same notes as text, for a person (escaped at a terminal) or for an
 * agent that runs it (through a pipe: the text as the hook hands it). Notes are read from files; only
 * a person's miss asks Steward (the owner, or the stores) which project holds the folder, to say why.
 */
export async function runContext(io: CliIo, options: ContextOptions, stdin: () => Promise<string> = () => readStdin()): Promise<number> {
  const env = options.home === undefined ? io.env : { ...io.env, STEWARD_HOME: options.home };
  if (options.hook) {
    try {
      io.stdout(hookAnswer(await stdin(), env));
    } catch {
      // A hook never fails the agent's session.
    }
    return 0;
  }
  const cwd = options.cwd === undefined ? process.cwd() : await folderFromHere(options.cwd);
  const context = sessionContext(cwd, env);
  if (context === null) {
    // Nothing to print is a failure to a script (exit 1); a person is told why, and how notes come.
    // The reason may name the project (its folder's name): escaped as every message to a person is.
    const { terminalText } = await import('../output.js');
    io.stderr(`steward: ${terminalText(await whyNoNotes(cwd, env, options.home !== undefined))}\n`);
    return 1;
  }
  io.stdout(`${await forStdout(io, context.text)}\n`);
  return 0;
}

/**
 * The notes as an agent reads them (through a pipe, as the hook's are), or at a person's terminal with
 * their controls shown escaped (terminalText: the project's name comes from its folder's), as an export
 * is printed. Loaded only at a terminal: the fast path stays light.
 */
async function forStdout(io: CliIo, text: string): Promise<string> {
  if (io.stdoutIsTerminal?.() !== true) return text;
  const { terminalText } = await import('../output.js');
  return terminalText(text);
}

/**
 * The folder --cwd names, a relative one read from the folder the command runs in, as every command
 * reads one: here that is the person's own (MCP's project_overview still refuses one, its server's
 * folder not being the agent's). A Windows folder is absolute on any system, so it is kept as given.
 * Loaded only for --cwd: the hook never needs it.
 */
async function folderFromHere(cwd: string): Promise<string> {
  const { isAbsoluteFolder } = await import('../../projects/index.js');
  return isAbsoluteFolder(cwd) ? cwd : resolve(cwd);
}

/**
 * Why a folder has no notes, in the order a person can fix it: a folder too wide to be a project, a
 * home with nothing stored (a mistyped --home; nothing is opened, let alone created, there), a folder
 * no project contains, else the project's notes are not written yet.
 */
async function whyNoNotes(cwd: string, env: NodeJS.ProcessEnv, homeGiven: boolean): Promise<string> {
  if (isTooWideForProject(normalizeCwd(cwd), userHomeDir(env))) return CONTEXT_MISSES.tooWide;
  if (!existsSync(join(resolveHome(env).dir, HOME_FILES.gateway))) return homeGiven ? CONTEXT_MISSES.noHomeGiven : CONTEXT_MISSES.nothingStored;
  const known = await projectsOf(env);
  if (known === undefined) return NO_NOTES;
  const { projectContaining } = await import('../../projects/index.js');
  const project = projectContaining(known, normalizeCwd(cwd), { home: userHomeDir(env) });
  if (project === null) return (await forgottenContaining(cwd, env)) ?? CONTEXT_MISSES.noProject;
  // By its name when that names it alone and a shell takes it as it is; else by its key.
  const byName = /^[\w.-]+$/.test(project.name) && known.filter((p) => p.name === project.name).length === 1;
  return noNotes(byName ? project.name : project.projectKey, project.name);
}

/** Said of the nearest forgotten project whose folder holds `cwd`, or undefined when none does (or Steward cannot be asked). */
async function forgottenContaining(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  let tombstones: Tombstone[];
  try {
    const { withClient } = await import('../connect.js');
    tombstones = (await withClient({ env }, (client) => client.call('Forget.List', {}))).tombstones;
  } catch {
    return undefined;
  }
  const record = forgottenProjectContaining(tombstones, cwd, { home: userHomeDir(env) });
  if (record === null) return undefined;
  const { localDay } = await import('../../api/index.js');
  return forgottenProjectWords(record, localDay(record.createdAt));
}

/** The projects Steward knows (Projects.List), or undefined when it cannot be asked. */
async function projectsOf(env: NodeJS.ProcessEnv): Promise<ProjectSummary[] | undefined> {
  try {
    const { withClient } = await import('../connect.js');
    return (await withClient({ env }, (client) => client.call('Projects.List', {}))).projects;
  } catch {
    return undefined;
  }
}

/**
 * The argument list of the fast path (bin/steward.js runs it without loading the rest of the CLI);
 * null sends anything else to the full CLI for its usage error, except under --hook, which never fails.
 */
export function parseContextArgs(argv: readonly string[]): ContextOptions | null {
  const options: ContextOptions = {};
  let unknown = false;
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--hook') options.hook = true;
    else if (argv[i] === '--cwd' && argv[i + 1] !== undefined) options.cwd = argv[++i]!;
    else if (argv[i] === '--home' && argv[i + 1] !== undefined) options.home = argv[++i]!;
    else unknown = true;
  }
  return unknown && !options.hook ? null : options;
}

export function registerContext(program: Command, io: CliIo, run: Run): void {
  program
    .command('context')
    .description("print Steward's notes for the project of a folder; --hook answers a Claude Code SessionStart hook (JSON on stdin)")
    .option('--hook', "read the hook's JSON on stdin and answer it; prints nothing and exits 0 on any problem")
    .option('--cwd <dir>', 'the folder (default: the current one)')
    .option('--home <dir>', "Steward's home folder, when the environment has no STEWARD_HOME (the hook's does not)")
    .action((options: ContextOptions) => run(() => runContext(io, options)));
}
