import type { Command } from 'commander';
import { countOf, FORCEABLE_SKIPS, SWEEP_OUTCOME_WORDS, SWEEP_SKIP_WORDS, sweepSkipWords, type Result, type SweeperRunResult } from '../../api/index.js';
import { withClient } from '../connect.js';
import { storedProjectKeyFor } from '../names.js';
import { askOrRefuse } from '../confirm.js';
import { EXIT, localTime, printJson, printText, UsageError, type CliIo, type Run } from '../output.js';

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

/** What the CLI adds from Projects.Get: where the notes are, and when a backoff ends. */
export interface RunWhere {
  notesPath?: string | null;
  nextAttemptAt?: number | null;
}

/** A skip in words; one a forced sweep passes says that --force exists. */
function skippedLine(result: SweeperRunResult, nextAttemptAt: number | null): string {
  const words = sweepSkipWords(result.reason, result.reason === 'backoff' && nextAttemptAt !== null ? localTime(nextAttemptAt) : null);
  const hint = FORCEABLE_SKIPS.includes(result.reason ?? '') ? ` Add --force to sweep ${result.reason === 'backoff' ? 'now' : 'anyway'}.` : '';
  return `skipped: ${words}${hint}\n`;
}

/** `ok: overview written, changelog appended, 3 new facts — anthropic claude-x, 2 model calls; notes in DIR`; zero facts and calls unsaid. */
export function formatSweeperRun(result: SweeperRunResult, where: RunWhere = {}): string {
  if (result.outcome === 'skipped') return skippedLine(result, where.nextAttemptAt ?? null);
  const facts = result.factsAdded === 0 ? '' : countOf(result.factsAdded, 'new fact');
  const calls = result.calls === 0 ? '' : countOf(result.calls, 'model call');
  const by = [`${result.mode}${result.model ? ` ${result.model}` : ''}`, calls].filter(Boolean).join(', ');
  const changelog = result.reason === 'nothing-new' ? 'no changelog entry (nothing new since the last sweep)' : `changelog ${result.changelog}`;
  // The notes folder is the person's own data: said here, on their terminal, never in a log.
  const notes = where.notesPath ? `; notes in ${where.notesPath}` : '';
  const kept = result.note ? `${result.note}\n` : '';
  return `${[`${result.outcome}: overview ${result.overview}`, changelog, facts].filter(Boolean).join(', ')} — ${by}${notes}\n${kept}`;
}

type SweptProject = NonNullable<Result<'Sweeper.RunAll'>['results']>[number];

/** `  recipes: failed — the reason`: one project of a sweep of all, its outcome in words. */
function sweptLine(p: SweptProject): string {
  const why = p.outcome === 'skipped' ? sweepSkipWords(p.reason) : p.message;
  return `  ${p.name}: ${SWEEP_OUTCOME_WORDS[p.outcome] ?? p.outcome}${why ? ` — ${why}` : ''}\n`;
}

/** `swept 2: 2 updated — 4 model calls`, then each project by name: only the outcomes that happened, and the calls when there were any. */
export function formatSweptAll(result: Result<'Sweeper.RunAll'>): string {
  const outcomes = [clause(result.ok, 'updated'), clause(result.nochange, 'unchanged'), clause(result.skipped, 'skipped'), clause(result.failed, 'failed'), clause(result.paused, 'paused')];
  const calls = result.calls === 0 ? '' : ` — ${countOf(result.calls, 'model call')}`;
  return `swept ${result.projects}: ${outcomes.filter(Boolean).join(', ') || 'nothing to do'}${calls}\n${(result.results ?? []).map(sweptLine).join('')}`;
}

type Plan = Result<'Sweeper.PlanAll'>;

/** Why a sweep of all cannot run at all (the sweeper is off, or a remote curator's calls are spent), or null. */
function notRunnable(plan: Plan): string | null {
  if (plan.enabled === false) return 'The sweeper is turned off ("sweeper": {"enabled": false} in config.json): nothing was swept.';
  const { usedToday, limit } = plan.budget;
  if (plan.projects === 0 || plan.curator === 'offline' || usedToday < limit) return null;
  return `Not run: today's model calls are spent (${usedToday} spent; the daily budget is ${limit}): remote curation resumes tomorrow, or when you raise the daily budget (sweeper.daily_model_calls in config.json).`;
}

/** The plan's cost: at most so many calls, and how few remain today when that is fewer. */
function callsClause(plan: Plan): string {
  if (plan.maxModelCalls === 0) return '';
  const left = plan.budget.limit - plan.budget.usedToday;
  const budget = left < plan.maxModelCalls ? `only ${left} of today's ${plan.budget.limit} remain; projects past them are paused until tomorrow` : `${plan.budget.usedToday} of today's ${plan.budget.limit} spent`;
  return `; at most ${plan.maxModelCalls} model calls (${budget})`;
}

const SWEEP_ALL_ASKING = { question: 'Go ahead?', refused: 'Nothing was swept.', remediation: 'Pass --yes to sweep them.' };

