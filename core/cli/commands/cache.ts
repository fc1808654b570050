import type { Command } from 'commander';
import { countOf, type PruneReport } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, localTime, printJson, type CliIo, type Run } from '../output.js';

/**
 * A line per provider, then the pass in a sentence (`Would remove 20 messages older than the retention
 * window, and with them 3 conversations that would go whole …`): counts and cutoff dates only, never
 * paths or content. A provider's line names its cutoff as a person reads a time, and how much is
 * older, in messages and whole conversations where the report has them.
 */
export function formatPruneReport(report: PruneReport): string {
  const verb = report.dryRun ? 'would remove' : 'removed';
  const lines = report.cutoffs.map((c) => {
    if (c.cutoffMs === null) return `${c.provider}: keeps everything (open window)\n`;
    const cutoff = localTime(c.cutoffMs);
    if (c.removedParts === 0) return `${c.provider}: nothing older than ${cutoff}\n`;
    if (c.removedMessages === undefined) return `${c.provider}: ${verb} what is older than ${cutoff}\n`;
    const whole = (c.removedConversations ?? 0) === 0 ? '' : `, and with them ${countOf(c.removedConversations ?? 0, 'whole conversation')}`;
    return `${c.provider}: ${verb} ${countOf(c.removedMessages, 'message')} older than ${cutoff}${whole}\n`;
  });
  return `${lines.join('')}${pruneSentence(report)}\n`;
}

/**
 * What goes: messages and the conversations that go whole when the report counts them (a dry run's),
 * else parts and the sessions left empty: a removal counts nothing else, and a subagent's transcript is
 * a session of its own, so neither is called a conversation or a message.
 */
function pruneWhat(report: PruneReport): { what: string; emptied: string } {
  const when = report.dryRun ? 'would go' : 'went';
  if (report.removedMessages !== undefined && report.removedConversations !== undefined) {
    const whole = report.removedConversations === 0 ? '' : `, and with them ${countOf(report.removedConversations, 'conversation')} that ${when} whole (their subagents with them)`;
    return { what: countOf(report.removedMessages, 'message'), emptied: whole };
  }
  const emptied = report.removedSessions === 0 ? '' : `, and with them ${countOf(report.removedSessions, 'session')} left empty (each subagent is a session of its own)`;
  return { what: `${countOf(report.removedParts, 'message part')} (text, tool calls and their results)`, emptied };
}

/** The whole pass in one sentence, a dry run saying that it removed nothing. */
function pruneSentence(report: PruneReport): string {
  const took = `(${report.durationMs} ms)`;
  const tail = report.complete ? '' : ' It stopped early; the next pass finishes it.';
  if (report.removedParts === 0 && report.removedSessions === 0) return `Nothing is older than the retention window; nothing ${report.dryRun ? 'would be' : 'was'} removed ${took}.${tail}`;
  const { what, emptied } = pruneWhat(report);
  if (report.dryRun) return `Would remove ${what} older than the retention window${emptied}. Nothing was removed: this was a dry run ${took}.${tail}`;
  return `Removed ${what} older than the retention window${emptied}, in ${report.durationMs} ms.${tail}`;
}

export function registerCache(program: Command, io: CliIo, run: Run): void {
  const cache = program.command('cache').description('the gateway cache of captured transcripts');
  cache
    .command('prune')
    .description('remove rows older than the effective retention window now (the default window included)')
    .option('--dry-run', 'count what would be removed; remove nothing')
    .option('--json', 'print JSON')
    .action((options: { dryRun?: boolean; json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client) => {
          const report = await client.call('Cache.Prune', options.dryRun ? { dryRun: true } : {});
          if (options.json) printJson(io, report);
          else io.stdout(formatPruneReport(report));
          return EXIT.ok;
        });
      }, options.json),
    );
}
