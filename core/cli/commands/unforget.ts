import type { Command } from 'commander';
import type { StewardClient } from '../../api/index.js';
import { withClient } from '../connect.js';
import { forgottenProjectKeyFor, type ProjectForm } from '../names.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';
import { target, type TargetOptions } from './forget.js';

/** What an unforget named, in the words of what the person gave (a session is a conversation in every word the CLI prints). */
const NAMED: Record<'session' | ProjectForm, string> = { session: 'conversation id', key: 'project key', folder: 'project folder', name: 'project name' };

/**
 * Lifts what `what` names. Nothing forgotten under it, however it was named (an id, a key, a folder,
 * or a name no forgotten project has), is one answer: nothing to lift, which is no failure, as
 * forgetting what is forgotten already is none.
 */
async function lift(client: StewardClient, what: ReturnType<typeof target>, home: string | undefined): Promise<{ lifted: boolean; named: string }> {
  if (what.kind === 'session') return { ...(await client.call('Forget.Lift', what)), named: NAMED.session };
  const { key, form } = await forgottenProjectKeyFor(client, what.id, '--project', home);
  const { lifted } = key === undefined ? { lifted: false } : await client.call('Forget.Lift', { kind: 'project', id: key });
  return { lifted, named: NAMED[form] };
}

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
        const { lifted, named } = await withClient(io, (client) => lift(client, what, io.env.HOME));
        const noun = what.kind === 'session' ? 'conversation' : 'project';
        if (options.json) printJson(io, { lifted });
        else io.stdout(lifted ? `Lifted: the next \`steward backfill\` imports that ${noun} again.\n` : `Nothing was forgotten under that ${named}.\n`);
        return EXIT.ok;
      }, options.json),
    );
}
