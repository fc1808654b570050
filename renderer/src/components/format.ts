import type { ParentKind } from '../../../core/api/index.js';
import { PROVIDER_IDS, PROVIDERS } from '../../../core/api/registry.js';

const numberFormat = new Intl.NumberFormat(undefined);

export function formatCount(value: number): string {
  return numberFormat.format(value);
}

/** 850 ms, 12.4 s, 3 min 20 s, 3 min, 2 h 5 min, 2 h: precise when short, coarse when long; a zero remainder is not said. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return rest === 0 || rest === 60 ? `${minutes + (rest === 60 ? 1 : 0)} min` : `${minutes} min ${rest} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "3 minutes ago", "yesterday"; `now` is a parameter so views can tick it. */
export function formatRelativeTime(epochMs: number, now = Date.now()): string {
  const seconds = Math.round((epochMs - now) / 1000);
  const abs = Math.abs(seconds);
  // Intl says "now", which reads wrong after "forgotten" or "next sync": these read right in any sentence.
  if (abs < 45) return seconds > 0 ? 'in a moment' : 'just now';
  if (abs < 45 * 60) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 22 * 3600) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 26 * 86400) return relative.format(Math.round(seconds / 86400), 'day');
  return formatDate(epochMs);
}

/** A day, as every view writes it ("Sep 10, 2026", as formatDateTime's date): one format across the panel. */
export function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/**
 * A past event ("Last check", "forgotten"), never read as future: a view's ticking `now` lags the data
 * by up to its tick, so a check that just ended can be after it; that is "just now", not "in a moment".
 */
export function formatPastTime(epochMs: number, now = Date.now()): string {
  return formatRelativeTime(epochMs, Math.max(now, epochMs));
}

export function formatDateTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** How a conversation's parent is said beside it: a branch in words (the bare "branch" read as a git branch), else its kind; null when it has none. */
export function parentKindWords(kind: ParentKind): string | null {
  if (kind === 'branch') return 'branched from an earlier conversation';
  return kind;
}

/** What a person calls each provider: the contract's name for it (PROVIDERS), else the id as stored. */
export function providerLabel(id: string): string {
  return (PROVIDERS as Record<string, { label: string } | undefined>)[id]?.label ?? id;
}

/** The providers, in the contract's order. */
export function providerIds(): string[] {
  return [...PROVIDER_IDS];
}

/** What a conversation is called: core's rule, which an export's file name follows too. */
export { conversationName } from '../../../core/api/reading.js';
