import type { Command } from 'commander';
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
 * Why there is nothing to print, and what gives this folder notes: new activity that the sweeper
 * curates, or a run now. History imported from before Steward ran is stored but never curated by
 * itself (only live turns arm a sweep), so "once conversations are imported" would be untrue for it.
 */
export const NO_NOTES =
  'no notes for this folder yet. The sweeper writes them a little while after new conversation here; conversations from before Steward started are stored but not summarized until you ask: run `steward sweeper run PROJECT` (`steward projects` lists the names)';

export interface ContextOptions {
  hook?: boolean;
  cwd?: string;
  /** Steward's home, for a hook that runs where STEWARD_HOME is not set (Claude Code's environment). */
  home?: string;
}

/**
 * `steward context --hook`: a Claude Code SessionStart hook's answer, or nothing; always exit 0.
 * `steward context [--cwd DIR]`: the same notes as text, for a person. Neither opens a database.
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
  const context = sessionContext(options.cwd ?? process.cwd(), env);
  if (context === null) {
    // Nothing to print is a failure to a script (exit 1); a person is told how notes come.
    io.stderr(`steward: ${NO_NOTES}\n`);
    return 1;
  }
  io.stdout(`${context.text}\n`);
  return 0;
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
