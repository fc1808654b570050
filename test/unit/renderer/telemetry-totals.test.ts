import { describe, expect, it } from 'vitest';
import type { TelemetryEntry } from '../../../core/api/index.js';
import { failed, failuresTotal, scheduledTotal, sentenceOf, warned, warningsTotal } from '../../../renderer/src/places/telemetry/sentences.js';

const stats = (over: Record<string, unknown> = {}) => ({ provider: 'claude', discovered: 13, read: 0, unchanged: 13, failed: 0, partsWritten: 0, durationMs: 41, failedLines: 0, ...over });
let id = 0;
const tick = (data: Record<string, unknown>, kind = 'sweep.tick'): TelemetryEntry => ({ id: ++id, at: Date.UTC(2026, 10, 29, 9) + id, kind, data });
const names = () => undefined;

// A file already known unreadable, counted failed again though not opened: the check's only trouble.
const stillUnreadable = tick({ kind: 'scheduled', providers: [stats({ unchanged: 12, failed: 1, unreadableUnchanged: 1, errors: [{ code: 'read_failed', count: 1 }], unreadable: [{ code: 'read_failed', count: 1 }] })] });
// A file appended with bookkeeping lines only: read, nothing written.
const bookkeeping = tick({ kind: 'scheduled', providers: [stats({ read: 1, unchanged: 12, failedLines: 0, skipped: { bookkeeping: 3 } })] });
const compact = tick({ kind: 'scheduled', unchanged: true, files: 13, durationMs: 41, providers: [stats()] });
const newMessages = tick({ kind: 'scheduled', providers: [stats({ read: 1, unchanged: 12, partsWritten: 4, messagesWritten: 2 })] });

describe('the telemetry totals agree with the rows', () => {
  it('counts as "nothing new" every check whose sentence says nothing new, failures and bookkeeping included', () => {
    const entries = [stillUnreadable, stillUnreadable, bookkeeping, compact, stillUnreadable, newMessages];
    const nothingNew = entries.filter((e) => /^Checked 13 files, nothing new/.test(sentenceOf(e, names))).length;
    expect(nothingNew).toBe(5);
    expect(scheduledTotal(entries)).toBe('6 checks, 5 with nothing new');
    expect(scheduledTotal([stillUnreadable, bookkeeping])).toBe('2 checks, none found anything new');
    expect(scheduledTotal([newMessages])).toBe('1 check, which found something new');
  });

  it('says a file still unreadable as a warning, not a failure', () => {
    expect(failed(stillUnreadable)).toBe(false);
    expect(warned(stillUnreadable)).toBe(true);
    expect(sentenceOf(stillUnreadable, names)).toBe('Checked 13 files, nothing new; 1 file still unreadable, not read again until it changes, 41 ms');
    expect(failuresTotal([stillUnreadable, compact])).toBe('None');
    expect(warningsTotal([stillUnreadable, stillUnreadable, compact])).toBe('2 checks met a file still unreadable');
    expect(warningsTotal([compact])).toBeUndefined();
  });

  it('still fails a check that met a new unreadable file, and says both', () => {
    const mixed = tick({ kind: 'scheduled', providers: [stats({ unchanged: 11, failed: 2, unreadableUnchanged: 1 })] });
    expect(failed(mixed)).toBe(true);
    expect(warned(mixed)).toBe(false);
    expect(sentenceOf(mixed, names)).toBe('Checked 13 files, nothing new; 1 file could not be read; 1 file still unreadable, not read again until it changes, 41 ms');
  });

  it('counts failures by what they are, never as "rows"', () => {
    const fresh = tick({ kind: 'scheduled', providers: [stats({ unchanged: 12, failed: 1 })] });
    const notes = tick({ projectKey: 'p_1', mode: 'offline', outcome: 'failed', durationMs: 9 }, 'sweeper.sweep');
    expect(failuresTotal([fresh, fresh, fresh, fresh, fresh])).toBe('5 checks');
    expect(failuresTotal([notes])).toBe('1 notes run');
    expect(failuresTotal([fresh, fresh, notes])).toBe('2 checks and 1 notes run');
    expect(failuresTotal([compact])).toBe('None');
    expect(failuresTotal([fresh, notes])).not.toMatch(/\brows?\b/);
  });
});
