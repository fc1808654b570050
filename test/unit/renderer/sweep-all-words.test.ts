import { describe, expect, it } from 'vitest';
import { sweepBlockedWords, sweptProblems, sweptSummaryWords, type SweepPlan, type SweepSummary } from '../../../renderer/src/places/projects/sweep-all-words.js';

const plan: SweepPlan = { projects: 2, curator: 'openai-compatible', model: 'm', dataBoundary: 'local_network', maxModelCalls: 4, budget: { limit: 50, usedToday: 3 }, enabled: true };
const none: SweepSummary = { projects: 0, ok: 0, nochange: 0, skipped: 0, failed: 0, paused: 0, calls: 0 };

describe('"Sweep all projects now" in words', () => {
  it('says the sweeper is off, or that today\'s model calls are spent, instead of offering the sweep', () => {
    expect(sweepBlockedWords(plan)).toBeNull();
    expect(sweepBlockedWords({ ...plan, enabled: undefined })).toBeNull();
    expect(sweepBlockedWords({ ...plan, projects: 0, enabled: false })).toBe('The sweeper is turned off ("sweeper": {"enabled": false} in config.json), so no project can be swept.');
    expect(sweepBlockedWords({ ...plan, budget: { limit: 50, usedToday: 50 } })).toBe(
      "Today's model calls are spent (50 of 50), so no project can be swept now. Sweeping resumes tomorrow, or when you raise the daily budget in Settings.",
    );
    // The offline curator makes no model calls; with nothing to sweep, that is what is said.
    expect(sweepBlockedWords({ ...plan, curator: 'offline', budget: { limit: 0, usedToday: 0 } })).toBeNull();
    expect(sweepBlockedWords({ ...plan, projects: 0, budget: { limit: 0, usedToday: 0 } })).toBeNull();
  });

  it('counts only the outcomes that happened, and the model calls when there were any', () => {
    expect(sweptSummaryWords({ ...none, projects: 4, ok: 3, nochange: 1 })).toBe('Swept 4 projects: 3 updated, 1 unchanged.');
    expect(sweptSummaryWords({ ...none, projects: 1, failed: 1, calls: 1 })).toBe('Swept 1 project: 1 failed (1 model call).');
    expect(sweptSummaryWords({ ...none, projects: 5, ok: 1, failed: 1, paused: 1, skipped: 2, calls: 4 })).toBe('Swept 5 projects: 1 updated, 1 failed, 1 paused, 2 skipped (4 model calls).');
    expect(sweptSummaryWords(none)).toBe('Swept 0 projects: nothing to do.');
  });

  it('names each project that failed, paused or was skipped, failures first, with why in the CLI\'s words', () => {
    const results: SweepSummary['results'] = [
      { projectKey: 'p_0000000000000001', name: 'alpha', outcome: 'ok', reason: null, message: null },
      { projectKey: 'p_0000000000000002', name: 'beta', outcome: 'skipped', reason: 'backoff', message: null },
      { projectKey: 'p_0000000000000003', name: 'gamma', outcome: 'paused', reason: null, message: "Today's budget of 0 model calls is spent" },
      { projectKey: 'p_0000000000000004', name: 'delta', outcome: 'failed', reason: null, message: 'The model endpoint answered HTTP 404: check the base URL and the model name' },
      { projectKey: 'p_0000000000000005', name: 'epsilon', outcome: 'nochange', reason: null, message: null },
      { projectKey: 'p_0000000000000006', name: 'zeta', outcome: 'failed', reason: null, message: null },
    ];
    expect(sweptProblems({ ...none, projects: 6, ok: 1, nochange: 1, skipped: 1, paused: 1, failed: 2, results })).toEqual([
      { projectKey: 'p_0000000000000004', name: 'delta', outcome: 'failed', why: 'The model endpoint answered HTTP 404: check the base URL and the model name.' },
      { projectKey: 'p_0000000000000006', name: 'zeta', outcome: 'failed', why: '' },
      { projectKey: 'p_0000000000000003', name: 'gamma', outcome: 'paused', why: "Today's budget of 0 model calls is spent." },
      { projectKey: 'p_0000000000000002', name: 'beta', outcome: 'skipped', why: 'Waiting after recent failures before trying again.' },
    ]);
    // An older owner sends no names: nothing to list.
    expect(sweptProblems({ ...none, projects: 1, failed: 1 })).toEqual([]);
  });
});
