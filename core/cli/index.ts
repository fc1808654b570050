// Owns: the `steward` command, one file per top-level verb in commands/, and reaching the running owner through daemon.json.
// Never: implements behaviour; every verb is a call on the contract, through the owner or an in-process Core.
import { Command, CommanderError, Help, Option, type AddHelpTextContext } from 'commander';
import { stewardVersion } from '../config/index.js';
import { EXIT, inFlagNames, processIo, reportError, UsageError, type CliIo, type Run } from './output.js';

export { connect, type Connection } from './connect.js';

/** How every verb ends, as README's "The command" says it. */
const EXIT_CODES = 'Exit codes: 0 success; 1 failure, among them an id or a name Steward holds nothing under (not_found); 2 usage error: an unknown verb or option, a value of the wrong form, a name two projects share.';

type Register = (program: Command, io: CliIo, run: Run) => void;

/**
 * Every top-level verb, in the order `steward --help` lists them: the names a module registers, any
 * other name it answers to (an alias, listed beside it in the help), and how to load that module. A
 * verb's module (and what it imports) loads only when that verb runs, so `steward sessions list` does
 * not load the maintenance room for `steward maintenance`.
 */
export const VERBS: readonly { names: readonly string[]; aliases?: readonly string[]; load: () => Promise<Register> }[] = [
  { names: ['serve'], load: async () => (await import('./commands/serve.js')).registerServe },
  { names: ['stop'], load: async () => (await import('./commands/stop.js')).registerStop },
  { names: ['pause', 'resume'], load: async () => (await import('./commands/pause.js')).registerPause },
  { names: ['info'], load: async () => (await import('./commands/info.js')).registerInfo },
  { names: ['open'], load: async () => (await import('./commands/open.js')).registerOpen },
  { names: ['token'], load: async () => (await import('./commands/token.js')).registerToken },
  // `import` is the word a new user types for it.
  { names: ['backfill'], aliases: ['import'], load: async () => (await import('./commands/backfill.js')).registerBackfill },
  { names: ['sweep'], load: async () => (await import('./commands/sweep.js')).registerSweep },
  { names: ['projects'], load: async () => (await import('./commands/projects.js')).registerProjects },
  { names: ['cache'], load: async () => (await import('./commands/cache.js')).registerCache },
  { names: ['maintenance'], load: async () => (await import('./commands/maintenance.js')).registerMaintenance },
  { names: ['rag'], load: async () => (await import('./commands/setup.js')).registerRag },
  { names: ['service'], load: async () => (await import('./commands/service.js')).registerService },
  { names: ['secrets'], load: async () => (await import('./commands/secrets.js')).registerSecrets },
  { names: ['sweeper'], load: async () => (await import('./commands/sweeper.js')).registerSweeper },
  { names: ['search'], load: async () => (await import('./commands/search.js')).registerSearch },
  { names: ['sessions'], load: async () => (await import('./commands/sessions.js')).registerSessions },
  { names: ['forget'], load: async () => (await import('./commands/forget.js')).registerForget },
  { names: ['unforget'], load: async () => (await import('./commands/unforget.js')).registerUnforget },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcp },
  { names: ['context'], load: async () => (await import('./commands/context.js')).registerContext },
  { names: ['hooks'], load: async () => (await import('./commands/hooks.js')).registerHooks },
];

/**
 * The verbs whose modules this command line needs: the one it names, or all of them when it names
 * none or one Steward lacks (`steward --help` lists them all; `steward serach` suggests `search`).
 * Program options come before the verb and take no value, so the verb is the first word that is not one.
 */
export function verbsFor(argv: readonly string[]): typeof VERBS {
  const word = argv.find((arg) => !arg.startsWith('-'));
  const named = VERBS.find((verb) => word !== undefined && [...verb.names, ...(verb.aliases ?? [])].includes(word));
  return named ? [named] : VERBS;
}

/** What follows a complaint of commander's unless a command names a better place to look (see showHelpAfterError). */
const VERBS_HINT = '(steward --help lists the verbs)';

/**
 * Commander's own complaints (an unknown option or verb, a missing argument) said as Steward's errors
 * are: held as commander writes them (its message, then the command's hint, a did-you-mean on a line of
 * its own), then thrown as one UsageError, which runCli reports as one line, or as JSON with --json.
 * Help and the version pass through as commander's own.
 */
function commanderComplaints() {
  let held: string[] | undefined;
  return {
    outputError: (text: string) => {
      held = [text];
    },
    // Help asked for, or shown for `steward` alone, is written as it is (a verb group's is refused: groupsNeedACommand).
    writeErr: (write: (text: string) => void) => (text: string) => (held ? held.push(text) : write(text)),
    exit: (error: CommanderError): never => {
      if (!held) throw error;
      const words = held.join(' ').replace(/^error: /, '').replace('(Did you mean', '(did you mean');
      held = undefined;
      throw new UsageError(words.split('\n').map((line) => line.trim()).filter(Boolean).join(' '));
    },
  };
}

