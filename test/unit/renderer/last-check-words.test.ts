import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DetailList } from '../../../renderer/src/components/index.js';
import { checkDetails } from '../../../renderer/src/places/home/Stored.js';

const NOW = Date.UTC(2026, 11, 3, 10, 0);
const MINUTE = 60_000;
/** Home's two lines about checks, as text. */
const words = (status: Parameters<typeof checkDetails>[0]) =>
  renderToStaticMarkup(createElement(DetailList, { items: checkDetails(status, NOW) }))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('Home’s "Last check" is core’s one last check', () => {
  it('right after "Import everything" reads just now, as `steward info` does, though the last scheduled tick was minutes ago', () => {
    const status = { scheduled: true, intervalMs: 5 * MINUTE, lastTickAt: NOW - 2 * MINUTE, lastCheckAt: NOW - 1_000, nextTickAt: NOW + 3 * MINUTE };
    expect(words(status)).toBe('Last check just now Next check in 3 minutes');
  });

  it('a check that ended after the panel’s clock last ticked reads just now, never "in a moment"', () => {
    const status = { scheduled: true, intervalMs: 5 * MINUTE, lastTickAt: NOW + 10_000, lastCheckAt: NOW + 10_000, nextTickAt: NOW + 5 * MINUTE };
    expect(words(status)).toMatch(/^Last check just now /);
  });

  it('reads the last check, not the schedule’s own last tick', () => {
    const status = { scheduled: true, intervalMs: 5 * MINUTE, lastTickAt: null, lastCheckAt: NOW - 2 * MINUTE, nextTickAt: NOW + 3 * MINUTE };
    expect(words(status)).toMatch(/^Last check 2 minutes ago /);
  });

  it('kept across restarts: none means none ever ran, not "since Steward started"', () => {
    expect(words({ scheduled: false, intervalMs: 5 * MINUTE, lastTickAt: null, lastCheckAt: null, nextTickAt: null })).toBe(
      'Last check None yet Next check Only when asked (this Steward does not check on a schedule)',
    );
  });
});
