import type { Command } from 'commander';
import { StewardError } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import type { CommandWait, Owner } from '../../server/index.js';
import { EXIT, parseIntOption, UsageError, type CliIo, type Run } from '../output.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

/**
 * What stops serve as `steward stop` does (daemon.json and the lock removed): Ctrl+C, a kill, and its
 * terminal closing (SIGHUP: a foreground server whose terminal closes is being closed by its person;
 * Node resets SIGHUP to its default, which ended the process with no clean-up at all).
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function registerServe(program: Command, io: CliIo, run: Run): void {
  program
    .command('serve')
    .description('run headless: own the stores and serve the control panel and JSON-RPC on loopback')
    .option('--port <n>', 'port to listen on (0 = any free port; default 47470, or the next free one)')
    .option('--host <host>', 'loopback host to bind: 127.0.0.1 or localhost', '127.0.0.1')
    .option('--home <dir>', "Steward's home folder, when the environment has no STEWARD_HOME (a start-at-login entry's does not)")
    .action((options: { port?: string; host: string; home?: string }) =>
      run(async () => {
        if (!LOOPBACK_HOSTS.includes(options.host)) throw new UsageError(`--host must be 127.0.0.1 or localhost; Steward never listens beyond this machine`);
        const port = options.port === undefined ? undefined : parseIntOption('--port', options.port, 0, 65_535);
        // Heard from here on, before the lock or daemon.json is written: a signal at any point of start-up
        // stops serve as `steward stop` does (a wait for a command ends, an owner that has started stops).
        const stop = stopSignals();
        try {
          return await serveUntilStopped(options, port, io, stop.signal);
        } finally {
          stop.quiet();
        }
      }),
    );
}

/** serve's start and run, with `stop` (stopSignals) heard throughout. */
async function serveUntilStopped(options: { home?: string }, port: number | undefined, io: CliIo, stop: AbortSignal): Promise<number> {
  // The server (and with it the whole Core) loads only when serving, not for `steward --help`.
  const { startOwner } = await import('../../server/index.js');
  // A server outlives its console: its lines never fail it. Stdout's going is noted in the log once
  // the owner is there (stdout is written only then); stderr's, by the Core's logger, which mirrors to it.
  const started: { owner?: Owner } = {};
  const said =
    (await io.lastingConsole?.((stream, code) => {
      if (stream === 'stdout') started.owner?.core.logger.warn('stdout went away; serving on without it', { code });
    })) ?? io;
  const whileCommandRuns = { onWait: waitNotices(said), signal: stop };
  // Stopped before it began: nothing was written, nothing to start.
  if (stop.aborted) return EXIT.ok;
  const env = options.home === undefined ? io.env : { ...io.env, STEWARD_HOME: options.home };
  const owner = await startOwner({ home: resolveHome(env), env, logToStderr: true, whileCommandRuns, ...(port !== undefined ? { port, strictPort: true } : {}) }).catch(
    (error: unknown) => {
      // An explicit --port is served exactly or not at all; say which port, not "internal error".
      if (port !== undefined && (error as { code?: unknown } | null)?.code === 'EADDRINUSE') {
        throw new StewardError('busy', `port ${port} is already in use; choose another --port, or --port 0 for any free port`);
      }
      throw error;
    },
  );
  started.owner = owner;
  if (!stop.aborted) said.stdout(`Steward control panel: ${owner.panelUrl}\n`);
  await untilStopped(owner, stop);
  return EXIT.ok;
}

/**
 * The stop signals, heard until `quiet`: the first aborts `signal`; a second (Ctrl+C again while it
 * stops) is no longer heard, and ends the process the default way. The handlers stay while it stops:
 * a library's exit hook (signal-exit) re-raises a signal it finds nobody else listening for.
 */
function stopSignals(): { signal: AbortSignal; quiet: () => void } {
  const stop = new AbortController();
  const quiet = () => STOP_SIGNALS.forEach((name) => process.off(name, onSignal));
  const onSignal = (name: NodeJS.Signals) => {
    if (!stop.signal.aborted) return stop.abort();
    quiet();
    if (process.listenerCount(name) === 0) process.kill(process.pid, name);
  };
  STOP_SIGNALS.forEach((name) => process.on(name, onSignal));
  return { signal: stop.signal, quiet };
}

/** Resolves once the owner has stopped: at a stop signal (it stops it, at once if one came while it started) or after `steward stop`. */
function untilStopped(owner: Owner, stop: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const onStop = () => void owner.stop().finally(resolve);
    if (stop.aborted) return onStop();
    stop.addEventListener('abort', onStop, { once: true });
    // `steward stop` stops the owner from inside; this process then ends like after a signal.
    void owner.stopped.then(() => {
      stop.removeEventListener('abort', onStop);
      resolve();
    });
  });
}

/**
 * What serve prints while a one-shot command (`steward backfill --all &`) holds the store: it starts
 * when the command finishes. Ctrl+C meanwhile ends the wait, and serve with it (nothing of the store is its own yet).
 */
function waitNotices(io: Pick<CliIo, 'stderr'>): (wait: CommandWait) => void {
  let told: number | undefined;
  return ({ pid, waitedMs }) => {
    if (pid !== told) io.stderr(`A steward command (pid ${pid}) is using the store; starting when it finishes…\n`);
    else io.stderr(`Still waiting for the steward command (pid ${pid}) to finish (${Math.round(waitedMs / 1000)} s so far)…\n`);
    told = pid;
  };
}
