import { explicitKeys, type Config } from '../config/index.js';
import type { ProviderId } from '../api/index.js';

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

/**
 * Where a provider's effective window comes from, as `effectiveWindowDays` picks it: its own
 * `backfill.window_days`, the cache retention written in config.json, or the kernel default. Only
 * the last two move when the panel saves a cache retention.
 */
export function windowSource(config: Config, provider: ProviderId): 'agent' | 'retention' | 'default' {
  if (config.providers[provider].backfill.window_days > 0) return 'agent';
  return explicitKeys(config).has('query.cache.retention.default_days') ? 'retention' : 'default';
}

export function windowStart(days: number | null, now = Date.now()): number | null {
  return days === null ? null : now - days * DAY_MS;
}

/**
 * The window an automatic cache-maintenance pass applies, or null to delete nothing: only a positive
 * value the user wrote in config.json (the provider's own window, else the cache retention). The
 * kernel default narrows what scheduled sweeps import but never deletes by itself, so a user who
 * imported everything does not lose it to a default. `retentionDays`: the cache retention as it is
 * about to be saved, which counts as written (the pass at the next start will find it in the file).
 */
export function explicitWindowDays(config: Config, provider: ProviderId, retentionDays?: number): number | null {
  const keys = explicitKeys(config);
  const own = config.providers[provider].backfill.window_days;
  if (own > 0 && keys.has(`providers.${provider}.backfill.window_days`)) return own;
  const cache = retentionDays ?? (keys.has('query.cache.retention.default_days') ? config.query.cache.retention.default_days : 0);
  return cache > 0 ? cache : null;
}

export interface PruneCutoff {
  provider: ProviderId;
  /** Rows with a line timestamp before this go; null keeps everything of the provider. */
  cutoffMs: number | null;
}

/**
 * Which pass: a manual one (`steward cache prune`, the panel's Check) applies the effective window,
 * the default included, because the user asked for it; the automatic one only an explicit policy,
 * with `retentionDays` standing for a cache retention not saved yet (a dry run before saving it).
 */
export type PrunePass = { manual: true } | { manual: false; retentionDays?: number | undefined };

/** Per provider, the cutoff of a cache-maintenance pass. */
export function pruneCutoffs(config: Config, providers: readonly ProviderId[], pass: PrunePass, now = Date.now()): PruneCutoff[] {
  return providers.map((provider) => ({
    provider,
    cutoffMs: windowStart(pass.manual ? effectiveWindowDays(config, provider) : explicitWindowDays(config, provider, pass.retentionDays), now),
  }));
}
