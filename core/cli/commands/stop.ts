import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { StewardError } from '../../api/index.js';
import { httpTransport } from '../connect.js';
import { runningOwner, waitForExit } from '../launch.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

const STOP_TIMEOUT_MS = 60_000;
/** How long, once it let go of the stores, its process is given to end before the words say it is still ending. */
const EXIT_TIMEOUT_MS = 15_000;

/**
 * `steward stop`: asks the running owner (the app or `steward serve`, in the background or not) to
 * stop, and waits until it has let go of the stores and its process has ended. Undoes what `maintenance enable` started.
 */
export function registerStop(program: Command, io: CliIo, run: Run): void {
  program
    .command('stop')
    .description('stop the running Steward (the app or `steward serve`); it finishes what it is writing first')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const daemon = await runningOwner(io.env);
        if (!daemon) {
          if (options.json) printJson(io, { stopped: false, running: false });
          else io.stdout('Steward is not running.\n');
          return EXIT.ok;
        }
        await httpTransport(daemon).call('App.Stop', {});
        const deadline = Date.now() + STOP_TIMEOUT_MS;
        while ((await runningOwner(io.env))?.pid === daemon.pid) {
          if (Date.now() > deadline) throw new StewardError('busy', `Steward (pid ${daemon.pid}) was asked to stop but is still finishing its work; try again in a moment.`);
          await sleep(100);
        }
        const exited = await waitForExit(daemon.pid, EXIT_TIMEOUT_MS);
        if (options.json) printJson(io, { stopped: true, running: false, pid: daemon.pid, ...(exited ? {} : { exited: false }) });
        else io.stdout(exited ? `Stopped Steward (pid ${daemon.pid}).\n` : `Steward (pid ${daemon.pid}) let go of the stores; its process is still ending.\n`);
        return EXIT.ok;
      }, options.json),
    );
}
