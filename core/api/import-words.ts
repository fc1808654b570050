// What an import left out, and what to do about a file it could not read, in the words people read,
// for the CLI and the panel alike. It imports nothing, as reading.ts, so the panel can load it at run
// time. lists.ts's SKIP_REASONS are its keys; a test holds the two to each other.

/** Why a transcript line held nothing to import, one entry per SKIP_REASONS entry: "1,190 bookkeeping, 14 that did not parse". */
export const SKIP_WORDS = {
  meta_only: 'bookkeeping',
  unknown_type: 'of a kind Steward does not import',
  no_id: 'without a session to belong to',
  too_large: 'too large',
  // A line of a file that was read: never "unreadable", the word for a file Sweep.Unreadable names (QA: "1
  // unreadable" sent a person looking for a file no list held). Nothing of it is kept, so nothing names it.
  malformed: 'that did not parse',
  // The window may be the default nobody chose, or the days a backfill asked for: neither is named here,
  // and it is said as every other place says it.
  outside_window: 'older than the window',
  empty: 'empty',
  // Said after a count, one or many: "1 repeating what was already imported", never "1 … messages".
  duplicate: 'repeating what was already imported',
  // Said after a count, one or many: "1 repeating a message already imported, but with different words".
  differing_copy: 'repeating a message already imported, but with different words',
  // Said of lines, after a count: "2 in a file that is not a transcript" (its file is not named: a count only).
  not_a_transcript: 'in a file that is not a transcript',
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
const CONTENTS_UNREADABLE = 'its contents could not be read';

const UNREADABLE_WORDS: Readonly<Record<string, string>> = {
  read_failed: CONTENTS_UNREADABLE,
  // Nothing of it was read: a document that does not parse (a legacy Gemini chat, which Gemini CLI
  // rewrites whole every turn, so often one read mid-write), or a line file none of whose lines did.
  malformed: 'nothing of it could be read: it may be in the middle of being written, or cut short',
  // A line file none of whose lines parsed and whose first bytes are no JSON (a page of HTML, random bytes).
  not_transcript: 'not a transcript: nothing in it is JSON',
  // A line file none of whose lines parsed and whose head is zeros: a crash or power loss zero-filled it.
  damaged: 'damaged: parts of it were overwritten with zeros, as a crash can leave a file',
  SQLITE_NOTADB: 'not a database',
  SQLITE_CORRUPT: 'a damaged database',
  // An OpenClaw store its gateway (or another program) held locked, or wrote to during a read that takes no locks.
  SQLITE_BUSY: 'busy: another program held it locked while Steward read it',
  SQLITE_LOCKED: 'busy: another program held it locked while Steward read it',
  store_changed: 'it was written to while Steward read it',
  EISDIR: 'a folder, not a file',
  ENAMETOOLONG: 'its path is too long to open',
};

export function unreadableWhy(code: string): string {
  const words = UNREADABLE_WORDS[code] ?? UNREADABLE_WORDS[code.replace(/_[A-Z]+$/, '')];
  return words ?? `error ${code}`;
}

/**
 * What a person can do about a file Steward could not read, by why it could not: wait for it to change
 * (caught mid-write), replace it (damaged), move or rename it (not a transcript at all), or shorten the
 * folders it is in (a path the system cannot open). A code Steward has no words for is taken as damaged.
 * The one rule for the CLI (`steward sweep`, `backfill`, `info`) and the panel (Telemetry, Home).
 */
export type Remedy = 'wait' | 'replace' | 'move' | 'shorten';

const REMEDIES: Readonly<Record<string, Remedy>> = {
  // No line of it parsed: a Gemini chat is rewritten whole every turn, so one is often read mid-write.
  malformed: 'wait',
  // A store held or written by the agent while Steward read it: read again once it is let go, or done.
  SQLITE_BUSY: 'wait',
  SQLITE_LOCKED: 'wait',
  store_changed: 'wait',
  not_transcript: 'move',
  // Zero-filled by a crash: it will not mend by waiting, and it is the person's own transcript, so not 'move'.
  damaged: 'replace',
  // A database, or a folder, in the agent's folder under a transcript's name.
  SQLITE_NOTADB: 'move',
  EISDIR: 'move',
  ENAMETOOLONG: 'shorten',
};

/** A code's remedy; an extended code (SQLITE_CORRUPT_INDEX) is its base code's. */
export function remedyOf(code: string): Remedy {
  return REMEDIES[code] ?? REMEDIES[code.replace(/_[A-Z]+$/, '')] ?? 'replace';
}

/** What is wrong with one file, in words and never its code: the code's own words, else that it could not be read. */
export function whatIsWrong(code: string): string {
  const words = unreadableWhy(code);
  // unreadableWhy says a code it has no words for as `error <code>`: the code is shown apart (the panel's Details).
  return words === `error ${code}` ? CONTENTS_UNREADABLE : words;
}

/** What to do about `count` files of one remedy, in a sentence or two. */
export function remedyWords(remedy: Remedy, count: number): string {
  const one = count === 1;
  const it = one ? 'it' : 'them';
  switch (remedy) {
    case 'wait':
      return one
        ? 'It may have been caught in the middle of being written: Steward reads it again once it changes, so there is nothing to do unless it stays like this. Then replace it with a good copy, or move it out of the agent’s folder.'
        : 'They may have been caught in the middle of being written: Steward reads each again once it changes, so there is nothing to do unless one stays like this. Then replace it with a good copy, or move it out of the agent’s folder.';
    case 'replace':
      return `${one ? 'It may be' : 'They may be'} damaged. Replace ${one ? 'it' : 'each'} with a good copy (from a backup, or the computer it came from), or move ${it} out of the agent’s folder if ${one ? 'it is' : 'they are'} not needed. Steward tries again once ${one ? 'it changes' : 'one changes'}.`;
    case 'move':
      return `${one ? 'It is' : 'They are'} named like a transcript but ${one ? 'is' : 'are'} not one: move ${it} out of the agent’s folder, or rename ${it}.`;
    case 'shorten':
      return `The system cannot open a path this long: shorten the names of the folders ${one ? 'it is' : 'they are'} in, or move ${it} to a folder with a shorter path.`;
  }
}

/** Files grouped by what can be done about them, the groups in the order their first file came (newest failure first). */
export function byRemedy<F extends { code: string }>(files: readonly F[]): Array<{ remedy: Remedy; files: F[] }> {
  const groups = new Map<Remedy, F[]>();
  for (const f of files) {
    const remedy = remedyOf(f.code);
    groups.set(remedy, [...(groups.get(remedy) ?? []), f]);
  }
  return [...groups].map(([remedy, grouped]) => ({ remedy, files: grouped }));
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
