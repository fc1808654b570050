import type { Config } from '../config/index.js';
import type { ProviderId } from '../transcripts/index.js';

/** The kernel's window when nothing narrower is configured. */
export const KERNEL_DEFAULT_DAYS = 365;
const DAY_MS = 86_400_000;

/**
 * The effective retention window of a scheduled run, in days, or null for an open window: a
 * provider's positive `backfill.window_days`, else `query.cache.retention.default_days` (0 = open),
 * else the kernel default.
 */
export function effectiveWindowDays(config: Config, provider: ProviderId): number | null {
  const own = config.providers[provider].backfill.window_days;
  if (own > 0) return own;
  const cache = config.query?.cache?.retention?.default_days ?? KERNEL_DEFAULT_DAYS;
  return cache === 0 ? null : cache;
}

export function windowStart(days: number | null, now = Date.now()): number | null {
  return days === null ? null : now - days * DAY_MS;
}
