import type { Command } from 'commander';
import { typedClient } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { connect } from '../connect.js';
import { EXIT, printJson, type CliIo } from '../output.js';

export function registerInfo(program: Command, io: CliIo, run: (action: () => Promise<number>, json?: boolean) => Promise<void>): void {
  program
    .command('info')
    .description("show the running Steward's version, protocol and status")
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const connection = connect(resolveHome(io.env), io.env);
        try {
          const info = await typedClient(connection.transport).call('App.Info', {});
          if (options.json) printJson(io, { ...info, via: connection.via });
          else
            io.stdout(
              `Steward ${info.version} (protocol ${info.protocol}) — ${info.status.state}${info.status.paused ? ', paused' : ''}: ${info.status.message}\n` +
                `reached ${connection.via === 'owner' ? 'the running owner' : 'the stores in-process'}; home from ${info.homeKind}\n`,
            );
          return EXIT.ok;
        } finally {
          await connection.close();
        }
      }, options.json),
    );
}
