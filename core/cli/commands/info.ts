import type { Command } from 'commander';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

export function registerInfo(program: Command, io: CliIo, run: Run): void {
  program
    .command('info')
    .description("show the running Steward's version, protocol and status")
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client, via) => {
          const info = await client.call('App.Info', {});
          if (options.json) printJson(io, { ...info, via });
          else
            io.stdout(
              `Steward ${info.version} (protocol ${info.protocol}) — ${info.status.state}${info.status.paused ? ', paused' : ''}: ${info.status.message}\n` +
                `reached ${via === 'owner' ? 'the running owner' : 'the stores in-process'}; home from ${info.homeKind}\n`,
            );
          return EXIT.ok;
        });
      }, options.json),
    );
}
