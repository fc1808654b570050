import type { Result } from '../../../../core/api/index.js';

/**
 * An Unforget made in this tab, kept for the tab (sessionStorage) so a reload before the next check
 * brought the conversation back says so, not that its id may be mistyped. Only ids and when it comes
 * back (Forget.Lift's `nextCheck`), or that nothing of it is left to import (`nothingLeft`), are kept:
 * no transcript text.
 */
export interface Unforgotten {
  nextCheck?: 'all' | 'part';
  nothingLeft?: true;
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

/**
 * After an Unforget of the conversation at `sessionId`: kept unless something else still keeps it out
 * (its page then says that record). With nothing left to import, that is kept, so a reload says so too.
 */
export function rememberUnforgotten(sessionId: string, lifted: Result<'Forget.Lift'>, store = tabStore()): void {
  if (lifted.stillOut !== undefined) return;
  const entry: Unforgotten = lifted.nothingLeft ? { nothingLeft: true } : lifted.nextCheck ? { nextCheck: lifted.nextCheck } : {};
  keep(store, { ...kept(store), [sessionId]: entry });
}

/**
 * After an Unforget made anywhere in the panel (the Forgotten list too): a conversation's record names
 * its page's id; a project's names no conversation, so nothing is kept for it.
 */
export function keepLifted(kind: 'session' | 'project', id: string, lifted: Result<'Forget.Lift'>, store = tabStore()): void {
  if (kind === 'session') rememberUnforgotten(id, lifted, store);
}

/** What this tab kept of an Unforget of `sessionId`, if any. */
export function unforgottenOf(sessionId: string, store = tabStore()): Unforgotten | undefined {
  const entry = kept(store)[sessionId];
  if (typeof entry !== 'object' || entry === null) return undefined;
  if (entry.nothingLeft === true) return { nothingLeft: true };
  return entry.nextCheck === 'all' || entry.nextCheck === 'part' ? { nextCheck: entry.nextCheck } : {};
}

/** The conversation is held again: nothing more to say of its Unforget. */
export function heldAgain(sessionId: string, store = tabStore()): void {
  const all = kept(store);
  if (!(sessionId in all)) return;
  delete all[sessionId];
  keep(store, all);
}