/**
 * `steward --json <verb…>` is `steward <verb…> --json`: commander reads options before the verb as the
 * program's, so the program takes --json too (an unknown verb after it is then named as one) and hands
 * it to the verb that runs, which, without a --json of its own, refuses it as it would after it. So does
 * a group's before its command (`steward token --json rotate`): the group takes it, the command runs.
 */
function jsonBeforeTheVerb(program: Command, verb: Command): void {
  let given = false;
  for (let command = verb.parent; command && !given; command = command.parent) given = command.opts().json === true;
  if (!given) return;
  if (!verb.options.some((option) => option.long === '--json')) verb.error("unknown option '--json'", { code: 'commander.unknownOption' });
  verb.setOptionValueWithSource('json', true, 'cli');
}

/** The verb groups under `command` (`steward sessions`, `steward token`): commands that have commands of their own. */
function groupsUnder(command: Command): Command[] {
  return command.commands.filter((sub) => sub.commands.length > 0).flatMap((group) => [group, ...groupsUnder(group)]);
}

/** A command as typed after `steward`: `sessions`, or both words of a group within a group. */
function wordsOf(command: Command): string {
  return command.parent?.parent ? `${wordsOf(command.parent)} ${command.name()}` : command.name();
}

/**
 * A complaint about a command's own words (`steward sessions list --bogus`) points to that command's
 * help, not to the list of verbs: every command below the program that kept the program's hint gets
 * its own. One that names a better place (a missing id: where ids are listed) keeps it.
 */
function ownHelpHints(program: Command): void {
  const walk = (command: Command): void => {
    for (const sub of command.commands) {
      // Commander keeps the hint in a private field (copied from the parent as each command is made); read, never written there.
      if ((sub as unknown as { _showHelpAfterError: unknown })._showHelpAfterError === VERBS_HINT) {
        sub.showHelpAfterError(`(see \`steward ${wordsOf(sub)} --help\`)`);
      }
      walk(sub);
    }
  };
  walk(program);
}

// Made when a group is named without its command, not at import (the first Intl object loads ICU, api/words.ts).
let orList: Intl.ListFormat | undefined;

/**
 * A verb group named without one of its commands (`steward sessions`) is a usage error, said the same
 * whether --json comes before it or after it: one line naming its commands, or `{"error":…}` with --json,
 * exit 2. Commander shows the group's help as an error there; runCli exited 0 on it, and a script's
 * `--json` was shown that help when written before the verb and refused as an unknown option after it.
 * So each group takes --json (unlisted: it only shapes this error), and the help is refused as it starts.
 */
function groupsNeedACommand(program: Command): void {
  for (const group of groupsUnder(program)) {
    if (!group.options.some((option) => option.long === '--json')) group.addOption(new Option('--json').hideHelp());
  }
  program.on('beforeAllHelp', ({ error, command }: AddHelpTextContext) => {
    // Help as an error is commander's answer to a command without its verb; `steward` alone keeps its help.
    if (!error || command === program) return;
    const path = wordsOf(command);
    const commands = new Help().visibleCommands(command).filter((sub) => command.commands.includes(sub));
    throw new UsageError(`${path} needs a command: ${(orList ??= new Intl.ListFormat('en-GB', { type: 'disjunction' })).format(commands.map((sub) => sub.name()))} (\`steward ${path} --help\` says what each does)`);
  });
}

/** Builds the `steward` program with the verbs `argv` needs (all of them without one); each top-level verb has its own file in commands/. */
export async function buildProgram(io: CliIo, setExit: (code: number) => void, argv: readonly string[] = []): Promise<Command> {
  const registers = await Promise.all(verbsFor(argv).map((verb) => verb.load()));
  const complaint = commanderComplaints();
  const program = new Command('steward')
    .description('Steward keeps the local memory of your AI coding agents current.')
    .version(stewardVersion(), '-v, --version')
    .option('--json', "print JSON (the same as the verb's --json)")
    .hook('preAction', jsonBeforeTheVerb)
    .showHelpAfterError(VERBS_HINT)
    .addHelpText('after', `\n${EXIT_CODES}`)
    .configureOutput({ writeOut: io.stdout, writeErr: complaint.writeErr(io.stderr), outputError: complaint.outputError })
    // Everything after the verb is the verb's: `steward search` reads a `--` and the flags of a command
    // it looks for itself (`rm -rf`), which the program would otherwise take or drop first.
    .enablePositionalOptions()
    .exitOverride(complaint.exit);
  // The verb running, so a refused field is said with its flag (inFlagNames), whichever verb it is.
  let verb: Command = program;
  program.hook('preAction', (_program, action) => {
    verb = action;
  });
  const run = async (action: () => Promise<number>, json = false) => {
    try {
      setExit(await action());
    } catch (error) {
      setExit(reportError(io, inFlagNames(verb, error), json));
    }
  };
  for (const register of registers) register(program, io, run);
  groupsNeedACommand(program);
  ownHelpHints(program);
  return program;
}

/** --json among the options (a word after `--` is a search's text, whatever it looks like). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = await buildProgram(
    io,
    (c) => {
      code = c;
    },
    argv,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    return reportError(io, error, wantsJson(argv));
  }
  return code;
}
