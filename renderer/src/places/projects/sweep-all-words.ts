import type { Result } from '../../../../core/api/index.js';
import { SWEEP_OUTCOME_WORDS, sweepSkipWords } from '../../../../core/api/sweeper-words.js';
import { countOf } from '../../components/words.js';

// "Sweep all projects now" in words: the CLI's words (core/api/sweeper-words.ts) where it has them.

export type SweepPlan = Result<'Sweeper.PlanAll'>;
export type SweepSummary = Result<'Sweeper.RunAll'>;

/** A project whose sweep did not simply update it (or leave it as it was): named, with why. */
export interface SweptProblem {
  projectKey: string;
  name: string;
  /** "failed", "paused" or "skipped". */
  outcome: string;
  /** A sentence, or '' when the owner gave no reason. */
  why: string;
}

function sentence(text: string | null): string {
  const trimmed = (text ?? '').trim();
  return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Why the plan offers no sweep: the sweeper is turned off, or a remote curator's model calls for
 * today are spent (as the CLI's `sweeper run --all` says); null when it can run.
 */
export function sweepBlockedWords(plan: SweepPlan): string | null {
  if (plan.enabled === false) return 'The sweeper is turned off ("sweeper": {"enabled": false} in config.json), so no project can be swept.';
  const { usedToday, limit } = plan.budget;
  if (plan.projects === 0 || plan.curator === 'offline' || usedToday < limit) return null;
  return `Today's model calls are spent (${usedToday} of ${limit}), so no project can be swept now. Sweeping resumes tomorrow, or when you raise the daily budget in Settings.`;
}

/** "Swept 4 projects: 2 updated, 1 unchanged, 1 failed (3 model calls)." — only the outcomes that happened. */
export function sweptSummaryWords(s: SweepSummary): string {
  const counts: Array<[number, string]> = [
    [s.ok, 'ok'],
    [s.nochange, 'nochange'],
    [s.failed, 'failed'],
    [s.paused, 'paused'],
    [s.skipped, 'skipped'],
  ];
  const parts = counts.filter(([n]) => n > 0).map(([n, outcome]) => `${n} ${SWEEP_OUTCOME_WORDS[outcome]}`);
  const calls = s.calls > 0 ? ` (${countOf(s.calls, 'model call')})` : '';
  return `Swept ${countOf(s.projects, 'project')}: ${parts.join(', ') || 'nothing to do'}${calls}.`;
}

/** Each project that failed, paused or was skipped, failures first, with its reason in the CLI's words. */
export function sweptProblems(s: SweepSummary): SweptProblem[] {
  const order = ['failed', 'paused', 'skipped'];
  return (s.results ?? [])
    .filter((r) => order.includes(r.outcome))
    .sort((a, b) => order.indexOf(a.outcome) - order.indexOf(b.outcome))
    .map((r) => ({
      projectKey: r.projectKey,
      name: r.name,
      outcome: SWEEP_OUTCOME_WORDS[r.outcome] ?? r.outcome,
      why: r.outcome === 'skipped' ? sweepSkipWords(r.reason) : sentence(r.message),
    }));
}
