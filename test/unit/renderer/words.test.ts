import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS, PROVIDERS, type TelemetryEntry } from '../../../core/api/index.js';
import { providerIds, providerLabel } from '../../../renderer/src/components/format.js';
import { countOf, formatBytes, plainText } from '../../../renderer/src/components/words.js';
import { importSentence } from '../../../renderer/src/places/projects/importing.js';
import { checksTotal, failed, sentenceOf, speaksOfParts } from '../../../renderer/src/places/telemetry/sentences.js';

const stats = (over: Record<string, number> = {}) => ({ provider: 'claude', discovered: 106, read: 0, unchanged: 106, failed: 0, partsWritten: 0, durationMs: 41, failedLines: 0, ...over });
const entry = (kind: string, data: Record<string, unknown>): TelemetryEntry => ({ id: 1, at: Date.UTC(2026, 10, 29, 9), kind, data });
const names = (key: string) => ({ p_0123456789abcdef: 'orchard' })[key];

describe('words for people', () => {
  it('chooses the noun by Intl.PluralRules and formats the count', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(1204, 'message')).toBe('1,204 messages');
    expect(countOf(2, { one: 'new message', other: 'new messages' })).toBe('2 new messages');
    expect(formatBytes(830)).toBe('830 bytes');
    expect(formatBytes(12.4 * 1024 * 1024)).toBe('12 MB');
  });

  it('names each provider as the contract does, in the registry order', () => {
    expect(providerIds()).toEqual([...PROVIDER_IDS]);
    for (const id of PROVIDER_IDS) expect(providerLabel(id)).toBe(PROVIDERS[id].label);
    expect(providerLabel('someday')).toBe('someday');
  });

  it('shows no Markdown marks in messages', () => {
    expect(plainText('Store one with `steward secrets set GITHUB_TOKEN` **now**')).toBe('Store one with steward secrets set GITHUB_TOKEN now');
  });

  it('says an import that found nothing new is up to date, with the files checked, and counts messages otherwise', () => {
    expect(importSentence({ providers: [stats()] })).toBe('Already up to date — 106 files checked.');
    expect(importSentence({ providers: [stats({ read: 3, unchanged: 103, partsWritten: 40, messagesWritten: 25 })] })).toBe('Imported 25 new messages; 3 files read.');
    // A cancelled import says how far it got, from its result; files outside the window are not "up to date".
    expect(importSentence({ providers: [{ ...stats({ read: 1, unchanged: 5, partsWritten: 2, messagesWritten: 1, failed: 1, notReached: 99 }), cancelled: true }] })).toBe(
      'Cancelled after 7 of 106 files; what was imported before stays. Imported 1 new message; 1 file read. 1 file could not be read; Telemetry says why.',
    );
    expect(importSentence({ providers: [{ ...stats({ discovered: 0, unchanged: 0, notReached: 0 }), cancelled: true }] })).toBe('Cancelled before any file was listed. Nothing new.');
    expect(importSentence({ providers: [stats({ unchanged: 100, outsideWindow: 6 })] })).toBe('Already up to date — 100 files checked. 6 files older than the window were not read.');
    expect(importSentence({ providers: [stats({ unchanged: 0, outsideWindow: 106 })] })).toBe('Nothing new. 106 files older than the window were not read.');
  });

  // QA: `steward backfill --all` where one old file held the only new messages said "2 new messages from
  // 8 files": the count is of files read, not of files that held anything new, and is said so.
  it('says the files an import read as read, never as where its new messages came from', () => {
    const backfill = stats({ read: 8, unchanged: 98, partsWritten: 3, messagesWritten: 2 });
    expect(importSentence({ providers: [backfill] })).toBe('Imported 2 new messages; 8 files read.');
    const row = sentenceOf(entry('backfill.run', { kind: 'manual', providers: [backfill] }), names);
    expect(row).toBe('Imported on request: checked 106 files, 2 new messages; 8 files read, 41 ms');
    expect(sentenceOf(entry('sweep.tick', { kind: 'scheduled', providers: [stats({ read: 8, partsWritten: 3 })] }), names)).toBe('Checked 106 files, 3 parts; 8 files read, 41 ms');
    for (const words of [importSentence({ providers: [backfill] }), row]) expect(words).not.toMatch(/from \d+ files?/);
  });

  it('tells telemetry rows as sentences, with the project by name and unchanged checks compactly', () => {
    const unchanged = entry('sweep.tick', { kind: 'scheduled', unchanged: true, files: 733, durationMs: 41, providers: [{ provider: 'claude', discovered: 733, read: 0, unchanged: 733, failed: 0, partsWritten: 0, durationMs: 41 }] });
    expect(sentenceOf(unchanged, names)).toBe('Checked 733 files, nothing new, 41 ms');
    expect(sentenceOf(entry('backfill.run', { kind: 'manual', providers: [stats({ read: 4, partsWritten: 9, messagesWritten: 6 })] }), names)).toBe('Imported on request: checked 106 files, 6 new messages; 4 files read, 41 ms');
    const cancelled = entry('backfill.run', { kind: 'manual', cancelled: true, providers: [{ ...stats({ read: 4, unchanged: 0, outsideWindow: 2, partsWritten: 9, messagesWritten: 6, notReached: 100 }), cancelled: true }] });
    expect(sentenceOf(cancelled, names)).toBe('Import on request cancelled after 6 of 106 files, 6 new messages; 4 files read; 2 older than the window, not read, 41 ms');
    // A scheduled check that read says what it skipped, as an import on request does.
    const skipping = entry('sweep.tick', { kind: 'scheduled', providers: [{ ...stats({ read: 2, partsWritten: 3, messagesWritten: 2 }), skipped: { meta_only: 12, malformed: 1 } }, { ...stats({ read: 1 }), provider: 'codex', skipped: { meta_only: 2 } }] });
    expect(sentenceOf(skipping, names)).toBe('Checked 212 files, 2 new messages; 3 files read; 15 lines held no conversation: 14 bookkeeping, 1 that did not parse, 82 ms');
    const notes = entry('sweeper.sweep', { projectKey: 'p_0123456789abcdef', mode: 'offline', model: 'x', tokensIn: 0, tokensOut: 0, calls: 0, durationMs: 194, outcome: 'ok' });
    expect(sentenceOf(notes, names)).toBe('Notes of orchard updated by the offline curator, 194 ms');
    const broken = entry('sweeper.sweep', { projectKey: 'p_0123456789abcdef', mode: 'anthropic', calls: 3, tokensIn: 0, durationMs: 1200, outcome: 'failed', failure: 'auth' });
    expect(sentenceOf(broken, names)).toBe('Notes of orchard failed with Anthropic (auth); 3 model calls, 0 tokens sent, 1.2 s');
    expect(failed(broken)).toBe(true);
    expect(failed(unchanged)).toBe(false);
    expect(sentenceOf(unchanged, names)).not.toMatch(/tokensIn|durationMs|parts/);
  });

  it('explains the word "part" only on a page whose rows say it', () => {
    const counted = entry('backfill.run', { kind: 'manual', providers: [stats({ read: 4, partsWritten: 9, messagesWritten: 6 })] });
    const notes = entry('sweeper.sweep', { projectKey: 'p_0123456789abcdef', mode: 'offline', durationMs: 194, outcome: 'ok' });
    expect(speaksOfParts([counted, notes], names)).toBe(false);
    expect(speaksOfParts([], names)).toBe(false);
    // A check recorded before messages were counted, and a clean-up, count parts.
    const older = entry('sweep.tick', { kind: 'scheduled', providers: [stats({ read: 4, partsWritten: 9 })] });
    expect(sentenceOf(older, names)).toMatch(/9 parts/);
    expect(speaksOfParts([counted, older], names)).toBe(true);
    expect(speaksOfParts([entry('cache.prune', { kind: 'scheduled', removedParts: 3, removedSessions: 1, durationMs: 5 })], names)).toBe(true);
  });

  it('says what a clean-up removed in messages and whole conversations', () => {
    const cleanUp = entry('cache.prune', { kind: 'scheduled', removedParts: 3, removedSessions: 2, removedMessages: 2, removedConversations: 1, durationMs: 5, complete: true });
    expect(sentenceOf(cleanUp, names)).toBe('Retention window applied on schedule: removed 2 messages and 1 whole conversation, 5 ms');
    expect(speaksOfParts([cleanUp], names)).toBe(false);
  });
});

describe('the telemetry totals', () => {
  it('say how many checks found something new without a zero count', () => {
    expect(checksTotal(1, 0)).toBe('1 check, which found something new');
    expect(checksTotal(3, 0)).toBe('3 checks, each found something new');
    expect(checksTotal(1, 1)).toBe('1 check, which found nothing new');
    expect(checksTotal(4, 4)).toBe('4 checks, none found anything new');
    expect(checksTotal(5, 2)).toBe('5 checks, 2 with nothing new');
    expect(checksTotal(0, 0)).toBe('None');
    for (const [checks, unchanged] of [[1, 0], [3, 0], [0, 0], [4, 4]] as const) expect(checksTotal(checks, unchanged)).not.toMatch(/\b0\b/);
  });
});
