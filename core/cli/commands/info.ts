import type { Command } from 'commander';
import { statusLines } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

export function registerInfo(program: Command, io: CliIo, run: Run): void {
  program
    .command('info')
    .description("show the running Steward's version, status and control panel address")
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client, via, connection) => {
          const info = await client.call('App.Info', {});
          const url = connection.panelUrl;
          if (options.json) printJson(io, { ...info, via, ...(url ? { url } : {}) });
          else {
            const [headline, ...rest] = statusLines(info.status);
            io.stdout(
              `Steward ${info.version} (protocol ${info.protocol}) — ${headline}\n` +
                rest.map((line) => `  ${line}\n`).join('') +
                (url ? `Control panel: ${url}\n` : 'Not running: `npm start` or `steward serve` starts it.\n') +
                `reached ${via === 'owner' ? 'the running owner' : 'the stores in-process'}; home from ${info.homeKind}\n`,
            );
          }
          return EXIT.ok;
        });
      }, options.json),
    );
}
