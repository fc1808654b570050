import type { Command } from 'commander';
import { countOf, type ForgetResult, type Tombstone } from '../../api/index.js';
import { withClient } from '../connect.js';
import { projectKeyFor } from '../names.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';

export interface TargetOptions {
  session?: string;
  project?: string;
}

/** Exactly one of --session / --project (and, for forget, --list). */
export function target(options: TargetOptions, verb: string): { kind: 'session'; id: string } | { kind: 'project'; id: string } {
  if ((options.session === undefined) === (options.project === undefined)) throw new UsageError(`${verb} takes exactly one of --session ID or --project PROJECT`);
  return options.session !== undefined ? { kind: 'session', id: options.session } : { kind: 'project', id: options.project! };
}

function formatForget(result: ForgetResult): string {
  const what = result.kind === 'session' ? `conversation ${result.id}` : `project ${result.id}`;
  // The contract counts sessions (subagents are sessions of their own) and parts (a message holds several: text, thinking, each tool call).
  // Nothing stored under a session id is often a part of one: the tombstone keeps exactly the id typed.
  const nothing = result.kind === 'session' ? 'nothing was stored under that id (a conversation is named by its whole id, as `steward sessions list` prints it)' : 'nothing was stored';
  const removed = result.removedSessions === 0 ? nothing : `removed ${countOf(result.removedSessions, 'session')}, subagents included (${countOf(result.removedParts, 'part')})${result.notesRemoved ? ' and its notes' : ''}`;
  return `Forgot ${what}: ${removed}. It stays out of future imports; \`steward unforget --${result.kind} ${result.id}\` lifts that.\n`;
}

function formatTombstones(tombstones: Tombstone[]): string {
  if (tombstones.length === 0) return 'Nothing is forgotten.\n';
  return `${tombstones.map((t) => `${t.kind}  ${t.id}  ${new Date(t.createdAt).toISOString().slice(0, 10)}  ${t.label ?? ''}`.trimEnd()).join('\n')}\n`;
}

/** `steward forget --session ID | --project KEY | --list`: delete a conversation or project and keep it out. */
export function registerForget(program: Command, io: CliIo, run: Run): void {
  program
    .command('forget')
    .description('delete a conversation (with its subagents) or a whole project, and keep it from being imported again')
    .option('--session <id>', 'the conversation to forget')
    .option('--project <project>', 'the project to forget (its name or key, as `steward projects` lists them): every conversation, its row and its notes')
    .option('--list', 'list what is forgotten')
    .option('--json', 'print JSON')
    .action((options: TargetOptions & { list?: boolean; json?: boolean }) =>
      run(async () => {
        if (options.list) {
          if (options.session !== undefined || options.project !== undefined) throw new UsageError('--list takes no --session or --project');
          const result = await withClient(io, (client) => client.call('Forget.List', {}));
          if (options.json) printJson(io, result);
          else io.stdout(formatTombstones(result.tombstones));
          return EXIT.ok;
        }
        const what = target(options, 'forget');
        const result = await withClient(io, async (client) =>
          what.kind === 'session' ? client.call('Forget.Session', { sessionId: what.id }) : client.call('Forget.Project', { projectKey: await projectKeyFor(client, what.id) }),
        );
        if (options.json) printJson(io, result);
        else io.stdout(formatForget(result));
        return EXIT.ok;
      }, options.json),
    );
}
