// Why a sweep of a project's notes did not run, in the words people read: one sentence each for the
// CLI and the panel alike (never the raw reason code). No imports: the renderer bundles this file.

/** One sentence per skip reason Sweeper.Run carries (SweeperRunResult's `reason`). */
export const SWEEP_SKIP_WORDS: Readonly<Record<string, string>> = {
  'no-activity': 'Nothing new since the last sweep: the notes are current.',
  backoff: 'Waiting after recent failures before trying again.',
  scratch: 'This is a scratch project; it is never swept.',
  ignored: 'This folder is on the list of folders whose notes Steward never writes (Settings).',
  disabled: 'Writing project notes is turned off in config.json.',
  'daily-budget': "Today's budget of model calls is spent; remote curation resumes tomorrow, or when you raise the budget in Settings.",
  paused: 'Curation is paused (Settings says why); the notes are rebuilt once it resumes.',
  'unknown-project': 'No such project is known.',
};

/** The skips a forced sweep passes (`--force`, "Sweep anyway"); the others are settings, not timing. */
export const FORCEABLE_SKIPS: readonly string[] = ['no-activity', 'backoff'];

/**
 * A skip in words. `until`: when the backoff ends, already written as the reader's time
 * ("2026-12-03 19:40 UTC"); said only for a backoff.
 */
export function sweepSkipWords(reason: string | null, until?: string | null): string {
  if (reason === 'backoff' && until) return `Waiting after recent failures before trying again at ${until}.`;
  return SWEEP_SKIP_WORDS[reason ?? ''] ?? 'Nothing to do.';
}

/**
 * A sweep that ran and found nothing newer than the last one (reason `nothing-new`), or a rebuild after
 * a forget that removed the notes (`overview: 'empty'`): what became of the notes. A rebuild with no
 * conversation left keeps the changelog's earlier days (`nothing-new`) or had none (`no-activity`); one
 * the settings keep from writing notes (`disabled`, `scratch`, `ignored`) removes what the forgotten
 * conversations wrote and writes nothing new.
 */
export function nothingNewWords(outcome: string, overview: string, reason: string | null = 'nothing-new'): string {
  if (overview === 'empty') {
    // A rebuild with no conversation left removed it; a forced sweep whose curator wrote none kept the file: both wrote none.
    if (reason === 'nothing-new') return 'Nothing new since the last sweep, and no overview was written (a rebuild after a forget that left no conversation removes the old one). The changelog keeps its earlier days.';
    if (reason === 'no-activity') return 'The notes were removed: no conversation is left to describe.';
    return 'The notes written from the forgotten conversations were removed; Steward does not write notes here, so none were rewritten.';
  }
  if (outcome === 'ok' && overview === 'written') return 'Overview updated; nothing new since the last sweep, so no changelog entry.';
  return 'Nothing new since the last sweep; the notes needed no change.';
}

/**
 * What one sweep did (Sweep now), in words: a skip's reason (`until`: when a backoff ends, written as
 * the reader's time), a sweep with nothing new or a rebuild that removed the notes, else what changed.
 */
export function sweepRunWords(run: { outcome: string; reason: string | null; overview: string }, until: string | null = null): string {
  if (run.outcome === 'skipped') return sweepSkipWords(run.reason, until);
  // An ordinary sweep whose curator wrote no overview has no reason: it is not one of these.
  if (run.reason === 'nothing-new' || (run.outcome === 'ok' && run.overview === 'empty' && run.reason !== null)) return nothingNewWords(run.outcome, run.overview, run.reason);
  return run.outcome === 'ok' ? 'Notes updated.' : 'Swept; nothing in the notes needed to change.';
}

/** A finished sweep of many projects, per project: what each outcome is called. */
export const SWEEP_OUTCOME_WORDS: Readonly<Record<string, string>> = {
  ok: 'updated',
  nochange: 'unchanged',
  skipped: 'skipped',
  failed: 'failed',
  paused: 'paused',
};

/**
 * Why a project's last sweep failed, by its error code, in words that name no endpoint: a failure's
 * own message names the model's host, which a list of every project has no business repeating.
 */
export const SWEEP_FAILURE_WORDS: Readonly<Record<string, string>> = {
  timeout: 'the model did not answer in time',
  connection: 'the model could not be reached',
  spend_limit: 'the model provider refused for billing or spend limits',
  auth: 'the model provider refused the credentials',
  http: 'the model answered with an error',
  truncated: 'the model stopped at its output limit',
  refusal: 'the model refused',
  format: 'the model did not answer in the form the notes need',
};

export function sweepFailureWords(code: string | null | undefined): string {
  return SWEEP_FAILURE_WORDS[code ?? ''] ?? 'the sweep failed';
}
