import type { Command } from 'commander';
import { countOf, type Result, type SweeperRunResult } from '../../api/index.js';
import { withClient } from '../connect.js';
import { projectKeyFor } from '../names.js';
import { confirmed, EXIT, localTime, printJson, UsageError, type CliIo, type Run } from '../output.js';

const BOUNDARY_WORDS = {
  local_process: 'nothing leaves this computer',
  local_network: "transcript text goes to a model server on this computer's network",
  remote: 'transcript text (redacted) goes to a remote model service',
  unknown: 'where transcript text goes is not known',
} as const;

/** A count with its clause, or nothing when it is zero: a line says what happened, not every zero. */
function clause(n: number, words: string): string {
  return n === 0 ? '' : `${n} ${words}`;
}

/** `ok: overview written, changelog appended, 3 new facts — anthropic claude-x, 2 model calls`; zero facts and calls unsaid. */
export function formatSweeperRun(result: SweeperRunResult): string {
  if (result.outcome === 'skipped') return `skipped (${result.reason ?? 'nothing to do'})\n`;
  const facts = result.factsAdded === 0 ? '' : countOf(result.factsAdded, 'new fact');
  const calls = result.calls === 0 ? '' : countOf(result.calls, 'model call');
  const by = [`${result.mode}${result.model ? ` ${result.model}` : ''}`, calls].filter(Boolean).join(', ');
  const changelog = result.reason === 'nothing-new' ? 'no changelog entry (nothing new since the last sweep)' : `changelog ${result.changelog}`;
  return `${[`${result.outcome}: overview ${result.overview}`, changelog, facts].filter(Boolean).join(', ')} — ${by}\n`;
}

/** `swept 2: 2 updated — 4 model calls`: only the outcomes that happened, and the calls when there were any. */
export function formatSweptAll(result: Result<'Sweeper.RunAll'>): string {
  const outcomes = [clause(result.ok, 'updated'), clause(result.nochange, 'unchanged'), clause(result.skipped, 'skipped'), clause(result.failed, 'failed'), clause(result.paused, 'paused')];
  const calls = result.calls === 0 ? '' : ` — ${countOf(result.calls, 'model call')}`;
  return `swept ${result.projects}: ${outcomes.filter(Boolean).join(', ') || 'nothing to do'}${calls}\n`;
}

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
    else io.stdout(formatSweptAll(result));
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
        else io.stdout(formatSweeperRun(result));
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
          const last = got.state.lastSweepAt === null ? 'never swept' : `last sweep ${localTime(got.state.lastSweepAt)} (${got.state.lastOutcome ?? 'unknown'})`;
          io.stdout(`${got.name} — ${last}${got.state.scratch ? ', scratch' : ''}${got.paused ? `, paused: ${got.paused.message}` : ''}\n\n${got.overview ?? '(no OVERVIEW.md yet)'}\n`);
        }
        return EXIT.ok;
      }, options.json),
    );
}
