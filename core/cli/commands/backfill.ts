import type { Command } from 'commander';
import type { SweepResult } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, parseIntOption, printJson, UsageError, type CliIo, type Run } from '../output.js';

const PROVIDERS = ['claude', 'openclaw', 'all'] as const;

/** `(SQLITE_READONLY ×3)` after the failed count: why, by code. */
function failureCodes(errors: SweepResult['providers'][number]['errors']): string {
  return errors?.length ? ` (${errors.map((e) => `${e.code} ×${e.count}`).join(', ')})` : '';
}

/** One line per provider: counts only, never paths. */
export function formatSweepResult(result: SweepResult): string {
  return result.providers
    .map(
      (p) =>
        `${p.provider}: ${p.discovered} discovered, ${p.read} read, ${p.unchanged} unchanged, ${p.vanished ? `${p.vanished} vanished, ` : ''}${p.failed} failed${failureCodes(p.errors)}, ${p.partsWritten} parts written` +
        `${p.failedLines ? `, ${p.failedLines} lines skipped` : ''} (${p.durationMs} ms)\n`,
    )
    .join('');
}

export function registerBackfill(program: Command, io: CliIo, run: Run): void {
  program
    .command('backfill')
    .description('import transcript history now (ignores the sweep fingerprints)')
    .option('--provider <id>', 'claude, openclaw or all', 'all')
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
        return withClient(io, async (client) => {
          const result = await client.call('Backfill.Run', {
            provider,
            ...(days !== undefined ? { days } : {}),
            ...(options.all ? { all: true } : {}),
          });
          if (options.json) printJson(io, result);
          else io.stdout(formatSweepResult(result));
          return EXIT.ok;
        });
      }, options.json),
    );
}

async function cancelBackfills(io: CliIo, options: { days?: string; all?: boolean; json?: boolean }): Promise<number> {
  if (options.days !== undefined || options.all) throw new UsageError('--cancel takes no window');
  return withClient(io, async (client) => {
    const result = await client.call('Backfill.Cancel', {});
    if (options.json) printJson(io, result);
    else io.stdout(result.cancelled === 0 ? 'No backfill was running.\n' : `Cancelled ${result.cancelled} provider backfill(s); what was already imported stays.\n`);
    return EXIT.ok;
  });
}

export function registerSweep(program: Command, io: CliIo, run: Run): void {
  program
    .command('sweep')
    .description('run one scheduled transcript sweep tick now')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client) => {
          const result = await client.call('Sweep.Tick', {});
          if (options.json) printJson(io, result);
          else io.stdout(formatSweepResult(result));
          return EXIT.ok;
        });
      }, options.json),
    );
}
