import { describe, expect, it } from 'vitest';
import type { ProviderId, Result } from '../../../core/api/index.js';
import { formatDate } from '../../../renderer/src/components/index.js';
import {
  cleanUpWords,
  everythingWords,
  narrowerChoices,
  narrowerNote,
  narrowerSaved,
  narrowerWords,
  olderWords,
  spanWords,
  storedOlderAt,
  uncountedWords,
  windowMeaning,
  windowWords,
} from '../../../renderer/src/places/home/window.js';

type Survey = Result<'Providers.Survey'>;
type Agent = Survey['providers'][number];
const provider = (id: ProviderId, windowDays: number, from: Pick<Agent, 'windowFrom' | 'cleanUpDays'> = { windowFrom: 'default', cleanUpDays: 0 }): Agent => ({
  provider: id,
  files: 3,
  bytes: 900,
  oldestAt: null,
  newestAt: null,
  windowDays,
  ...from,
  older: { files: 0, bytes: 0, imported: { files: 0, bytes: 0 } },
  olderMessages: 0,
  olderUncounted: 0,
  failed: 0,
});
const survey = (...providers: Survey['providers']): Survey => ({ providers, durationMs: 4 });

describe('the window the first run names', () => {
  it('says the span in words: the year, a number of days, or everything when no window is set', () => {
    expect(spanWords(365)).toBe('the last year');
    expect(spanWords(90)).toBe('the last 90 days');
    expect(spanWords(1)).toBe('the last 1 day');
    expect(spanWords(0)).toBe('all of their history');
  });

  it('names one span when the agents share it, each agent with its own otherwise, and nothing without agents', () => {
    expect(windowWords(survey(provider('claude', 90), provider('codex', 90)))).toBe('the last 90 days');
    expect(windowWords(survey(provider('claude', 90), provider('codex', 365)))).toBe('the last 90 days for Claude and the last year for Codex CLI');
    expect(windowWords(survey())).toBeUndefined();
  });
});

describe('the choice to import everything', () => {
  it('says what the rest is, or that there is none, never "the 0 older files"', () => {
    expect(everythingWords(2, 2048, '3 s')).toMatch(/^Everything: also import the 2 older files \(2(\.0)? KB\), about 3 s$/);
    expect(everythingWords(1, 10)).toMatch(/^Everything: also import the 1 older file \(10 bytes\)$/);
    expect(everythingWords(0, 0, '0 ms')).toBe('Everything: no file is older than the window, so all there is has been imported');
  });

  it('after "Import everything", never offers the older files again, and the window says they were imported', () => {
    expect(everythingWords(0, 0, undefined, 1)).toBe('Everything: the 1 older file is imported already, so all there is has been imported');
    expect(everythingWords(1, 10, undefined, 2)).toMatch(/^Everything: also import the 1 older file \(10 bytes\)$/);
    expect(windowMeaning(spanWords(365), 0)).toBe('how far back Steward imports on its own: the last year now.');
    expect(windowMeaning(spanWords(365), 1)).toBe('how far back Steward imports on its own: the last year now; you also imported the 1 older file once, which the checks do not read again.');
  });
});

const byDate = (them: string) => `; messages in ${them} may still be older, as the window goes by each message's own date, not its file's`;

// QA: a 10-day window, files of today holding messages of Nov 20–25 (imported under the wider window
// before): Home said "every one was last changed within the window" and "Everything: nothing is older
// than the window". The survey reads no transcript byte (file times, checkpoints, and the stored
// messages' dates): it says what those measured, the stored messages' dates included.
describe('files of today whose messages Steward holds are older than the window', () => {
  const DAY = 86_400_000;
  const now = Date.UTC(2026, 11, 5, 9);
  const nov20 = Date.UTC(2026, 10, 20, 10);
  const held = (id: ProviderId, windowDays: number, oldestAt: number, from?: Pick<Agent, 'windowFrom' | 'cleanUpDays'>): Agent => ({ ...provider(id, windowDays, from), stored: { oldestAt, newestAt: now - DAY } });

  it('finds the oldest stored message older than its agent\'s window, from the survey alone', () => {
    expect(storedOlderAt(survey(held('claude', 10, nov20)), now)).toBe(nov20);
    expect(storedOlderAt(survey(held('claude', 10, now - 3 * DAY), held('codex', 10, nov20 + DAY), held('gemini', 10, nov20)), now)).toBe(nov20);
    // Inside its window, an open window, nothing stored: nothing older is held.
    expect(storedOlderAt(survey(held('claude', 30, nov20)), now)).toBeUndefined();
    expect(storedOlderAt(survey(held('claude', 0, nov20)), now)).toBeUndefined();
    expect(storedOlderAt(survey(provider('claude', 10)), now)).toBeUndefined();
  });

  it('says the files are new, and that Steward holds older messages, never that nothing is older', () => {
    const from = formatDate(nov20);
    expect(olderWords(3, 0, 0, 0, nov20)).toBe(`every one was last changed within the window, but Steward holds messages older than the window (from ${from}): the window goes by each message's own date, not its file's`);
    expect(everythingWords(0, 0, '0 ms', 0, 0, 0, { storedBefore: nov20 })).toBe(`Everything: no file is older than the window, and Steward already holds messages older than it (from ${from}), so all there is has been imported`);
    const cleanUp = 'the clean-up removes again what is older than 10 days (set by the retention window in Settings)';
    expect(everythingWords(0, 0, '0 ms', 0, 0, 0, { storedBefore: nov20, cleanUp })).toBe(`Everything: no file is older than the window, and Steward already holds messages older than it (from ${from}); ${cleanUp}`);
    for (const words of [olderWords(3, 0, 0, 0, nov20), everythingWords(0, 0, '0 ms', 0, 0, 0, { storedBefore: nov20 }), everythingWords(0, 0, '0 ms')]) expect(words).not.toContain('nothing is older than the window');
  });
});

