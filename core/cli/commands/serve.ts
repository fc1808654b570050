import type { Command } from 'commander';
import { StewardError } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import type { CommandWait } from '../../server/index.js';
import { EXIT, parseIntOption, UsageError, type CliIo, type Run } from '../output.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

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
        // The server (and with it the whole Core) loads only when serving, not for `steward --help`.
        const { startOwner } = await import('../../server/index.js');
        const whileCommandRuns = { onWait: waitNotices(io) };
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
        io.stdout(`Steward control panel: ${owner.panelUrl}\n`);
        await new Promise<void>((resolve) => {
          const onSignal = () => {
            process.off('SIGINT', onSignal);
            process.off('SIGTERM', onSignal);
            void owner.stop().finally(resolve);
          };
          process.on('SIGINT', onSignal);
          process.on('SIGTERM', onSignal);
          // `steward stop` stops the owner from inside; this process then ends like after a signal.
          void owner.stopped.then(() => {
            process.off('SIGINT', onSignal);
            process.off('SIGTERM', onSignal);
            resolve();
          });
        });
        return EXIT.ok;
      }),
    );
}

/**
 * What serve prints while a one-shot command (`steward backfill --all &`) holds the store: it starts
 * when the command finishes. Ctrl+C meanwhile ends serve as ever (nothing of the store is its own yet).
 */
function waitNotices(io: CliIo): (wait: CommandWait) => void {
  let told: number | undefined;
  return ({ pid, waitedMs }) => {
    if (pid !== told) io.stderr(`A steward command (pid ${pid}) is using the store; starting when it finishes…\n`);
    else io.stderr(`Still waiting for the steward command (pid ${pid}) to finish (${Math.round(waitedMs / 1000)} s so far)…\n`);
    told = pid;
  };
}
