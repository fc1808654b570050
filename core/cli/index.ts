// Owns: the `steward` command, one file per top-level verb in commands/, and reaching the running owner through daemon.json.
// Never: implements behaviour; every verb is a call on the contract, through the owner or an in-process Core.
import { Command, CommanderError } from 'commander';
import { stewardVersion } from '../config/index.js';
import { registerInfo } from './commands/info.js';
import { registerServe } from './commands/serve.js';
import { registerBackfill } from './commands/backfill.js';
import { registerSweep } from './commands/sweep.js';
import { registerProjects } from './commands/projects.js';
import { registerCache } from './commands/cache.js';
import { registerMaintenance } from './commands/maintenance.js';
import { registerRag } from './commands/setup.js';
import { registerStop } from './commands/stop.js';
import { registerPause } from './commands/pause.js';
import { registerSecrets } from './commands/secrets.js';
import { registerService } from './commands/service.js';
import { registerSweeper } from './commands/sweeper.js';
import { registerMcp } from './commands/mcp.js';
import { registerSearch } from './commands/search.js';
import { registerSessions } from './commands/sessions.js';
import { registerForget } from './commands/forget.js';
import { registerUnforget } from './commands/unforget.js';
import { registerContext } from './commands/context.js';
import { registerHooks } from './commands/hooks.js';
import { registerOpen } from './commands/open.js';
import { registerToken } from './commands/token.js';
import { EXIT, processIo, reportError, type CliIo } from './output.js';

export { connect, type Connection } from './connect.js';

/** How every verb ends, as README's "The command" says it. */
const EXIT_CODES = 'Exit codes: 0 success; 1 failure, among them an id or a name Steward holds nothing under (not_found); 2 usage error: an unknown verb or option, a value of the wrong form, a name two projects share.';

/** Builds the `steward` program; each top-level verb has its own file in commands/ and registers itself here. */
export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('steward')
    .description('Steward keeps the local memory of your AI coding agents current.')
    .version(stewardVersion(), '-v, --version')
    .showHelpAfterError('(steward --help lists the verbs)')
    .addHelpText('after', `\n${EXIT_CODES}`)
    // Commander's own complaints (an unknown option, a missing argument) start as Steward's do.
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(text.replace(/^error: /, 'steward: ')) })
    // Everything after the verb is the verb's: `steward search` reads a `--` and the flags of a command
    // it looks for itself (`rm -rf`), which the program would otherwise take or drop first.
    .enablePositionalOptions()
    .exitOverride();
  const run = async (action: () => Promise<number>, json = false) => {
    try {
      setExit(await action());
    } catch (error) {
      setExit(reportError(io, error, json));
    }
  };
  registerServe(program, io, run);
  registerStop(program, io, run);
  registerPause(program, io, run);
  registerInfo(program, io, run);
  registerOpen(program, io, run);
  registerToken(program, io, run);
  registerBackfill(program, io, run);
  registerSweep(program, io, run);
  registerProjects(program, io, run);
  registerCache(program, io, run);
  registerMaintenance(program, io, run);
  registerRag(program, io, run);
  registerService(program, io, run);
  registerSecrets(program, io, run);
  registerSweeper(program, io, run);
  registerSearch(program, io, run);
  registerSessions(program, io, run);
  registerForget(program, io, run);
  registerUnforget(program, io, run);
  registerMcp(program, io, run);
  registerContext(program, io, run);
  registerHooks(program, io, run);
  return program;
}

export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    return reportError(io, error, argv.includes('--json'));
  }
  return code;
}
