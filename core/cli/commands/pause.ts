import type { Command } from 'commander';
import { PAUSED_TEXT, StewardError, typedClient } from '../../api/index.js';
import { httpTransport } from '../connect.js';
import { runningOwner } from '../launch.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

const RESUMED_TEXT = 'Resumed — scheduled imports and note curation run again, starting with what fell due meanwhile';
const ALREADY = {
  pause: 'Already paused — scheduled imports and note curation wait until you resume',
  resume: 'Not paused — scheduled imports and note curation run as scheduled',
} as const;

/**
 * The status bar's and the tray's Pause (App.SetPaused). A pause lives in the running owner only, so
 * without one there is nothing to pause: an in-process Core would forget it as the command ends.
 */
async function setPaused(io: CliIo, paused: boolean, json: boolean): Promise<number> {
  const verb = paused ? 'pause' : 'resume';
  const daemon = await runningOwner(io.env);
  if (!daemon) throw new StewardError('not_found', `Steward is not running, so nothing is scheduled to ${verb}: start it with \`npm start\` or \`steward serve\`, then run \`steward ${verb}\`.`);
  const client = typedClient(httpTransport(daemon));
  const before = (await client.call('App.Info', {})).status.paused;
  const { status } = await client.call('App.SetPaused', { paused });
  if (json) {
    printJson(io, { paused: status.paused, changed: before !== status.paused, status });
    return EXIT.ok;
  }
  io.stdout(`${before === paused ? ALREADY[verb] : paused ? PAUSED_TEXT : RESUMED_TEXT}.\n`);
  return EXIT.ok;
}

/** `steward pause` / `steward resume`: scheduled imports and note curation wait, or run again; asked-for work runs either way. */
export function registerPause(program: Command, io: CliIo, run: Run): void {
  program
    .command('pause')
    .description('pause the running Steward: scheduled imports and note curation wait until `steward resume` (what you ask for, such as `steward sweeper run`, still runs)')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => run(() => setPaused(io, true, options.json ?? false), options.json));
  program
    .command('resume')
    .description('resume scheduled imports and note curation after `steward pause`')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => run(() => setPaused(io, false, options.json ?? false), options.json));
}
