import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../renderer/src/components/index.js';
import { axisLabeller, axisTime } from '../../../renderer/src/places/telemetry/ticks.js';

// QA: the time labels under Telemetry's bars were moved off their bars at the chart's ends, where a
// long "Dec 5, 06:51 AM" did not fit. Checks of one day are labelled by their time alone.
// Panel QA: the axis said "05:28 PM" where the table beside it said "5:33 PM": one time format for both.

describe('the time axis of Telemetry’s charts', () => {
  const morning = new Date(2026, 11, 5, 9, 30).getTime();
  const evening = new Date(2026, 11, 5, 17, 28).getTime();
  it('labels checks of one day by the time alone', () => {
    const label = axisLabeller([{ at: morning }, { at: morning + 3_600_000 }]);
    expect(label(morning)).toBe(new Date(morning).toLocaleTimeString(undefined, { timeStyle: 'short' }));
    expect(label(morning).length).toBeLessThan(axisTime(morning).length);
  });

  it('says the date too when the checks span days', () => {
    const label = axisLabeller([{ at: morning }, { at: morning + 86_400_000 }]);
    expect(label(morning)).toBe(axisTime(morning));
  });

  it('writes the time as the table’s When column does', () => {
    const label = axisLabeller([{ at: evening }]);
    expect(formatDateTime(evening).endsWith(label(evening))).toBe(true);
    expect(axisTime(evening).endsWith(label(evening))).toBe(true);
    expect(label(evening)).not.toMatch(/^0/);
  });
});
