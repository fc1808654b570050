import type { Result } from '../../../../core/api/index.js';

/**
 * An Unforget made in this tab, kept for the tab (sessionStorage) so a reload before the next check
 * brought the conversation back says so, not that its id may be mistyped. Only ids and when it comes
 * back (Forget.Lift's `nextCheck`) are kept: no transcript text.
 */
export interface Unforgotten {
  nextCheck?: 'all' | 'part';
}

type TabStore = Pick<Storage, 'getItem' | 'setItem'>;

const KEY = 'steward.unforgotten';

/** The tab's storage, or none where the page has none (or refuses it). */
function tabStore(): TabStore | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

function kept(store: TabStore | undefined): Record<string, Unforgotten> {
  try {
    const value: unknown = JSON.parse(store?.getItem(KEY) ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, Unforgotten>) : {};
  } catch {
    return {};
  }
}

function keep(store: TabStore | undefined, all: Record<string, Unforgotten>): void {
  try {
    store?.setItem(KEY, JSON.stringify(all));
  } catch {
    // A full or refused storage costs only the words after a reload; the Unforget itself is done.
  }
}

/** After an Unforget of the conversation at `sessionId`: kept only when it comes back by itself or an import (not still out, not nothing left). */
export function rememberUnforgotten(sessionId: string, lifted: Result<'Forget.Lift'>, store = tabStore()): void {
  if (lifted.stillOut !== undefined || lifted.nothingLeft) return;
  keep(store, { ...kept(store), [sessionId]: lifted.nextCheck ? { nextCheck: lifted.nextCheck } : {} });
}

/** What this tab kept of an Unforget of `sessionId`, if any. */
export function unforgottenOf(sessionId: string, store = tabStore()): Unforgotten | undefined {
  const entry = kept(store)[sessionId];
  if (typeof entry !== 'object' || entry === null) return undefined;
  return entry.nextCheck === 'all' || entry.nextCheck === 'part' ? { nextCheck: entry.nextCheck } : {};
}

/** The conversation is held again: nothing more to say of its Unforget. */
export function heldAgain(sessionId: string, store = tabStore()): void {
  const all = kept(store);
  if (!(sessionId in all)) return;
  delete all[sessionId];
  keep(store, all);
}
