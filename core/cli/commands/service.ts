import type { Command } from 'commander';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';
import { formatOption, formatStatus, isJson, when } from './maintenance.js';

/** `steward service maintenance|reconcile`: the operator's view of the running service. */
export function registerService(program: Command, io: CliIo, run: Run): void {
  const service = program.command('service').description('operator diagnostics of the running service');
  service
    .command('maintenance')
    .description('sanitized maintenance status: per-collection figures, waiting reasons, cache UUIDs, path fingerprints, repos, policy, jobs, degraded state')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const status = await withClient(io, (c) => c.call('Maintenance.List', {}));
        if (format === 'json') printJson(io, status);
        else io.stdout(formatStatus(status));
        return status.registry.state === 'degraded' ? EXIT.failure : EXIT.ok;
      }, isJson(options)),
    );
  service
    .command('reconcile')
    .description('the immediate pass: every enabled lane with work runs now, the head whatever its interval')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const result = await withClient(io, (c) => c.call('Maintenance.Reconcile', {}));
        if (format === 'json') printJson(io, result);
        else {
          io.stdout(`reconciled ${result.visited} registrations: ${result.jobs.length} jobs, ${result.skipped.length} skipped\n`);
          for (const j of result.jobs) io.stdout(`  ${j.registrationId} ${j.stage}/${j.lane} ${j.state}${j.coalesced ? ' (coalesced)' : ''}${j.errorClass ? ` ${j.errorClass}` : ''}\n`);
          for (const s of result.skipped)
            io.stdout(`  ${s.registrationId} ${s.stage ?? '-'}${s.lane ? `/${s.lane}` : ''} skipped: ${s.reason}${s.nextAttemptAt ? ` until ${when(s.nextAttemptAt)}` : ''}\n`);
        }
        return EXIT.ok;
      }, isJson(options)),
    );
}
