import type { Command } from 'commander';
import { withClient } from '../connect.js';
import { projectKeyFor } from '../names.js';
import { confirmed, EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';

const BOUNDARY_WORDS = {
  local_process: 'nothing leaves this computer',
  local_network: "transcript text goes to a model server on this computer's network",
  remote: 'transcript text (redacted) goes to a remote model service',
  unknown: 'where transcript text goes is not known',
} as const;

/** "Sweep all projects now": the plan in words first, then the run once confirmed. */
async function runAll(io: CliIo, options: { yes?: boolean; json?: boolean }): Promise<number> {
  return withClient(io, async (client) => {
    const plan = await client.call('Sweeper.PlanAll', {});
    if (plan.projects === 0) {
      if (options.json) printJson(io, { plan, result: null });
      else io.stdout('No project has activity that is not curated yet; nothing to sweep.\n');
      return EXIT.ok;
    }
    const curator = `the ${plan.curator} curator${plan.model ? ` (${plan.model})` : ''}`;
    const calls = plan.maxModelCalls > 0 ? `; at most ${plan.maxModelCalls} model calls (${plan.budget.usedToday} of today's ${plan.budget.limit} spent)` : '';
    const question = `Sweep ${plan.projects} project${plan.projects === 1 ? '' : 's'} with ${curator}: ${BOUNDARY_WORDS[plan.dataBoundary]}${calls}.`;
    if (!options.json) io.stdout(`${question}\n`);
    if (!(await confirmed(io, options.yes, 'Go ahead?'))) {
      if (options.json) printJson(io, { plan, result: null });
      else io.stdout('Not run: add --yes (or answer yes in a terminal) to sweep them.\n');
      return EXIT.ok;
    }
    const result = await client.call('Sweeper.RunAll', { projects: plan.projects, curator: plan.curator });
    if (options.json) printJson(io, { plan, result });
    else io.stdout(`swept ${result.projects}: ${result.ok} updated, ${result.nochange} unchanged, ${result.skipped} skipped, ${result.failed} failed, ${result.paused} paused — ${result.calls} model calls\n`);
    return EXIT.ok;
  });
}

/** `steward sweeper run|show`: curate one project now, or print its notes and sweep state. */
export function registerSweeper(program: Command, io: CliIo, run: Run): void {
  const sweeper = program.command('sweeper').description("the per-project sweeper that keeps OVERVIEW.md and CHANGELOG.md current");
  sweeper
    .command('run [project]')
    .description('sweep one project now (bypasses the debounce; --force also bypasses the activity gate and backoff), or --all projects with new activity')
    .option('--force', 'sweep even without new activity')
    .option('--all', 'sweep every project with activity not yet curated (names the count and the curator, then asks)')
    .option('--yes', 'with --all: go ahead without asking')
    .option('--json', 'print JSON')
    .action((projectKey: string | undefined, options: { force?: boolean; all?: boolean; yes?: boolean; json?: boolean }) =>
      run(async () => {
        if (options.all) {
          if (projectKey !== undefined || options.force) throw new UsageError('--all takes no project and no --force');
          return runAll(io, options);
        }
        if (projectKey === undefined) throw new UsageError('name a project (its name or key, see `steward projects`), or --all');
        const result = await withClient(io, async (client) => client.call('Sweeper.Run', { projectKey: await projectKeyFor(client, projectKey, 'sweeper run'), force: options.force ?? false }));
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
    .command('show <project>')
    .description("print a project's OVERVIEW.md and sweep state")
    .option('--json', 'print JSON')
    .action((projectKey: string, options: { json?: boolean }) =>
      run(async () => {
        const got = await withClient(io, async (client) => client.call('Projects.Get', { projectKey: await projectKeyFor(client, projectKey, 'sweeper show') }));
        if (options.json) printJson(io, got);
        else {
          const last = got.state.lastSweepAt === null ? 'never swept' : `last sweep ${new Date(got.state.lastSweepAt).toISOString()} (${got.state.lastOutcome ?? 'unknown'})`;
          io.stdout(`${got.name} — ${last}${got.state.scratch ? ', scratch' : ''}${got.paused ? `, paused: ${got.paused.message}` : ''}\n\n${got.overview ?? '(no OVERVIEW.md yet)'}\n`);
        }
        return EXIT.ok;
      }, options.json),
    );
}
