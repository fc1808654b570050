import type { Command } from 'commander';
import { resolveHome } from '../../config/index.js';
import { panelUrlOf, withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

/** `steward token rotate`: a new per-install panel token; every open tab and client with the old one is refused. */
export function registerToken(program: Command, io: CliIo, run: Run): void {
  const token = program.command('token').description("the control panel's access token");
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
