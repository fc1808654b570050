import type { Command } from 'commander';
import type { StartAtLoginView } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';
import { formatOption, isJson } from './maintenance-options.js';
import { formatStatus, when } from './maintenance.js';

const MECHANISM_WORDS: Record<StartAtLoginView['mechanism'], string> = { 'login-item': 'a login item', 'xdg-autostart': 'an autostart entry', none: 'nothing' };

/** What is now true about start at login, in one or two lines. */
export function formatStartAtLogin(view: StartAtLoginView): string {
  const what = view.launches === 'headless' ? 'headless `steward serve`' : 'the Steward app';
  const line = view.enabled ? `Steward starts when you log in (${what}, through ${MECHANISM_WORDS[view.mechanism]}).` : 'Steward does not start when you log in.';
  return `${line}
${view.message ? `${view.message}
` : ''}`;
}

function registerStartAtLogin(service: Command, io: CliIo, run: Run): void {
  for (const [verb, enabled, description] of [
    ['install', true, 'start Steward when you log in (the app when it answers this command, else headless `steward serve` on Linux)'],
    ['uninstall', false, 'stop starting Steward when you log in'],
  ] as const) {
    service
      .command(verb)
      .description(description)
      .option('--json', 'print JSON')
      .action((options: { json?: boolean }) =>
        run(async () => {
          const view = await withClient(io, (c) => c.call('Settings.SetStartAtLogin', { enabled }));
          if (options.json) printJson(io, view);
          else io.stdout(formatStartAtLogin(view));
          return EXIT.ok;
        }, options.json),
      );
  }
}

/** `steward service maintenance|reconcile|install|uninstall`: the operator's view of the running service. */
export function registerService(program: Command, io: CliIo, run: Run): void {
  const service = program.command('service').description('operator diagnostics of the running service, and start at login');
  registerStartAtLogin(service, io, run);
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
