import type { Command } from 'commander';
import { withClient } from '../connect.js';
import { forgottenProjectKeyFor } from '../names.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';
import { target, type TargetOptions } from './forget.js';

/** `steward unforget --session ID | --project KEY`: lift a tombstone; the next backfill imports it again. */
export function registerUnforget(program: Command, io: CliIo, run: Run): void {
  program
    .command('unforget')
    .description('lift what `steward forget` keeps out; the next `steward backfill` imports it again')
    .option('--session <id>', 'a forgotten conversation')
    .option('--project <project>', 'a forgotten project: its name or key, as `steward forget --list` lists them, or its folder')
    .option('--json', 'print JSON')
    .action((options: TargetOptions & { json?: boolean }) =>
      run(async () => {
        const what = target(options, 'unforget');
        const result = await withClient(io, async (client) =>
          client.call('Forget.Lift', { kind: what.kind, id: what.kind === 'project' ? await forgottenProjectKeyFor(client, what.id, '--project', io.env.HOME) : what.id }),
        );
        // A session is a conversation in every word the CLI prints; --session keeps the contract's name.
        const noun = what.kind === 'session' ? 'conversation' : 'project';
        if (options.json) printJson(io, result);
        else io.stdout(result.lifted ? `Lifted: the next \`steward backfill\` imports that ${noun} again.\n` : `Nothing was forgotten under that ${noun} id.\n`);
        return EXIT.ok;
      }, options.json),
    );
}
