import { describe, expect, it } from 'vitest';
import { IMPORT_SPANS, offeredSpans } from '../../../renderer/src/places/projects/importing.js';

/** The labels Projects' "Import earlier history" offers, the chosen one (the first) first, given each agent's window (Providers.Survey's windowDays). */
const offered = (windows: number[] | undefined) => offeredSpans(IMPORT_SPANS, windows).map((s) => s.label);

describe('how far back "Import earlier history" offers to reach', () => {
  it('with the default window of a year, offers and chooses only Everything: the narrower reaches would import nothing', () => {
    expect(offered([365, 365, 365])).toEqual(['Everything']);
  });

  it('chooses the first reach wider than the window, never one narrower or equal', () => {
    expect(offered([30])).toEqual(['Last year', 'Everything']);
    expect(offered([90])).toEqual(['Last year', 'Everything']);
    expect(offered([7])).toEqual(['Last 30 days', 'Last year', 'Everything']);
  });

  it('judges by the narrowest agent window: a wider reach still imports for that agent', () => {
    expect(offered([365, 90])).toEqual(['Last year', 'Everything']);
    // An agent that keeps everything (0) is not the narrowest.
    expect(offered([0, 365])).toEqual(['Everything']);
  });

  it('offers Everything alone when the checks import everything already (nothing is wider)', () => {
    expect(offered([0])).toEqual(['Everything']);
  });

  it('offers every reach before the windows are listed, or with no agent watched', () => {
    expect(offered(undefined)).toEqual(['Last 30 days', 'Last year', 'Everything']);
    expect(offered([])).toEqual(['Last 30 days', 'Last year', 'Everything']);
  });
});
