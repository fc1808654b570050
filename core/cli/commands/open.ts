import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import writeFileAtomic from 'write-file-atomic';
import { StewardError } from '../../api/index.js';
import { HOME_FILES, PRIVATE_FILE_MODE, resolveHome } from '../../config/index.js';
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

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A page in STEWARD_HOME, readable by this user alone, that sends the browser on to the panel's
 * address: the opener is given this page's file address, never the token, which a command line would
 * show every account on the machine (`ps`). The token is in daemon.json beside it already.
 */
function openerPage(homeDir: string, url: string): string {
  const file = join(homeDir, HOME_FILES.panelOpener);
  const href = escapeHtml(url);
  const page = `<!doctype html>\n<meta charset="utf-8">\n<meta name="referrer" content="no-referrer">\n<meta http-equiv="refresh" content="0;url=${href}">\n<title>Steward</title>\n<p><a href="${href}">Open the Steward control panel</a></p>\n`;
  writeFileAtomic.sync(file, page, { mode: PRIVATE_FILE_MODE });
  return pathToFileURL(file).href;
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
          await launch(opener.command, [...opener.args, openerPage(resolveHome(io.env).dir, url)]);
        } catch {
          throw new StewardError('unsupported', `Could not start ${opener.command} to open the browser; open this address yourself: ${url}`);
        }
        io.stdout('Opened the control panel in your browser.\n');
        return EXIT.ok;
      }),
    );
}
