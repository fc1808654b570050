import { useEffect, useRef, useState } from 'react';
import { lines } from './saving.js';

/**
 * Settings edits not saved yet, by form, kept for the page's life: leaving Settings (another place,
 * Ctrl-K, a link) unmounts its forms, and what a person typed there must still be there, marked unsaved,
 * when they come back. Only the fields that differ from what is saved are kept.
 */
const kept = new Map<string, Record<string, string>>();

/** Whether two texts of a field say the same setting: by default, the same text. */
export type Same = (key: string, draft: string, saved: string) => boolean;
const sameText: Same = (_key, draft, saved) => draft === saved;

/** Texts the form trims before it sends them (a model name, an address, a key): spaces around are no edit. */
export const sameTrimmed: Same = (_key, draft, saved) => draft.trim() === saved;

/**
 * Fields compared as their settings read them, as the form's Save sends them, so an edit back to what is
 * saved is no edit: `lineKeys` as lines without blanks, the rest as numbers however written ("5", "5.0");
 * one typed in a larger unit than it is saved in (`units`: minutes of milliseconds) as the save rounds it.
 */
export function sameSetting(lineKeys: readonly string[], units: Readonly<Record<string, number>> = {}): Same {
  return (key, draft, saved) => {
    if (lineKeys.includes(key)) return lines(draft).join('\n') === saved;
    const unit = units[key];
    const read = (text: string) => (unit === undefined ? Number(text) : Math.round(Number(text) * unit));
    return draft.trim() === saved || (draft.trim() !== '' && read(draft) === read(saved));
  };
}

/** The edits that still differ from what is saved. */
function unsavedOf(edits: Record<string, string>, saved: Record<string, string>, same: Same): Record<string, string> {
  // A field not known yet (its form still loading what is saved) keeps its edit.
  return Object.fromEntries(Object.entries(edits).filter(([key, text]) => !(key in saved) || !same(key, text, saved[key]!)));
}

/**
 * The edits left once what is saved is read again (`before` → `now`): those it made true go, and so do
 * those that said what was saved before it (typed back, not yet taken away), which would otherwise come
 * back as unsaved over a value saved elsewhere, and be saved over it.
 */
export function editsAfterReload(edits: Record<string, string>, before: Record<string, string>, now: Record<string, string>, same: Same): Record<string, string> {
  return unsavedOf(unsavedOf(edits, before, same), now, same);
}

/** What a form left unsaved, if anything (what its next mount starts from). */
export function keptDraft(form: string): Record<string, string> | undefined {
  return kept.get(form);
}

/** Keeps what a form left unsaved (none: it is all saved, or discarded). */
export function keepDraft(form: string, unsaved: Record<string, string>): void {
  if (Object.keys(unsaved).length === 0) kept.delete(form);
  else kept.set(form, unsaved);
}

/** Whether any Settings form holds edits not saved. */
export function hasUnsavedSettings(): boolean {
  return kept.size > 0;
}

/** Puts away every kept draft (tests; a fresh page starts with none). */
export function clearDrafts(): void {
  kept.clear();
}

/**
 * A form's fields as text: what is saved, with the person's edits over it. The edits outlive the form
 * (kept above) until saved or discarded; a save, once read back, drops the edits it made true, and any
 * other reload (another form's save) leaves what is typed alone. `same` compares a field's text with its
 * saved one as the setting reads it (lines without blanks, a number however written).
 */
export function useDraft<K extends string>(form: string, saved: Record<K, string>, same: Same = sameText) {
  const [edits, setEdits] = useState<Record<string, string>>(() => kept.get(form) ?? {});
  const unsaved = unsavedOf(edits, saved, same);
  const savedKey = JSON.stringify(saved);
  // What was saved when last read, to let go of edits that only said it once it changes.
  const before = useRef<Record<string, string>>(saved);
  // Once what is saved changes (a save read back), an edit it made true shows as saved.
  useEffect(() => {
    const was = before.current;
    const now = JSON.parse(savedKey) as Record<string, string>;
    before.current = now;
    setEdits((edits) => editsAfterReload(edits, was, now, same));
  }, [savedKey, same]);
  const unsavedKey = JSON.stringify(unsaved);
  useEffect(() => keepDraft(form, JSON.parse(unsavedKey) as Record<string, string>), [form, unsavedKey]);
  return {
    values: { ...saved, ...edits } as Record<K, string>,
    set: (key: K, text: string) => setEdits((now) => ({ ...now, [key]: text })),
    /** Whether the form holds edits not saved. */
    unsaved: Object.keys(unsaved).length > 0,
    /** Back to what is saved. */
    discard: () => (setEdits({}), kept.delete(form)),
  };
}

/**
 * Closing or reloading the page with edits not saved asks first (the browser's own question). Not in
 * the desktop app (its bridge, `window.steward`): closing hides its window, which keeps the edits, and
 * Electron would cancel Quit without a word rather than ask.
 */
export function warnOnUnload(event: Pick<BeforeUnloadEvent, 'preventDefault' | 'returnValue'>): void {
  if (!hasUnsavedSettings() || 'steward' in window) return;
  event.preventDefault();
  // Older browsers ask only when returnValue is set.
  event.returnValue = '';
}

if (typeof window !== 'undefined') window.addEventListener('beforeunload', warnOnUnload);
