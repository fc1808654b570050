import { describe, expect, it } from 'vitest';
import type { ProviderSweepStats } from '../../../core/api/index.js';
import { FAILING_AFTER, StatusReporter } from '../../../core/app/reports.js';
import { AppState } from '../../../core/app/status.js';

/**
 * A transcript file whose own bytes could not be read is the file's trouble: a warning that counts it
 * and says where it is named, however many ticks it lasts. Steward's own failures (its store, its
 * reader) stay errors, and only they make a provider "failing N times in a row".
 */
const run = (over: Partial<ProviderSweepStats>): ProviderSweepStats => ({ provider: 'codex', discovered: 6, read: 0, unchanged: 5, failed: 0, partsWritten: 0, durationMs: 1, failedLines: 0, errors: [], ...over });
const unreadableOnly = run({ failed: 1, errors: [{ code: 'read_failed', count: 1 }], unreadable: [{ code: 'read_failed', count: 1 }] });
// No code: the status is read in the tray's tooltip and the status bar, which have no Details (Telemetry and the CLI name each file's).
const WARNING = '1 Codex CLI transcript file could not be read: it is tried again once it changes; Telemetry names it';

function reporter(): { state: AppState; reporter: StatusReporter } {
  const state = new AppState(() => undefined);
  return { state, reporter: new StatusReporter(state, () => undefined) };
}

describe('a transcript file that could not be read, in the status', () => {
  it('is a warning from the first tick on, never an error nor a provider failing in a row', () => {
    const { state, reporter: r } = reporter();
    for (let tick = 0; tick < FAILING_AFTER + 2; tick += 1) {
      r.captureSettled([tick === 0 ? unreadableOnly : { ...unreadableOnly, unreadableUnchanged: 1 }]);
      expect(state.status).toMatchObject({ state: 'attention', message: WARNING, errors: [], attention: [{ kind: 'files-unreadable', subject: 'codex', place: 'telemetry' }] });
    }
  });

  it('counts several in one sentence, in words and never their codes', () => {
    const { state, reporter: r } = reporter();
    r.captureSettled([run({ failed: 3, errors: [{ code: 'read_failed', count: 2 }, { code: 'SQLITE_NOTADB', count: 1 }], unreadable: [{ code: 'read_failed', count: 2 }, { code: 'SQLITE_NOTADB', count: 1 }] })]);
    expect(state.status.message).toBe('3 Codex CLI transcript files could not be read: they are tried again once they change; Telemetry names them');
  });

  it("keeps Steward's own failures apart: the error counts only those, with their codes alone", () => {
    const { state, reporter: r } = reporter();
    r.captureSettled([run({ failed: 3, errors: [{ code: 'read_failed', count: 1 }, { code: 'SQLITE_READONLY', count: 2 }], unreadable: [{ code: 'read_failed', count: 1 }] })]);
    expect(state.status).toMatchObject({ state: 'error', message: '2 of 6 Codex CLI transcript files could not be imported (SQLITE_READONLY)' });
    expect(state.status.attention.map((i) => i.text)).toEqual([WARNING]);
  });

  it('goes once the file reads or is gone; a run that listed nothing or was cancelled does not clear it', () => {
    const { state, reporter: r } = reporter();
    r.captureSettled([unreadableOnly]);
    r.captureSettled([run({ discovered: 0, unchanged: 0, failed: 1, errors: [{ code: 'EMFILE', count: 1 }] })]);
    expect(state.status.attention.map((i) => i.kind)).toEqual(['files-unreadable']);
    r.captureSettled([run({ failed: 1, errors: [{ code: 'EMFILE', count: 1 }], cancelled: true, notReached: 4 })]);
    expect(state.status.attention.map((i) => i.kind)).toEqual(['files-unreadable']);
    r.captureSettled([run({ read: 1 })]);
    expect(state.status).toMatchObject({ state: 'idle', attention: [], errors: [] });
  });
});
