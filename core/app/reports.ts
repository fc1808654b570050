import { countOf, failureWords, nounFor, percentDown, PROVIDERS, type ConflictView, type CuratorKind, type EventPayload, type ProviderSweepStats, type Result, type StatusItem, type WaitingPlan } from '../api/index.js';
import type { CuratorPause } from '../sweeper/index.js';
import type { AppState } from './status.js';


/** A provider whose import failed this many settled runs in a row needs the person, not only a red dot. */
export const FAILING_AFTER = 3;

const CURATOR_LABELS: Record<CuratorKind, string> = { offline: 'offline', anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible' };
// Made at first use, not at import (the first Intl object loads ICU, api/words.ts).
let numbers: Intl.NumberFormat | undefined;
const count = { format: (n: number) => (numbers ??= new Intl.NumberFormat('en')).format(n) };

/** Counts by code, as a map (an absent list counts nothing). */
function codeCounts(list: readonly { code: string; count: number }[] | undefined): Map<string, number> {
  return new Map((list ?? []).map((e) => [e.code, e.count]));
}

function providerLabel(provider: string): string {
  return Object.hasOwn(PROVIDERS, provider) ? PROVIDERS[provider as keyof typeof PROVIDERS].label : provider;
}

/**
 * Turns what the rooms report (capture's queue and results, the sweeper's events and pauses, the
 * maintenance registry) into status items, in words people use. Holds only what a fact alone does
 * not say: how many runs in a row a provider has failed.
 */
export class StatusReporter {
  readonly #state: AppState;
  readonly #projectName: (projectKey: string) => string | undefined;
  readonly #failStreak = new Map<string, number>();

  constructor(state: AppState, projectName: (projectKey: string) => string | undefined) {
    this.#state = state;
    this.#projectName = projectName;
  }

  /** Capture's queue went busy or drained: scheduled ticks, Sweep now, the CLI's sweep and backfills alike. */
  captureBusy(busy: boolean): void {
    if (busy) this.#state.put({ kind: 'import', subject: null, text: 'Importing new transcripts', place: 'telemetry' });
    else this.#state.drop('import');
  }

  captureProgress(progress: { provider: string; filesDone: number; filesTotal: number }): void {
    if (progress.filesTotal === 0) return;
    const text = `Importing ${providerLabel(progress.provider)} transcripts — ${count.format(progress.filesDone)} of ${countOf(progress.filesTotal, 'file')}`;
    this.#state.put({ kind: 'import', subject: null, text, place: 'telemetry' });
  }

  /**
   * A tick or backfill settled: per provider, Steward's own failure (its store, its reader) is an
   * error, and a run of them needs the person; a file that could not be read is the file's trouble,
   * a warning that says how many and where they are named, however long it lasts.
   */
  captureSettled(providers: readonly ProviderSweepStats[]): void {
    for (const stats of providers) {
      const { provider } = stats;
      // A cancelled run that failed at nothing says nothing either way: a failure streak neither grows nor ends.
      if (stats.cancelled && stats.failed === 0) continue;
      this.#unreadable(stats);
      const unreadable = codeCounts(stats.unreadable);
      const failed = stats.failed - [...unreadable.values()].reduce((n, c) => n + c, 0);
      if (failed <= 0) {
        this.#failStreak.delete(provider);
        this.#state.drop('import-failed', provider);
        this.#state.drop('provider-failing', provider);
        continue;
      }
      const label = providerLabel(provider);
      // The codes of Steward's own failures: those of files that could not be read are said apart.
      const codes = (stats.errors ?? []).filter((e) => e.code !== 'cancelled' && e.count > (unreadable.get(e.code) ?? 0)).map((e) => e.code);
      const why = codes.length > 0 ? ` (${codes.join(', ')})` : '';
      const text =
        stats.discovered === 0
          ? `Importing ${label} transcripts failed${why}`
          : `${count.format(failed)} of ${count.format(stats.discovered)} ${label} transcript ${nounFor(stats.discovered, 'file')} could not be imported${why}`;
      this.#state.put({ kind: 'import-failed', subject: provider, text, place: 'telemetry' });
      const streak = (this.#failStreak.get(provider) ?? 0) + 1;
      this.#failStreak.set(provider, streak);
      if (streak >= FAILING_AFTER) {
        this.#state.put({ kind: 'provider-failing', subject: provider, text: `${label} transcripts have failed to import ${streak} times in a row`, place: 'telemetry' });
      }
    }
  }

  /**
   * Files whose own bytes could not be read: a count only (which files, why and their codes are the
   * panel's and the CLI's to say, from Sweep.Unreadable). The status is read in the tray's tooltip
   * and the status bar, which have no Details to hold a code (`steward info` names each file with its
   * code below it). A run that listed nothing or stopped early did not look at them all, so it adds to
   * what is said but never clears it.
   */
  #unreadable(stats: ProviderSweepStats): void {
    const { provider } = stats;
    const n = [...codeCounts(stats.unreadable).values()].reduce((sum, c) => sum + c, 0);
    if (n === 0) {
      if (stats.discovered > 0 && !stats.cancelled) this.#state.drop('files-unreadable', provider);
      return;
    }
    const them = n === 1 ? 'it is tried again once it changes; Telemetry names it' : 'they are tried again once they change; Telemetry names them';
    const text = `${countOf(n, `${providerLabel(provider)} transcript file`)} could not be read: ${them}`;
    this.#state.put({ kind: 'files-unreadable', subject: provider, text, place: 'telemetry' });
  }

  /**
   * The index's walk (`search.indexing`): until it completes, a search may miss what is not indexed (or
   * re-tagged) yet, so the status must not say "Up to date". Its figures count parts, not messages: a percent.
   */
  indexing(progress: EventPayload<'search.indexing'>): void {
    if (progress.complete) return void this.#state.drop('index');
    const done = percentDown(progress.indexedParts, progress.totalParts);
    const what = progress.phase === 'retag' ? `Updating the search index: ${done} checked` : `Indexing history for search: ${done} done`;
    this.#state.put({ kind: 'index', subject: null, text: `${what}; some matches may be missing until it finishes`, place: null });
  }

  /**
   * A forget's progress (`forget.progress`, every half second): sessions count a conversation's subagents
   * too, as the panel says. Its last (`complete`) ends the item, whether the forget is done or failed.
   */
  forgetting(progress: EventPayload<'forget.progress'>): void {
    if (progress.complete) return void this.#state.drop('forget', progress.id);
    const done = count.format(progress.sessionsDone);
    const text =
      progress.kind === 'session'
        ? `Forgetting a conversation and its subagents: ${done} of ${count.format(progress.sessionsTotal)} deleted`
        : `Forgetting ${this.#project(progress.id)}: ${done} of ${countOf(progress.sessionsTotal, 'conversation')} and subagents deleted`;
    this.#state.put({ kind: 'forget', subject: progress.id, text, place: 'projects' });
  }

  /** A forget done or lifted part-way (`history.changed`): one stopped by a lift sends no last progress, and its item goes here. */
  forgetEnded(change: EventPayload<'history.changed'>): void {
    this.#state.drop('forget', change.id);
  }

  #project(projectKey: string): string {
    return this.#projectName(projectKey) ?? 'a project';
  }

  curatorStarted(projectKey: string): void {
    this.#state.put({ kind: 'curate', subject: projectKey, text: `Curating notes for ${this.#project(projectKey)}`, place: 'projects' });
  }

  curatorFinished(projectKey: string): void {
    this.#state.drop('curate', projectKey);
    this.#state.drop('curator-failed', projectKey);
  }

  /** A paused curator is reported by `curatorPauses`; only other failures are errors of the project. */
  curatorFailed(projectKey: string, message: string, paused: boolean): void {
    this.#state.drop('curate', projectKey);
    if (paused) this.#state.drop('curator-failed', projectKey);
    else this.#state.put({ kind: 'curator-failed', subject: projectKey, text: `Curating notes for ${this.#project(projectKey)} failed: ${message}`, place: 'projects' });
  }

  curatorPauses(pauses: readonly CuratorPause[]): void {
    const items = pauses.map((pause): StatusItem => ({ kind: 'curator-paused', subject: pause.curator, text: `The ${CURATOR_LABELS[pause.curator]} curator is paused: ${pause.message}`, place: 'settings' }));
    this.#state.replace(['curator-paused'], items);
  }

  /** Plans an agent asked to apply that only a person may confirm (a service, a download, text sent off this machine). */
  waitingPlans(waiting: readonly WaitingPlan[]): void {
    const items = waiting.map((w): StatusItem => ({ kind: 'plan-waiting', subject: w.waitingId, text: `An agent asked Steward to maintain ${w.repo}; its plan waits for your confirmation`, place: 'maintenance' }));
    this.#state.replace(['plan-waiting'], items);
  }

  /** The registry read whole: running jobs, open conflicts, failing stages of enabled registrations. Never a path: ids and repo names only. */
  maintenance(list: Result<'Maintenance.List'>, conflicts: readonly ConflictView[]): void {
    const items: StatusItem[] = [];
    if (list.registry.state === 'degraded') {
      items.push({ kind: 'sync-failed', subject: 'registry', text: `The repository cache registry cannot be read (${list.registry.reason ?? 'unknown reason'})`, place: 'maintenance' });
    }
    for (const r of list.registrations) {
      const repo = r.canonicalRepoId;
      if (r.jobs.some((job) => job.state === 'running')) items.push({ kind: 'sync', subject: r.registrationId, text: `Updating the ${repo} cache`, place: 'maintenance' });
      // A paused registration schedules nothing: its last failure is history (its Maintenance card keeps it), not a current problem.
      const failing = r.enabled ? [r.stages.sync, r.stages.rag].find((stage) => stage.errorClass !== null && stage.failures > 0) : undefined;
      if (failing) items.push({ kind: 'sync-failed', subject: r.registrationId, text: `Updating the ${repo} cache failed: ${failureWords(failing.errorClass!, r.forge)}`, place: 'maintenance' });
    }
    for (const c of conflicts) {
      const repo = c.canonicalRepoId ?? c.candidates.flatMap((candidate) => candidate.members).find((m) => m.canonicalRepoId !== null)?.canonicalRepoId ?? c.aliases[0];
      items.push({ kind: 'conflict', subject: c.conflictId, text: `A cache conflict over ${repo ?? 'a repository'} needs your choice`, place: 'conflicts' });
    }
    this.#state.replace(['sync', 'sync-failed', 'conflict'], items);
  }
}
