import type { Command } from 'commander';
import { ProjectKey } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';

function checkKey(projectKey: string): string {
  if (!ProjectKey.safeParse(projectKey).success) throw new UsageError(`expected a projectKey like p_0123456789abcdef (see \`steward projects\`), got ${JSON.stringify(projectKey)}`);
  return projectKey;
}

/** `steward sweeper run|show`: curate one project now, or print its notes and sweep state. */
export function registerSweeper(program: Command, io: CliIo, run: Run): void {
  const sweeper = program.command('sweeper').description("the per-project sweeper that keeps OVERVIEW.md and CHANGELOG.md current");
  sweeper
    .command('run <projectKey>')
    .description('sweep one project now (bypasses the debounce; --force also bypasses the activity gate and backoff)')
    .option('--force', 'sweep even without new activity')
    .option('--json', 'print JSON')
    .action((projectKey: string, options: { force?: boolean; json?: boolean }) =>
      run(async () => {
        const result = await withClient(io, (client) => client.call('Sweeper.Run', { projectKey: checkKey(projectKey), force: options.force ?? false }));
        if (options.json) printJson(io, result);
        else
          io.stdout(
            result.outcome === 'skipped'
              ? `skipped (${result.reason ?? 'nothing to do'})\n`
              : `${result.outcome}: overview ${result.overview}, changelog ${result.changelog}, ${result.factsAdded} new facts — ${result.mode}${result.model ? ` ${result.model}` : ''}, ${result.calls} model calls\n`,
          );
        return EXIT.ok;
      }, options.json),
    );
  sweeper
    .command('show <projectKey>')
    .description("print a project's OVERVIEW.md and sweep state")
    .option('--json', 'print JSON')
    .action((projectKey: string, options: { json?: boolean }) =>
      run(async () => {
        const got = await withClient(io, (client) => client.call('Projects.Get', { projectKey: checkKey(projectKey) }));
        if (options.json) printJson(io, got);
        else {
          const last = got.state.lastSweepAt === null ? 'never swept' : `last sweep ${new Date(got.state.lastSweepAt).toISOString()} (${got.state.lastOutcome ?? 'unknown'})`;
          io.stdout(`${got.name} — ${last}${got.state.scratch ? ', scratch' : ''}${got.paused ? `, paused: ${got.paused.message}` : ''}\n\n${got.overview ?? '(no OVERVIEW.md yet)'}\n`);
        }
        return EXIT.ok;
      }, options.json),
    );
}