/** "Sweep all projects now": the plan in words first, then the run once confirmed. */
async function runAll(io: CliIo, options: { yes?: boolean; json?: boolean }): Promise<number> {
  return withClient(io, async (client) => {
    const plan = await client.call('Sweeper.PlanAll', {});
    const blocked = notRunnable(plan);
    if (blocked !== null) {
      if (options.json) printJson(io, { plan, result: null });
      else io.stdout(`${blocked}\n`);
      return EXIT.ok;
    }
    if (plan.projects === 0) {
      if (options.json) printJson(io, { plan, result: null });
      else io.stdout('No project has activity that is not curated yet; nothing to sweep.\n');
      return EXIT.ok;
    }
    const curator = `the ${plan.curator} curator${plan.model ? ` (${plan.model})` : ''}`;
    const calls = callsClause(plan);
    const planned = `Sweep ${plan.projects} project${plan.projects === 1 ? '' : 's'} with ${curator}: ${BOUNDARY_WORDS[plan.dataBoundary]}${calls}.\n`;
    // With --yes it is said as what runs; without, asked in a terminal, refused where nobody can answer.
    if (options.yes) {
      if (!options.json) io.stdout(planned);
    } else if (!(await askOrRefuse(io, planned, { ...SWEEP_ALL_ASKING, plan }))) {
      if (options.json) printJson(io, { plan, result: null });
      else io.stdout('Nothing was swept.\n');
      return EXIT.ok;
    }
    const result = await client.call('Sweeper.RunAll', { projects: plan.projects, curator: plan.curator });
    if (options.json) printJson(io, { plan, result });
    else printText(io, formatSweptAll(result));
    return result.failed > 0 ? EXIT.failure : EXIT.ok;
  });
}

/**
 * `recipes — last sweep … (failed)`, then what --json also holds, in words: why the last sweep failed,
 * when the next attempt is, whether the folder is ignored, where the notes are; then the overview.
 * Printed through printText: the name and OVERVIEW.md are written from transcripts.
 */
export function formatShow(got: Result<'Projects.Get'>, now: number): string {
  const { state } = got;
  const last = state.lastSweepAt === null ? 'never swept' : `last sweep ${localTime(state.lastSweepAt)} (${state.lastOutcome ?? 'unknown'})`;
  const failed = (state.lastOutcome === 'failed' || state.lastOutcome === 'paused') && state.lastError ? `${state.lastOutcome}: ${state.lastError.message}` : '';
  const next = state.nextAttemptAt !== null && state.nextAttemptAt > now ? `next attempt: ${localTime(state.nextAttemptAt)} (after ${countOf(state.consecutiveFailures, 'failure')}; --force tries now)` : '';
  const stale = state.notesStaleSince ? `notes withheld since ${localTime(state.notesStaleSince)}: a conversation was forgotten; the next sweep rebuilds them` : '';
  const ignored = got.ignored ? `ignored: ${SWEEP_SKIP_WORDS.ignored}` : '';
  const lines = [failed, next, stale, ignored, `notes: ${got.notesPath}`].filter(Boolean).join('\n');
  // Notes withheld after a forget are on disk but not read out: saying there are none would be wrong.
  const overview = got.overview ?? (state.notesStaleSince ? '(OVERVIEW.md withheld until the notes are rebuilt)' : '(no OVERVIEW.md yet)');
  return `${got.name} — ${last}${state.scratch ? ', scratch' : ''}${got.paused ? `, paused: ${got.paused.message}` : ''}\n${lines}\n\n${overview}\n`;
}

/** `steward sweeper run|show`: curate one project now, or print its notes and sweep state. */
export function registerSweeper(program: Command, io: CliIo, run: Run): void {
  const sweeper = program.command('sweeper').description("the per-project sweeper that keeps OVERVIEW.md and CHANGELOG.md current");
  sweeper
    .command('run [project]')
    .description('sweep one project now, without waiting for its conversations to go quiet (--force: even if nothing new happened or the last sweep failed recently), or --all projects with new activity')
    .option('--force', 'sweep even if nothing new happened or the last sweep failed recently')
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
        await withClient(io, async (client) => {
          const key = await storedProjectKeyFor(client, projectKey, 'sweeper run');
          const result = await client.call('Sweeper.Run', { projectKey: key, force: options.force ?? false });
          if (options.json) return printJson(io, result);
          // Where the notes went and when a backoff ends are the project's, not the run's.
          const got = await client.call('Projects.Get', { projectKey: key });
          printText(io, formatSweeperRun(result, { notesPath: got.notesPath, nextAttemptAt: got.state.nextAttemptAt }));
        });
        return EXIT.ok;
      }, options.json),
    );
  sweeper
    .command('show <project>')
    .description("print a project's OVERVIEW.md and sweep state")
    .option('--json', 'print JSON')
    .action((projectKey: string, options: { json?: boolean }) =>
      run(async () => {
        const got = await withClient(io, async (client) => client.call('Projects.Get', { projectKey: await storedProjectKeyFor(client, projectKey, 'sweeper show') }));
        if (options.json) printJson(io, got);
        else printText(io, formatShow(got, Date.now()));
        return EXIT.ok;
      }, options.json),
    );
}
