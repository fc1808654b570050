import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { StewardError } from '../../api/index.js';
import { panelUrlOf } from '../connect.js';
import { runningOwner } from '../launch.js';
import { EXIT, type CliIo, type Run } from '../output.js';

/** The platform's "open this address" command; STEWARD_OPENER replaces it (tests, unusual desktops). */
export function openerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { command: string; args: string[] } {
  if (env.STEWARD_OPENER) return { command: env.STEWARD_OPENER, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  return { command: 'xdg-open', args: [] };
}

/** Starts the opener and resolves once it started (or rejects when it could not). It runs on without us. */
function launch(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: command === 'cmd' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** `steward open`: the running owner's control panel in the default browser. */
export function registerOpen(program: Command, io: CliIo, run: Run): void {
  program
    .command('open')
    .description('open the control panel of the running Steward in your browser')
    .action(() =>
      run(async () => {
        const daemon = await runningOwner(io.env);
        if (!daemon) throw new StewardError('not_found', 'Steward is not running: start it with `npm start` or `steward serve`, then run `steward open`.');
        const url = panelUrlOf(daemon);
        const opener = openerFor(process.platform, io.env);
        try {
          await launch(opener.command, [...opener.args, url]);
        } catch {
          throw new StewardError('unsupported', `Could not start ${opener.command} to open the browser; open this address yourself: ${url}`);
        }
        io.stdout('Opened the control panel in your browser.\n');
        return EXIT.ok;
      }),
    );
}
