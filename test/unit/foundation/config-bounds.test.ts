import { describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { parseConfig } from '../../../core/config/index.js';
import { fieldProblems } from '../../../core/config/problems.js';

function errorOf(fn: () => unknown): StewardError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a StewardError');
}

/*
 * QA: `"interval_ms": -5` in config.json said two contradictory things (">=0" and ">=1000"): every
 * millisecond setting was at least 0 and then, for an interval, at least 1,000 again. One least per
 * field, said once, with the field, the value written and the least it takes.
 */
describe('a number out of bounds in config.json', () => {
  it('is one line naming the field, the value and the least it takes', () => {
    const error = errorOf(() => parseConfig({ sweep: { interval_ms: -5 } }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toBe('config.json: "sweep.interval_ms" is -5; it must be at least 1000 milliseconds (1 second)');
    expect(error.details).toMatchObject({ keys: ['sweep.interval_ms'], fields: { 'sweep.interval_ms': { minimum: 1000 } } });
  });

  it('every bounded millisecond and day setting fails one bound at a time', () => {
    for (const raw of [
      { sweep: { interval_ms: -1 } },
      { sweeper: { handoff_timeout_ms: -1 } },
      { maintenance: { reconcile_interval_ms: -1, reverify_interval_ms: -1 } },
      { query: { cache: { retention: { prune_interval_ms: -1, default_days: -1 } } } },
    ]) {
      const error = errorOf(() => parseConfig(raw));
      const keys = (error.details as { keys: string[] }).keys;
      expect(new Set(keys).size).toBe(keys.length);
      expect(error.message).not.toMatch(/>=|Too small/);
    }
    expect(fieldProblems({ maintenance: { reverify_interval_ms: -1 } })['maintenance.reverify_interval_ms']).toMatchObject({ minimum: 60_000 });
  });

  it('says the most too, and days in days', () => {
    expect(errorOf(() => parseConfig({ sweep: { interval_ms: 7 * 24 * 3_600_000 + 1 } })).message).toBe(
      'config.json: "sweep.interval_ms" is 604800001; it must be at most 604800000 milliseconds (7 days)',
    );
    expect(errorOf(() => parseConfig({ query: { cache: { retention: { default_days: -1 } } } })).message).toBe(
      'config.json: "query.cache.retention.default_days" is -1; it must be at least 0 days',
    );
  });
});
