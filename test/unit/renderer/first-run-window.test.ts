import { describe, expect, it } from 'vitest';
import type { ProviderId, Result } from '../../../core/api/index.js';
import { everythingWords, spanWords, windowMeaning, windowWords } from '../../../renderer/src/places/home/window.js';

type Survey = Result<'Providers.Survey'>;
const provider = (id: ProviderId, windowDays: number): Survey['providers'][number] => ({
  provider: id,
  files: 3,
  bytes: 900,
  oldestAt: null,
  newestAt: null,
  windowDays,
  older: { files: 0, bytes: 0, imported: { files: 0, bytes: 0 } },
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
    expect(everythingWords(0, 0, '0 ms')).toBe('Everything: nothing is older than the window, so all there is has been imported');
  });

  it('after "Import everything", never offers the older files again, and the window says they were imported', () => {
    expect(everythingWords(0, 0, undefined, 1)).toBe('Everything: the 1 older file is imported already, so all there is has been imported');
    expect(everythingWords(1, 10, undefined, 2)).toMatch(/^Everything: also import the 1 older file \(10 bytes\)$/);
    expect(windowMeaning(365, 0)).toBe('how far back Steward imports on its own: the last year now.');
    expect(windowMeaning(365, 1)).toBe('how far back Steward imports on its own: the last year now; you also imported the 1 older file once, which the checks do not read again.');
  });
});
