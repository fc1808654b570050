import { describe, expect, it } from 'vitest';
import { AppStatus } from '../../../core/api/index.js';
import { StatusReporter } from '../../../core/app/reports.js';
import { AppState } from '../../../core/app/status.js';

/** The owner's real status composition, fed what the index walk and a forget report. */
function owner() {
  const state = new AppState(() => undefined);
  const reporter = new StatusReporter(state, (key) => (key === 'p_billing' ? 'billing-api' : undefined));
  return { state, reporter };
}

describe('the status while long work runs', () => {
  it('lists the index walk as work in hand, never "Up to date", until it completes', () => {
    const { state, reporter } = owner();
    reporter.indexing({ phase: 'index', indexedParts: 120_000, totalParts: 415_000, complete: false });
    expect(state.status.state).toBe('working');
    expect(state.status.message).toBe('Indexing history for search: 28% done; some matches may be missing until it finishes');
    expect(state.status.working.map((i) => i.kind)).toEqual(['index']);
    expect(() => AppStatus.parse(state.status)).not.toThrow();

    reporter.indexing({ phase: 'retag', indexedParts: 50, totalParts: 100, complete: false });
    expect(state.status.message).toBe('Updating the search index: 50% checked; some matches may be missing until it finishes');

    reporter.indexing({ phase: 'retag', indexedParts: 100, totalParts: 100, complete: true });
    expect(state.status).toMatchObject({ state: 'idle', message: 'Up to date', working: [] });
  });

  it('lists a running forget with how far it has come, and drops it when it is done or lifted', () => {
    const { state, reporter } = owner();
    reporter.forgetting({ kind: 'project', id: 'p_billing', sessionsDone: 1_200, sessionsTotal: 2_025, removedParts: 9, complete: false });
    expect(state.status).toMatchObject({ state: 'working', message: 'Forgetting billing-api: 1,200 of 2,025 conversations and subagents deleted' });
    expect(state.status.working).toEqual([{ kind: 'forget', subject: 'p_billing', text: state.status.message, place: 'projects' }]);

    reporter.forgetting({ kind: 'session', id: 's_1', sessionsDone: 0, sessionsTotal: 1, removedParts: 0, complete: false });
    expect(state.status.working.map((i) => i.text)).toContain('Forgetting a conversation and its subagents: 0 of 1 deleted');

    reporter.forgetting({ kind: 'project', id: 'p_billing', sessionsDone: 2_025, sessionsTotal: 2_025, removedParts: 12, complete: true });
    expect(state.status.working.map((i) => i.subject)).toEqual(['s_1']);
    // A forget lifted part-way (unforget) stops without a last progress: its item goes with it.
    reporter.forgetEnded({ kind: 'session', id: 's_1', change: 'lifted' });
    expect(state.status).toMatchObject({ state: 'idle', message: 'Up to date' });
  });
});
