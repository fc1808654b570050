import type { Command } from 'commander';
import { countOf, type PruneReport } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

/** Counts and cutoff dates only, never paths or content. */
export function formatPruneReport(report: PruneReport): string {
  const verb = report.dryRun ? 'would remove' : 'removed';
  const lines = report.cutoffs.map((c) =>
    c.cutoffMs === null ? `${c.provider}: keeps everything (open window)\n` : `${c.provider}: ${verb} ${countOf(c.removedParts, 'part')} older than ${new Date(c.cutoffMs).toISOString()}\n`,
  );
  const tail = report.complete ? '' : ' (stopped early; the next pass finishes it)';
  return `${lines.join('')}${report.dryRun ? 'dry run: ' : ''}${countOf(report.removedParts, 'part')}, ${countOf(report.removedSessions, 'session')} ${verb}${tail} (${report.durationMs} ms)\n`;
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
