import type { Command } from 'commander';
import { StewardError } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { EXIT, parseIntOption, UsageError, type CliIo, type Run } from '../output.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

export function registerServe(program: Command, io: CliIo, run: Run): void {
  program
    .command('serve')
    .description('run headless: own the stores and serve the control panel and JSON-RPC on loopback')
    .option('--port <n>', 'port to listen on (0 = any free port; default 47470, or the next free one)')
    .option('--host <host>', 'loopback host to bind: 127.0.0.1 or localhost', '127.0.0.1')
    .action((options: { port?: string; host: string }) =>
      run(async () => {
        if (!LOOPBACK_HOSTS.includes(options.host)) throw new UsageError(`--host must be 127.0.0.1 or localhost; Steward never listens beyond this machine`);
        const port = options.port === undefined ? undefined : parseIntOption('--port', options.port, 0, 65_535);
        // The server (and with it the whole Core) loads only when serving, not for `steward --help`.
        const { startOwner } = await import('../../server/index.js');
        const owner = await startOwner({ home: resolveHome(io.env), env: io.env, logToStderr: true, ...(port !== undefined ? { port, strictPort: true } : {}) }).catch(
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
