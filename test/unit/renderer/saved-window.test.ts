import { describe, expect, it } from 'vitest';
import type { ProviderId, Result } from '../../../core/api/index.js';
import { savedCleanUpWords, savedForNextStart, savedWindowSentence, startingChoice } from '../../../renderer/src/places/home/saved-window.js';
import { cleanUpWords, everythingWords } from '../../../renderer/src/places/home/window.js';

type Survey = Result<'Providers.Survey'>;
type Agent = Survey['providers'][number];
type Values = Result<'Settings.Config'>['saved'];

const agent = (id: ProviderId, windowFrom: Agent['windowFrom'] = 'default', windowDays = 365, cleanUpDays = 0): Agent => ({
  provider: id,
  files: 3,
  bytes: 900,
  oldestAt: null,
  newestAt: null,
  windowDays,
  windowFrom,
  cleanUpDays,
  older: { files: 2, bytes: 2048, imported: { files: 0, bytes: 0 } },
  olderMessages: 0,
  olderUncounted: 0,
  failed: 0,
});
const survey = (...providers: Agent[]): Survey => ({ providers, durationMs: 4 });
const values = (retentionDays: number): Values => ({
  retentionDays,
  sweepIntervalMs: 300_000,
  captureExclude: [],
  sweeperIgnore: [],
  dailyModelCalls: 0,
  logLevel: 'info',
  providers: {} as Values['providers'],
});
/** A 30-day window saved in Settings while Steward still runs the default year. */
const savedThirty = { saved: values(30), running: values(365) };

describe('Home after a 30-day window was saved in Settings (running the year until the next start)', () => {
  const yearForAll = survey(agent('claude'), agent('codex'));

  it('reads the saved window from the configuration: saved differs from running until the next start', () => {
    expect(savedForNextStart(savedThirty)).toBe(30);
    expect(savedForNextStart({ saved: values(30), running: values(30) })).toBeUndefined();
    expect(savedForNextStart(undefined)).toBeUndefined();
  });

  it('starts on "Only the last 30 days", not Everything', () => {
    expect(startingChoice(savedForNextStart(savedThirty), [30, 90])).toBe('30');
    // Otherwise the setting in force ("As it is" / "As saved"), never Everything, which is an import not asked for yet.
    expect(startingChoice(undefined, [30, 90])).toBe('keep');
    expect(startingChoice(60, [30, 90])).toBe('keep');
  });

  it('says the 30-day window is saved and takes effect at the next start', () => {
    expect(savedWindowSentence(30, yearForAll)).toBe('Saved: from the next start Steward keeps the last 30 days.');
  });

  it('Everything says what it imports now is removed again from the next start', () => {
    const cleanUp = [cleanUpWords(yearForAll), savedCleanUpWords(30, yearForAll)].filter(Boolean).join('; ');
    expect(everythingWords(4, 2048, undefined, 0, 0, 0, { cleanUp })).toMatch(
      /^Everything: also import the 4 older files \(2(\.0)? KB\); from the next start, the 30-day window you saved removes again what is older than that$/,
    );
  });

  it('names the agents it reaches when one keeps its own window, and says nothing when it removes nothing', () => {
    const mixed = survey(agent('claude', 'agent', 90, 90), agent('codex'));
    expect(savedCleanUpWords(30, mixed)).toBe('from the next start, the 30-day window you saved removes again what is older than that for Codex CLI');
    expect(savedCleanUpWords(0, yearForAll)).toBeUndefined();
    expect(savedWindowSentence(0, yearForAll)).toBe('Saved: from the next start Steward keeps all of their history.');
  });
});