describe('history copied without its file times (files of today, messages of last year)', () => {
  const copies = ' (a message copied into several files, as a resumed conversation carries the one it resumed, counts in each)';

  it('says only what the file times show, then up to how many messages the import left out as older, and why "up to"', () => {
    expect(olderWords(3, 0, 0)).toBe(`every one was last changed within the window${byDate('them')}`);
    expect(olderWords(1, 0, 0)).toBe(`it was last changed within the window${byDate('it')}`);
    expect(olderWords(2, 0, 9)).toBe(`every one was last changed within the window, but up to 9 messages in them are older than the window and were not imported${copies}`);
    expect(olderWords(1, 0, 1)).toBe(`it was last changed within the window, but up to 1 message in it is older than the window and was not imported${copies}`);
    expect(olderWords(5, 2, 0)).toBe('2 files are entirely older than the window');
    expect(olderWords(5, 1, 4)).toBe(`1 file is entirely older than the window, but up to 4 messages in the others are older than the window and were not imported${copies}`);
  });

  it('offers up to the older messages (a copy counts in each file, so import-all may write fewer), and never says all there is has been imported while any are left out', () => {
    expect(everythingWords(0, 0, '0 ms', 0, 9)).toBe('Everything: also import up to 9 older messages in files changed within the window');
    expect(everythingWords(0, 0, undefined, 2, 1)).toBe('Everything: also import up to 1 older message in files changed within the window');
    expect(everythingWords(2, 2048, '3 s', 0, 9)).toMatch(/^Everything: also import the 2 older files \(2(\.0)? KB\) and up to 9 older messages in newer files, about 3 s$/);
    for (const words of [everythingWords(0, 0, '0 ms', 0, 9), everythingWords(0, 0, undefined, 2, 9)]) expect(words).not.toContain('all there is has been imported');
  });
});

describe('files whose older messages were never counted (imported before the count was kept, or by a narrower import)', () => {
  it('says so in plain words, and that importing everything brings in any there are', () => {
    const words = 'Steward has not counted the older messages of 2 files yet (imported before it kept that count, by a narrower import, or removed by a clean-up since); importing everything brings in any there are';
    expect(uncountedWords(2)).toBe(words);
    expect(olderWords(3, 0, 0, 2)).toBe(`every one was last changed within the window; ${words}`);
    expect(olderWords(5, 1, 4, 1)).toMatch(/^1 file is entirely older than the window, but up to 4 messages in the others .*; Steward has not counted the older messages of 1 file yet/);
  });

  it('keeps offering to import everything, and never says all there is has been imported while any file is not counted', () => {
    expect(everythingWords(0, 0, '0 ms', 0, 0, 2)).toBe('Everything: also import any older messages in the 2 files Steward has not counted yet');
    expect(everythingWords(0, 0, undefined, 3, 0, 1)).toBe('Everything: also import any older messages in the 1 file Steward has not counted yet');
    expect(everythingWords(0, 0, undefined, 0, 9, 2)).toBe('Everything: also import up to 9 older messages in files changed within the window, and any in the 2 files not counted yet');
    expect(everythingWords(1, 10, '1 s', 0, 0, 2)).toBe('Everything: also import the 1 older file (10 bytes) and any older messages in the 2 newer files Steward has not counted yet, about 1 s');
    for (const words of [everythingWords(0, 0, '0 ms', 0, 0, 2), everythingWords(0, 0, undefined, 3, 0, 1)]) expect(words).not.toContain('all there is has been imported');
  });
});

