import type { Command } from 'commander';
import { countOf, lostWords, type PruneReport, type StewardClient } from '../../api/index.js';
import { askOrRefuse } from '../confirm.js';
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

/** A removal's counted report that removes nothing: nothing is older than the window. */
const nothingOlder = (report: PruneReport) => report.removedParts === 0 && report.removedSessions === 0;

/** The whole pass in one sentence, a dry run saying that it removed nothing. */
function pruneSentence(report: PruneReport): string {
  const took = `(${report.durationMs} ms)`;
  const tail = report.complete ? '' : ' It stopped early; the next pass finishes it.';
  if (nothingOlder(report)) return `Nothing is older than the retention window; nothing ${report.dryRun ? 'would be' : 'was'} removed ${took}.${tail}`;
  const { what, emptied } = pruneWhat(report);
  if (report.dryRun) return `Would remove ${what} older than the retention window${emptied}.${lostWords(report.lost, { afterSentence: true })} Nothing was removed: this was a dry run ${took}.${tail}`;
  return `Removed ${what} older than the retention window${emptied}, in ${report.durationMs} ms.${tail}`;
}

/** When what would go is older than: one cutoff as a person reads a time, or each agent's where they differ. */
function cutoffWords(report: PruneReport): string {
  const removing = report.cutoffs.filter((c) => c.cutoffMs !== null && c.removedParts > 0);
  const times = [...new Set(removing.map((c) => c.cutoffMs!))];
  if (times.length === 1) return localTime(times[0]!);
  if (times.length === 0) return 'the retention window';
  return `each agent's retention window (${removing.map((c) => `${c.provider}: ${localTime(c.cutoffMs!)}`).join('; ')})`;
}

/**
 * What a removal would take, said before it is asked (`Would remove 41 messages older than 2025-05-02
 * 10:14 +02:00, and with them 15 whole conversations. 3 of them have no transcript left on disk: …`),
 * from its dry run: counts and times only, never paths or content.
 */
export function pruneWarning(report: PruneReport): string {
  const { what, emptied } = pruneWhat(report);
  const conversations = report.removedConversations;
  const whole = conversations === undefined ? emptied : conversations === 0 ? '' : `, and with them ${countOf(conversations, 'whole conversation')}`;
  return `Would remove ${what} older than ${cutoffWords(report)}${whole}.${lostWords(report.lost, { afterSentence: true })}\n`;
}

/**
 * A removal, counted first (a dry run): nothing older is said as a pass that removed nothing; else what
 * would go is said, then asked in a terminal or refused without --yes (askOrRefuse), as forget asks
 * before it deletes the only copy. --yes removes at once, uncounted. null: the person said no.
 */
async function confirmedPrune(io: CliIo, client: StewardClient, yes: boolean): Promise<PruneReport | null> {
  if (yes) return client.call('Cache.Prune', {});
  const counted = await client.call('Cache.Prune', { dryRun: true });
  if (nothingOlder(counted)) {
    // `lost` is a dry run's alone.
    const { lost: _lost, ...removal } = counted;
    return { ...removal, dryRun: false };
  }
  // The plan is the dry run's report, as `--dry-run --json` prints it.
  const asking = { question: 'Remove them?', refused: 'Nothing was removed.', remediation: 'Pass --yes to remove them, or --dry-run to only count what would go.', plan: counted };
  return (await askOrRefuse(io, pruneWarning(counted), asking)) ? client.call('Cache.Prune', {}) : null;
}

export function registerCache(program: Command, io: CliIo, run: Run): void {
  const cache = program.command('cache').description('the gateway cache of captured transcripts');
  cache
    .command('prune')
    .description('remove rows older than the effective retention window now (the default window included)')
    .option('--dry-run', 'count what would be removed; remove nothing')
    .option('--yes', 'remove without asking (for a conversation whose transcript the agent deleted, Steward holds the only copy: it is lost for good)')
    .option('--json', 'print JSON')
    .action((options: { dryRun?: boolean; yes?: boolean; json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client) => {
          const report = options.dryRun ? await client.call('Cache.Prune', { dryRun: true }) : await confirmedPrune(io, client, options.yes === true);
          if (report === null) {
            if (options.json) printJson(io, { removed: null });
            else io.stdout('Nothing was removed.\n');
            return EXIT.ok;
          }
          if (options.json) printJson(io, report);
          else io.stdout(formatPruneReport(report));
          return EXIT.ok;
        });
      }, options.json),
    );
}
