// What an import left out, in the words people read, for the CLI and the panel alike. It imports
// nothing, as reading.ts, so the panel can load it at run time. lists.ts's SKIP_REASONS are its keys;
// a test holds the two to each other.

/** Why a transcript line held nothing to import, one entry per SKIP_REASONS entry: "1,190 bookkeeping, 14 unreadable". */
export const SKIP_WORDS = {
  meta_only: 'bookkeeping',
  unknown_type: 'of a kind Steward does not import',
  no_id: 'without a session to belong to',
  too_large: 'too large',
  malformed: 'unreadable',
  // The window may be the default nobody chose, or the days a backfill asked for: neither is named here.
  outside_window: 'older than the period imported',
  empty: 'empty',
  // Said after a count, one or many: "1 repeating what was already imported", never "1 … messages".
  duplicate: 'repeating what was already imported',
} as const;

/** Why parts were held back on purpose: "4 of what you forgot, 2 in excluded folders". */
export const WITHHELD_WORDS = {
  forgotten: 'of what you forgot',
  excluded: 'in excluded folders',
} as const;

/**
 * Why a transcript file could not be read, by its code (`Sweep.Unreadable`), in words; the code stays
 * beside them to look up. A code without words of its own is said as an error with that code.
 */
const UNREADABLE_WORDS: Readonly<Record<string, string>> = {
  read_failed: 'its contents could not be read',
  // Nothing of it was read: a document that does not parse (a legacy Gemini chat, which Gemini CLI
  // rewrites whole every turn, so often one read mid-write), or a line file none of whose lines did.
  malformed: 'nothing of it could be read: it may be in the middle of being written, or cut short',
  SQLITE_NOTADB: 'not a database',
  SQLITE_CORRUPT: 'a damaged database',
  EISDIR: 'a folder, not a file',
  ENAMETOOLONG: 'its path is too long to open',
};

export function unreadableWhy(code: string): string {
  const words = UNREADABLE_WORDS[code] ?? UNREADABLE_WORDS[code.replace(/_[A-Z]+$/, '')];
  return words ?? `error ${code}`;
}

/** What a run's failures come to (`level`: the run's, for every surface that marks it). */
export interface RunFailures {
  /** Files that failed in this run: newly unreadable (or changed and failing again), or Steward's own failures. */
  failed: number;
  /** Files already known unreadable and unchanged since they failed: not opened again, so no failure of this run. */
  stillUnreadable: number;
  level: 'ok' | 'warning' | 'failed';
}

/**
 * The one rule for a file that could not be read, for the CLI (its words and exit code) and the panel
 * (Telemetry's Failed and Warning) alike: one known and unchanged since it failed is a warning, not a
 * failure of this run; a newly unreadable one is a failure until it is known. `providers`: a run's
 * results, or a telemetry row's (a compact row has no `unreadableUnchanged`, and nothing failed).
 */
export function failuresOf(providers: ReadonlyArray<{ failed: number; unreadableUnchanged?: number | undefined }>): RunFailures {
  let failed = 0;
  let stillUnreadable = 0;
  for (const p of providers) {
    const still = Math.min(p.unreadableUnchanged ?? 0, p.failed);
    stillUnreadable += still;
    failed += p.failed - still;
  }
  return { failed, stillUnreadable, level: failed > 0 ? 'failed' : stillUnreadable > 0 ? 'warning' : 'ok' };
}