/** Claude's own 90 days written in config.json (`providers.claude.backfill.window_days`), the others on the default year. */
const own90 = { windowFrom: 'agent', cleanUpDays: 90 } as const;
const mixed = survey(provider('claude', 90, own90), provider('openclaw', 365), provider('codex', 365), provider('gemini', 365));
/** A cache retention of 90 days saved for every agent (`query.cache.retention.default_days`). */
const retention90 = { windowFrom: 'retention', cleanUpDays: 90 } as const;
const shared = survey(provider('claude', 90, retention90), provider('codex', 90, retention90));

describe('agents with windows of their own (one agent at 90 days, three on the year)', () => {
  it('names each span with its agents, not the first agent\'s alone', () => {
    expect(windowWords(mixed)).toBe('the last 90 days for Claude and the last year for OpenClaw, Codex CLI, and Gemini CLI');
    expect(windowMeaning(windowWords(mixed)!, 0)).toBe('how far back Steward imports on its own: the last 90 days for Claude and the last year for OpenClaw, Codex CLI, and Gemini CLI now.');
  });

  it('offers the narrower windows the agents a saved retention reaches are wider than, and none when every agent keeps its own', () => {
    expect(narrowerChoices(mixed, [30, 90])).toEqual([30, 90]);
    expect(narrowerChoices(shared, [30, 90])).toEqual([30]);
    expect(narrowerChoices(survey(provider('claude', 0)), [30, 90])).toEqual([30, 90]);
    expect(narrowerChoices(survey(provider('claude', 90, own90), provider('codex', 120, { windowFrom: 'agent', cleanUpDays: 120 })), [30, 90])).toEqual([]);
  });

  it('says which agents a narrower window is for, and which keep their own window and where it is set', () => {
    const away = 'from the next start (older conversations are then removed from Steward, never from your agents\u2019 folders)';
    const keeps = 'Claude keeps the last 90 days (its own window, providers.claude.backfill.window_days in config.json)';
    expect(narrowerWords(30, shared)).toBe(`Only the last 30 days, ${away}`);
    expect(narrowerWords(30, mixed)).toBe(`Only the last 30 days for OpenClaw, Codex CLI, and Gemini CLI, ${away}; ${keeps}`);
    expect(narrowerNote(shared)).toBeUndefined();
    expect(narrowerNote(mixed)).toBe(`The window is for OpenClaw, Codex CLI, and Gemini CLI; ${keeps}, and the count includes what is older than that.`);
    expect(narrowerSaved(30, shared)).toBe('Saved: from the next start Steward keeps the last 30 days.');
    expect(narrowerSaved(30, mixed)).toBe(`Saved: from the next start Steward keeps the last 30 days for OpenClaw, Codex CLI, and Gemini CLI; ${keeps}.`);
  });
});

describe('never "all there is has been imported" while it is not', () => {
  it('says a file could not be read, and that what it holds is not imported', () => {
    expect(everythingWords(0, 0, undefined, 0, 0, 0, { unreadable: 1 })).toBe('Everything: no file is older than the window, but 1 transcript file could not be read, so what it holds is not imported (see Needs you)');
    expect(everythingWords(0, 0, undefined, 2, 0, 0, { unreadable: 3 })).toBe('Everything: the 2 older files are imported already, but 3 transcript files could not be read, so what they hold is not imported (see Needs you)');
  });

  it('says the clean-up of a window written in config.json removes again what importing everything brings in, and where that window is set', () => {
    expect(cleanUpWords(survey(provider('codex', 365)))).toBeUndefined();
    expect(cleanUpWords(mixed)).toBe('the clean-up removes again what is older than 90 days for Claude (set by providers.claude.backfill.window_days in config.json)');
    expect(cleanUpWords(shared)).toBe('the clean-up removes again what is older than 90 days (set by the retention window in Settings)');
    const cleanUp = cleanUpWords(mixed);
    expect(everythingWords(2, 2048, '3 s', 0, 0, 0, { cleanUp })).toMatch(/^Everything: also import the 2 older files \(2(\.0)? KB\), about 3 s; the clean-up removes again what is older than 90 days for Claude \(/);
    // The older file imported once is no longer in Steward after the clean-up: not "imported already",
    // nor "nothing left to import" (importing everything brings it back, until the clean-up's next pass).
    expect(everythingWords(0, 0, undefined, 0, 0, 0, { readOnce: 1, cleanUp })).toBe(`Everything: the 1 older file was imported once; ${cleanUp}`);
    expect(everythingWords(0, 0, undefined, 0, 0, 0, { readOnce: 2, cleanUp })).toBe(`Everything: the 2 older files were imported once; ${cleanUp}`);
    for (const gaps of [{ unreadable: 1 }, { readOnce: 1, cleanUp }, { cleanUp }]) expect(everythingWords(0, 0, undefined, 0, 0, 0, gaps)).not.toContain('all there is has been imported');
  });
});
