import type { Command } from 'commander';
import { PROVIDER_IDS } from '../../api/index.js';
import { withClient } from '../connect.js';
import { withProgress } from '../progress.js';
import { BACKFILL_VERB, cancelOneShotBackfill, withCancelRequests, type CancelWatch } from './backfill-cancel.js';
import { awaitIndexing } from './indexing.js';
import { folderNotes, formatSweepResult, retentionWindow, sweepExit } from './sweep.js';
import { EXIT, parseIntOption, printJson, UsageError, type CliIo, type Run } from '../output.js';

const PROVIDERS = [...PROVIDER_IDS, 'all'] as const;

export function registerBackfill(program: Command, io: CliIo, run: Run): void {
  program
    .command('backfill')
    .alias('import')
    .description('import transcript history now: reads every file again, whatever changed')
    .option('--provider <id>', `${PROVIDER_IDS.join(', ')} or all`, 'all')
    .option('--days <n>', 'import lines from the last N days (0 = everything)')
    .option('--all', 'import everything, whatever its age')
    .option('--cancel', 'cancel the backfills the running Steward is importing')
    .option('--json', 'print JSON')
    .action((options: { provider: string; days?: string; all?: boolean; cancel?: boolean; json?: boolean }) =>
      run(async () => {
        if (options.cancel) return cancelBackfills(io, options);
        const provider = PROVIDERS.find((p) => p === options.provider);
        if (!provider) throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}`);
        if (options.days !== undefined && options.all) throw new UsageError('--days and --all cannot be combined');
        const days = options.days === undefined ? undefined : parseIntOption('--days', options.days, 0, 36_500);
        return withClient(io, async (client, via) => {
          const work = async (watch?: CancelWatch) => {
            // On a terminal, the import's progress meanwhile (`942 of 4,402 files`), as the panel shows it.
            const backfill = client.call('Backfill.Run', {
              provider,
              ...(days !== undefined ? { days } : {}),
              ...(options.all ? { all: true } : {}),
            });
            const progress = withProgress(io, client, 'import', null, backfill);
            const { result, interrupted } = watch ? await watch.importing(progress) : { result: await progress, interrupted: false };
            if (options.json) printJson(io, result);
            // --days names the window itself (0: everything, as --all); without it, the retention window.
            else io.stdout(formatSweepResult(result, days ? { kind: 'days', days } : await retentionWindow(client, result), await folderNotes(client, result), 'backfill'));
            // Asked to stop: the index walk stops with the stores, and the next sweep or a running Steward goes on from there.
            if (!interrupted) await awaitIndexing(io, client, via, watch?.onStop);
            return sweepExit(result);
          };
          // Ctrl-C (or `--cancel` elsewhere, until the work ends) cancels an import in this process between batches, or stops the wait for its indexing; an owner's import goes on without this terminal.
          return via === 'in-process' ? withCancelRequests(io, client, work) : work();
        }, BACKFILL_VERB);
      }, options.json),
    );
}

async function cancelBackfills(io: CliIo, options: { days?: string; all?: boolean; json?: boolean }): Promise<number> {
  if (options.days !== undefined || options.all) throw new UsageError('--cancel takes no window');
  const oneShot = await cancelOneShotBackfill(io, options.json);
  if (oneShot !== undefined) return oneShot;
  return withClient(io, async (client) => {
    const result = await client.call('Backfill.Cancel', {});
    if (options.json) printJson(io, result);
    // No count of agents: an import of all of them queues each, also those with no folders and nothing to import.
    else io.stdout(result.cancelled === 0 ? 'No backfill was running.\n' : 'Cancelled the import; what was already imported stays.\n');
    return EXIT.ok;
  });
}
