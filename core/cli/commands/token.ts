import type { Command } from 'commander';
import { StewardError } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { panelUrlOf, withClient } from '../connect.js';
import { runningOwner } from '../launch.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

/**
 * `steward token`: the token as it is used, in the control panel's address (what `steward info` prints as
 * "Control panel:"). A person who types the noun its help names wants the token; the address is the one
 * form of it that opens the panel. Read from daemon.json, without loading the stores.
 */
async function showToken(io: CliIo, json: boolean): Promise<number> {
  const daemon = await runningOwner(io.env);
  if (!daemon) throw new StewardError('not_found', 'Steward is not running, so the control panel has no address yet: start it with `npm start` or `steward serve`, then run `steward token`.');
  const url = panelUrlOf(daemon);
  if (json) printJson(io, { url });
  else io.stdout(`Control panel: ${url}\n`);
  return EXIT.ok;
}

/** `steward token` shows the panel's address with its token; `token rotate` replaces the per-install token (every open tab and client with the old one is refused). */
export function registerToken(program: Command, io: CliIo, run: Run): void {
  const token = program
    .command('token')
    .description("the control panel's access token: shows the panel's address with it")
    .usage('[options] [command]')
    .option('--json', 'print JSON')
    // A word after `token` names a command it lacks (`token rotat`): refused as commander refuses one in a
    // group, with its did-you-mean (its own method: with an action, commander takes the word as an argument).
    .argument('[command]')
    .action((word: string | undefined, options: { json?: boolean }) => {
      if (word !== undefined) (token as unknown as { unknownCommand(): never }).unknownCommand();
      return run(() => showToken(io, options.json === true), options.json);
    });
  token
    .command('rotate')
    .description('replace the control panel token: open tabs must use the new address')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client, via) => {
          const { rotatedAt } = await client.call('App.RotateToken', {});
          // The owner rewrote daemon.json before it answered; read the new address from there.
          const daemon = via === 'owner' ? (await import('../../server/index.js')).readDaemonInfo(resolveHome(io.env).dir) : undefined;
          const url = daemon ? panelUrlOf(daemon) : undefined;
          if (options.json) printJson(io, { rotatedAt, via, ...(url ? { url } : {}) });
          else if (url) io.stdout(`The control panel token is replaced; open tabs must use the new address:\n${url}\n`);
          else io.stdout('The control panel token is replaced; Steward uses it from its next start.\n');
          return EXIT.ok;
        });
      }, options.json),
    );
}
