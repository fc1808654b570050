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
  outside_window: 'older than the chosen period',
  empty: 'empty',
  duplicate: 'repeating messages already imported',
} as const;

/** Why parts were held back on purpose: "4 of what you forgot, 2 in excluded folders". */
export const WITHHELD_WORDS = {
  forgotten: 'of what you forgot',
  excluded: 'in excluded folders',
} as const;
