import type { Command } from 'commander';
import { countOf, SKIP_REASONS, type SweepResult } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

/** `12 lines without parts (meta_only 10, malformed 2)`: every line that yielded no part, by reason. */
function formatSkipped(skipped: SweepResult['providers'][number]['skipped']): string {
  const entries = SKIP_REASONS.map((reason) => [reason, skipped?.[reason] ?? 0] as const).filter(([, n]) => n > 0);
  if (entries.length === 0) return '';
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return `, ${total} lines without parts (${entries.map(([reason, n]) => `${reason} ${n}`).join(', ')})`;
}

/** `(SQLITE_READONLY ×3)` after the failed count: why, by code. */
function failureCodes(errors: SweepResult['providers'][number]['errors']): string {
  return errors?.length ? ` (${errors.map((e) => `${e.code} ×${e.count}`).join(', ')})` : '';
}

/** One line per provider: counts only, never paths. */
export function formatSweepResult(result: SweepResult): string {
  return result.providers
    .map(
      (p) =>
        `${p.provider}: ${p.discovered} discovered, ${p.read} read, ${p.unchanged} unchanged, ${p.vanished ? `${p.vanished} vanished, ` : ''}${p.failed} failed${failureCodes(p.errors)}, ${countOf(p.partsWritten, 'part')} written` +
        `${p.failedLines ? `, ${p.failedLines} lines skipped` : ''}${formatSkipped(p.skipped)} (${p.durationMs} ms)\n`,
    )
    .join('');
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
