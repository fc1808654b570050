import { createHash } from 'node:crypto';
import { subagentParentOf } from '../api/index.js';
import { isJsonText } from '../secrets/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { cjkAppendix, hasCjk } from './cjk.js';
import { PieceSize, PieceWindow } from './pace.js';
import { TOOL_RESULT_ROLE } from '../transcripts/index.js';
import { StoredPlaces } from './placed.js';

/**
 * The full-text index over parts (search_fts, migration 3) and everything that keeps it exact: the
 * sink indexes each step's new parts in the same commit window, background work indexes parts stored
 * before the index existed, and retention and forgetting remove index rows before their parts.
 */

/** Where a word has a hump, a lower-upper-lower acronym edge or a letter-digit edge: unicode61 keeps it whole. */
const HUMP = /[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]/g;
const PIECES = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * What the index tokenizes for a part's text: the text, then the pieces of its camelCase, PascalCase
 * and letter-digit identifiers (`parseConfig` → `parse Config`, `TS2345` → `TS 2345`), so they are
 * found by their pieces too. unicode61 already splits snake_case, paths and dotted names at their
 * punctuation. Fixed for the life of the index (see migration 3): `_v1` is in the SQL function's name.
 * It runs for every part indexed, so it scans for humps (rare) rather than for words (many).
 */
export function searchText(text: string | null): string | null {
  if (text === null) return text;
  HUMP.lastIndex = 0;
  let match = HUMP.exec(text);
  if (match === null) return text;
  const seen = new Set<string>();
  const pieces: string[] = [];
  while (match !== null) {
    let start = match.index;
    while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start -= 1;
    let end = match.index + match[0].length;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end += 1;
    const word = text.slice(start, end);
    if (word.length >= 3 && !seen.has(word)) {
      seen.add(word);
      pieces.push(...(word.match(PIECES) ?? []));
    }
    HUMP.lastIndex = end;
    match = HUMP.exec(text);
  }
  return pieces.length === 0 ? text : `${text}\n${pieces.join(' ')}`;
}

/**
 * What the index tokenizes for a part's text since migration 13: searchText's, then the characters of
 * each Chinese or Japanese run one by one (see cjkAppendix), so any stretch of a run is found as the
 * phrase of its characters. A text without such characters is indexed exactly as searchText indexed
 * it. Fixed for the life of the index, as searchText is: `_v2` is in the SQL function's name.
 */
export function searchTextV2(text: string | null): string | null {
  if (text === null) return text;
  const appendix = cjkAppendix(text);
  return appendix === null ? searchText(text) : `${searchText(text)}\n${appendix}`;
}

/** The text_version of every part indexed now (search_map): searchTextV4's. */
const TEXT_VERSION = 4;

/**
 * What the index tokenizes for a part's text since migration 14: searchTextV2's, of the text as the
 * index reads its words (indexReading): in JSON, a tool's input or a shell's output wrapper, an escaped
 * line break no longer glues its `n` to the next word (`;\nexport` holds `export`). Any other text is
 * indexed exactly as searchTextV2 indexed it. Fixed for the life of the index: text_version 3.
 */
export function searchTextV3(text: string | null): string | null {
  return text === null ? text : searchTextV2(indexReading(text));
}

/**
 * What the index tokenizes for a part since migration 18: searchTextV3's, and for a tool call the name
 * of its tool after its input (`apply_patch`, `TodoWrite` with its pieces), which capture keeps in the
 * part's meta: the panel shows it on every call, so a person searches by it. Any other part is indexed
 * exactly as searchTextV3 indexed it. Fixed for the life of the index: text_version 4.
 */
export function searchTextV4(text: string | null, toolName: string | null = null): string | null {
  const input = searchTextV3(text);
  if (toolName === null) return input;
  const name = searchTextV2(toolName);
  return input === null || input === '' ? name : `${input}\n${name}`;
}

/**
 * The tool a tool call's meta names (`{"name": "Bash", …}`), or null. Every tool call indexed, and
 * every one the re-tag walk checks, asks: meta without a name is not parsed.
 */
export function toolNameOf(meta: string | null): string | null {
  if (meta === null || !meta.includes('"name"')) return null;
  try {
    const name = (JSON.parse(meta) as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() !== '' ? name : null;
  } catch {
    return null;
  }
}

/** What each text_version's rows were indexed with (search_map); any other version is v1's. v4 reads a part's text as v3. */
const TEXT_OF = new Map<unknown, (text: string | null) => string | null>([
  [2, searchTextV2],
  [3, searchTextV3],
  [4, searchTextV3],
]);

/** What a tool call's input column holds for its text_version: from v4 on its tool's name too. */
function toolText(version: unknown, text: string | null, meta: string | null): string | null {
  return version === TEXT_VERSION ? searchTextV4(text, toolNameOf(meta)) : (TEXT_OF.get(version) ?? searchText)(text);
}

/**
 * Whether a text is JSON by how it begins (isJsonText, the one rule redaction reads by too): an
 * object whose first key or end follows its `{`, or an array (of arrays) whose first value is a
 * string, an object or its end. Tool inputs, Codex's output wrapper and unknown blocks kept as their
 * JSON begin so, also when cut short; a person's message seldom does (`{C:\new folder}` and
 * `[note] C:\new` do not), so its backslashes stay as written.
 */
export const looksLikeJson: (text: string) => boolean = isJsonText;

/** `n`, `r`, `t`, `b`, `f`: the escapes of JSON that a letter spells (a control character: a line break, a tab). */
function isLetterEscape(code: number): boolean {
  return code === 110 || code === 114 || code === 116 || code === 98 || code === 102;
}

/**
 * The offset of the first escape a letter spells at or after `from`, or -1. Each backslash escapes
 * the character after it, so escapes are read in pairs from the first backslash of a run: `\\n` is
 * an escaped backslash, then a letter n that begins a word.
 */
function nextLetterEscape(text: string, from: number): number {
  for (let at = text.indexOf('\\', from); at >= 0 && at + 1 < text.length; at = text.indexOf('\\', at + 2)) {
    if (isLetterEscape(text.charCodeAt(at + 1))) return at;
  }
  return -1;
}

/**
 * A part's text as the index reads its words (v3): in a text that is JSON (looksLikeJson), each
 * escape a letter spells (`\n`, `\r`, `\t`, `\b`, `\f`) is two spaces, which separate words as the
 * line break or tab it stands for would; any other text as it is. Offsets do not move, so a match
 * found in it stands at the same place in the text. `json`: whether the whole text is JSON, for a
 * piece of one (a snippet's excerpt, which begins where it was cut).
 */
export function indexReading(text: string, json = looksLikeJson(text)): string {
  let at = json ? nextLetterEscape(text, 0) : -1;
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += `${text.slice(from, at)}  `;
    from = at + 2;
    at = nextLetterEscape(text, from);
  }
  return out + text.slice(from);
}

/**
 * Whether a part indexed with an older text_version reads differently in searchTextV4: `toolMeta` is
 * a tool call's meta (null for any other part), whose tool's name v4 indexes too.
 */
function staleText(version: unknown, text: string | null, toolMeta: string | null): boolean {
  if (version === TEXT_VERSION) return false;
  if (toolNameOf(toolMeta) !== null) return true;
  if (text === null || version === 3) return false;
  // v2 read Chinese and Japanese as v3 does; v1 did not.
  if (version !== 2 && hasCjk(text)) return true;
  return looksLikeJson(text) && nextLetterEscape(text, 0) >= 0;
}

/**
 * The pieces searchText indexes for one identifier a person types (`DeliveryRetry` → Delivery, Retry),
 * or none when it has no hump. As a phrase they find the word inside a longer identifier too
 * (`handleWebhookDeliveryRetry`), whose own token is the whole name.
 */
export function identifierPieces(word: string): string[] {
  HUMP.lastIndex = 0;
  if (word.length < 3 || !/^[A-Za-z0-9]+$/.test(word) || !HUMP.test(word)) return [];
  return word.match(PIECES) ?? [];
}

const alnum = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');
const sessionHashes = new Map<string, string>();

/** A session id as one index token (ids hold colons and dashes, which the tokenizer splits at). */
export function sessionToken(sessionId: string): string {
  let hash = sessionHashes.get(sessionId);
  if (hash === undefined) {
    hash = createHash('sha256').update(sessionId).digest('hex').slice(0, 16);
    if (sessionHashes.size > 10_000) sessionHashes.clear();
    sessionHashes.set(sessionId, hash);
  }
  return `zs${hash}`;
}


export const scopeTokens = {
  provider: (provider: string) => `zp${alnum(provider)}`,
  role: (role: string | null) => `zr${alnum(role ?? 'none') || 'none'}`,
  session: sessionToken,
  project: (projectKey: string) => `zk${alnum(projectKey.slice(2))}`,
};

/**
 * The facts a search filters on, as tokens of the hidden `scope` column, so every filter is part of
 * the full-text query and never a scan over its matches. Written into search_map when a part is
 * indexed: the same tokens are handed back when the part leaves the index. All but the project are
 * the part's own; a session that moves project has its parts' tags written again (SearchIndex.retag).
 */
function scopeOf(provider: string, role: string | null, sessionId: string, projectKey: string | null): string {
  const tokens = [scopeTokens.provider(provider), scopeTokens.role(role), sessionToken(sessionId)];
  const parent = subagentParentOf(sessionId);
  if (parent !== null) tokens.push(sessionToken(parent));
  if (projectKey !== null) tokens.push(scopeTokens.project(projectKey));
  return tokens.join(' ');
}

const registered = new WeakSet<Db>();

/** The SQL functions the index's view and upkeep call; registered on every connection that writes parts. */
export function registerSearchFunctions(db: Db): void {
  if (registered.has(db)) return;
  // The view of schemas 3 to 12 calls v1; from step 13 on it calls steward_search_text with the map row's text_version.
  db.function('steward_search_text_v1', { deterministic: true }, (text: unknown) => searchText(typeof text === 'string' ? text : null));
  db.function('steward_search_text', { deterministic: true }, (version: unknown, text: unknown) => {
    const value = typeof text === 'string' ? text : null;
    return (TEXT_OF.get(version) ?? searchText)(value);
  });
  // From step 18 on the view feeds a tool call's input column through this, with the call's meta (its tool's name).
  db.function('steward_search_tool_text', { deterministic: true }, (version: unknown, text: unknown, meta: unknown) =>
    toolText(version, typeof text === 'string' ? text : null, typeof meta === 'string' ? meta : null),
  );
  // Whether a part indexed with an older version's text must be indexed again: only if it reads differently now.
  db.function('steward_search_text_stale', { deterministic: true }, (version: unknown, text: unknown, toolMeta: unknown) =>
    staleText(version, typeof text === 'string' ? text : null, typeof toolMeta === 'string' ? toolMeta : null) ? 1 : 0,
  );
  db.function('steward_search_scope_v1', { deterministic: true }, (provider: unknown, role: unknown, sessionId: unknown, projectKey: unknown) =>
    scopeOf(String(provider), typeof role === 'string' ? role : null, String(sessionId), typeof projectKey === 'string' ? projectKey : null),
  );
  registered.add(db);
}

/** Index keys order by line time: seconds in the high bits, the part's rowid below (ties probe upwards). */
export const KEY_SHIFT = 2 ** 20;
const MAX_SECONDS = 2 ** 33 - 1;

export function keyOfSeconds(seconds: number): number {
  return Math.min(Math.max(Math.floor(seconds), 0), MAX_SECONDS) * KEY_SHIFT;
}

const KEY_SQL = `(MIN(MAX(IFNULL(p.ts, 0), 0), ${MAX_SECONDS * 1000 + 999}) / 1000) * ${KEY_SHIFT} + (p.rowid & ${KEY_SHIFT - 1})`;
const SCOPE_SQL = 'steward_search_scope_v1(p.provider, p.role, p.session_id, (SELECT s.project_key FROM sessions s WHERE s.session_id = p.session_id))';
const IDS = 'SELECT value FROM json_each(?)';

/** Part `alias`'s id up to and with its last `:` (messageOf), in SQL. */
const messageSql = (alias: string) => `rtrim(${alias}.part_id, replace(${alias}.part_id, ':', ''))`;
export const MESSAGE_SQL = messageSql('p');
/** Part `q` is of part `p`'s message (a range of the part_id key). */
const SAME_MESSAGE_SQL = `q.part_id > ${MESSAGE_SQL} AND q.part_id < substr(${MESSAGE_SQL}, 1, length(${MESSAGE_SQL}) - 1) || ';'`;
/** Part `p`'s block is a name (Gemini's), not a number (namedBlock). */
const NAMED_SQL = `substr(p.part_id, length(${MESSAGE_SQL}) + 1, 1) NOT GLOB '[0-9]'`;
/** No part of `p`'s message was stored before it. */
const FIRST_STORED_SQL = `NOT EXISTS (SELECT 1 FROM parts q WHERE ${SAME_MESSAGE_SQL} AND q.rowid < p.rowid)`;
/**
 * Whether part `p` stands for its message (startsMessage): block 0, or, for a named block (Gemini's),
 * no part of its message stored before it. A message's count is held by the part that stands for it
 * while that part is indexed: what a session counts is the sum over its indexed parts.
 */
const STARTS_MESSAGE_SQL = `(p.part_id LIKE '%:0' OR (${NAMED_SQL} AND ${FIRST_STORED_SQL}))`;
/**
 * The part that comes to stand for a named-block message when the parts `@ids` are deleted and `p`,
 * the part that stood for it, is one of them: the first stored of the rest of its message. A forget
 * or a prune in pieces can stop with a message cut in two.
 */
const HEIR_SQL = `(SELECT q.rowid FROM parts q WHERE ${SAME_MESSAGE_SQL} AND q.rowid NOT IN (SELECT value FROM json_each(@ids)) ORDER BY q.rowid LIMIT 1)`;
/**
 * countsAsMessage in SQL, of the part `standing` that stands for its message (`p`'s): not a tool's
 * result, or one whose message holds the person's own words, among its parts that meet `among`.
 */
function countsSql(standing: string, among = 'TRUE'): string {
  return `((${standing}.kind <> 'tool_result' AND ${standing}.role IS NOT '${TOOL_RESULT_ROLE}') OR EXISTS (SELECT 1 FROM parts q WHERE ${SAME_MESSAGE_SQL} AND q.genuine_user_turn = 1 AND ${among}))`;
}
/**
 * Whether part `p` counts a message (countsAsMessage, its twin in TypeScript): it stands for its
 * message (STARTS_MESSAGE_SQL), and that message is not a tool's result. Every part indexed from
 * migration 22 on is counted so (its map row's `message_rule` is MESSAGE_RULE).
 */
export const COUNTS_AS_MESSAGE_SQL = `(${STARTS_MESSAGE_SQL} AND ${countsSql('p')})`;
/**
 * The rule a part's map row says it was counted by (search_map.message_rule): 1, by every version
 * before migration 22, is STARTS_MESSAGE_SQL alone (a tool's result counted as a message); 2 is
 * COUNTS_AS_MESSAGE_SQL (since migration 25 also for an OpenClaw toolResult that stands as an image:
 * that migration took what those counted from their sessions, so every rule-2 row counts by it). What a part counted leaves by the rule it was counted by, so counts stay
 * exact while the re-tag walk moves parts counted by rule 1 to rule 2 (#recountPiece).
 */
const MESSAGE_RULE = 2;
/** The parts `@ids` (a JSON array of rowids). */
const DELETED_SQL = 'SELECT value FROM json_each(@ids)';
/**
 * The parts of the messages that lose a part with the person's words (genuine_user_turn) when the
 * parts `@ids` are deleted: a forget or a prune in pieces can take those words before the tool result
 * they share a message with, which then counts no more.
 */
const UNSPOKEN_SQL = `SELECT q.rowid FROM parts g JOIN parts q ON q.part_id > ${messageSql('g')} AND q.part_id < substr(${messageSql('g')}, 1, length(${messageSql('g')}) - 1) || ';'
  WHERE g.rowid IN (${DELETED_SQL}) AND g.genuine_user_turn = 1`;
const COUNTED_SQL = `(CASE sm.message_rule WHEN 1 THEN ${STARTS_MESSAGE_SQL} ELSE ${COUNTS_AS_MESSAGE_SQL} END)`;

/**
 * How far one of the index's background walks has come. `index`: parts not yet in the index being
 * indexed (backfillStep). `retag`: indexed parts being checked, and those whose tags or text version
 * are stale indexed again (retagStep), after an upgrade or a large move. Counts are parts walked of
 * the span of rowids the walk covers (a span's gaps, deleted parts, count as walked when passed).
 */
export interface IndexProgress {
  phase: 'index' | 'retag';
  /** Parts walked: indexed (`index`), or checked (`retag`). */
  indexedParts: number;
  totalParts: number;
  complete: boolean;
  /** A run is writing parts for the walk to index afterwards: the walk waits for it to end. */
  deferred: boolean;
}

/**
 * Pages of merged index a merge piece writes: from 64, sized to about MERGE_TARGET_MS. Forgetting a
 * 149k-part conversation of a 1M-part store with merge pieces of their own (FTS5's automerge off) held
 * the event loop over 50 ms 2 times instead of 7–12, and over 30 ms 22–29 times instead of 76–95.
 * At most 300: most pieces find little to merge and are quick, so the size grew to its cap, and the
 * piece that then met a real merge took it whole. With a cap of 4,000 pages, forgetting a project
 * of 150k sessions held the loop 90–110 ms every few seconds in such pieces; with 300 it never went
 * over 30 ms there. The index walk took as long (a 207k-part store: 12.2 s against 11.9 s).
 */
const MERGE_TARGET_MS = 10;
const MERGE_PAGES = { maxRows: 300, minRows: 16, startRows: 64, targetMs: MERGE_TARGET_MS };
/**
 * Pages a fold piece writes (foldPiece), from 8. A page written may cost many read: the entries of
 * removed parts and their delete markers cancel and write nothing. Folding the index after forgetting
 * 10,000 of 12,000 parts, a first piece of 64 pages held the event loop 65 ms.
 */
const FOLD_PAGES = { maxRows: 300, minRows: 4, startRows: 8, targetMs: MERGE_TARGET_MS };
/** FTS5's structure record: its row in the index's data table, and the mark of its second form. */
const STRUCTURE_ROWID = 10;
const STRUCTURE_V2 = [0xff, 0x00, 0x00, 0x01];
/** Connections whose index is being folded: their merge pieces leave the work to the fold (see mergePiece). */
const folding = new WeakSet<Db>();

/** A varint as SQLite (and FTS5) writes one: big-endian groups of 7 bits, the ninth byte whole. */
function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 8; i += 1) {
    const byte = bytes[at + i] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + i + 1];
  }
  return [value * 256 + (bytes[at + 8] ?? 0), at + 9];
}

/**
 * Each level's segments and their leaf pages in FTS5's structure record (fts5StructureDecode's
 * format), level 0 first, or undefined for a record this does not read.
 */
function structureLevels(record: Uint8Array): Array<{ segments: number; pages: number }> | undefined {
  const v2 = STRUCTURE_V2.every((byte, i) => record[4 + i] === byte);
  // A cookie of 4 bytes, then the second form's mark.
  let at = v2 ? 8 : 4;
  const next = () => {
    const [value, after] = readVarint(record, at);
    at = after;
    return value;
  };
  const count = next();
  next(); // segments
  next(); // write counter
  const levels: Array<{ segments: number; pages: number }> = [];
  for (let level = 0; level < count; level += 1) {
    next(); // segments being merged
    const segments = next();
    let pages = 0;
    for (let segment = 0; segment < segments; segment += 1) {
      next(); // segment id
      const first = next();
      pages += next() - first + 1;
      // The second form's origins and tombstone counters.
      if (v2) for (let field = 0; field < 5; field += 1) next();
    }
    if (at > record.length) return undefined;
    levels.push({ segments, pages });
  }
  return levels;
}

/**
 * Indexed parts of a session that moved project whose tags are written again in the move's own
 * transaction; a session with more is left to the re-tag walk (retagStep), which writes them in
 * paced pieces. Each part is taken out of the index and put back (its text re-tokenized twice).
 */
export const RETAG_IN_STEP = 100;
/**
 * Parts the re-tag walk may check per part it may re-tag: a check (the part's tag against its
 * session's project) costs a small fraction of a re-tag, so a piece's time stays about the same
 * whether it finds none of its parts stale or all of them.
 */
const CHECKS_PER_RETAG = 16;

/**
 * How long one piece of step 30's placing may take (#placePiece): it stops once what it spent and
 * what re-keying its placed parts will cost reach this, and resumes after its last part. Capped by
 * parts alone (50 at least, the pacing's smallest piece), pieces on a 1M-part store held the event
 * loop 320–930 ms at p99 and up to 4 s: a part re-keyed costs 0.2–2 ms (more when cold). Capped by
 * time, its pieces there took at most 17 ms of CPU (p50 5), their commits apart.
 */
const PLACE_MS = 20;
/** What re-keying one placed part costs before a piece has timed it (1–2 ms measured): it only grows at once. */
const REKEY_START_MS = 2;
/**
 * FTS5's crisis merge: the flush that gives level 0 this many segments merges the level whole inside
 * the statement, and each level above it that then fills too (automerge is off, migration 7). Unless
 * search_fts_config holds another figure, this is FTS5's default.
 */
const CRISIS_MERGE = 16;
/**
 * Segments a placing piece may add to level 0 (its deletes, then its inserts from a lower key, then
 * the flush at the next merge): it re-keys only while level 0 is this far short of a crisis merge.
 * On a 1M-part store with level 0 at 12 segments and level 1 at 15, placing without this flushed
 * level 0 into a crisis merge that went on through level 1 (1.7 s of CPU in one commit; 26 s seen
 * on another); with it, no piece, merge or commit of the walk took over 30 ms of CPU.
 */
const CRISIS_MARGIN = 4;

/** What tests may set of a SearchIndex: how long a piece of step 30's placing may take (PLACE_MS). */
export interface SearchIndexOptions {
  placeMs?: number;
}

/** The walk's range is open while a run defers: it ends wherever the run stops. */
const OPEN = Number.MAX_SAFE_INTEGER;

/** A full-text expression FTS5 refused (syntax, an unknown column): the caller may retry it as a phrase. */
export class SearchSyntaxError extends Error {
  constructor() {
    super('The search expression is not valid full-text syntax');
    this.name = 'SearchSyntaxError';
  }
}

/**
 * What names the conversation a placing piece stopped inside (search_state holds integers): its
 * sessions rowid and its id, hashed to 48 bits. Neither alone: a conversation stored after the last
 * one was deleted takes its rowid (and its parts' rowids), and one read again keeps its id.
 */
function placeKey(sessionRowid: number, sessionId: string): number {
  return createHash('sha256').update(`${sessionRowid}:${sessionId}`).digest().readUIntBE(0, 6);
}

export class SearchIndex {
  readonly #db: Db;
  readonly #lastRowid;
  readonly #newRowids;
  readonly #mapParts;
  readonly #unmapped;
  readonly #mapOne;
  readonly #indexKeys;
  readonly #addStats;
  readonly #subtractStats;
  readonly #unindex;
  readonly #unmap;
  readonly #state;
  readonly #setState;
  readonly #backfillRows;
  readonly #changes;
  readonly #sessionIndexed;
  readonly #sessionSpan;
  readonly #staleScan;
  readonly #retagMap;
  readonly #reindex;
  readonly #recountSpan;
  readonly #recount;
  readonly #recounted;
  readonly #standingOf;
  readonly #uncountMessages;
  readonly #countMessages;
  readonly #mergePages = new PieceSize(MERGE_PAGES);
  readonly #foldPages = new PieceSize(FOLD_PAGES);
  readonly #structure;
  readonly #placeSessions;
  readonly #untimedOf;
  readonly #places;
  readonly #setPlace;
  readonly #keyed;
  readonly #rekey;
  readonly #unkeyed;
  readonly #keyedIn;
  readonly #crisisMerge;
  readonly #placeMs: number;
  /** What re-keying a placed part cost lately (see #rekeyParts). */
  #rekeyMs = REKEY_START_MS;

  constructor(db: Db, options: SearchIndexOptions = {}) {
    registerSearchFunctions(db);
    this.#db = db;
    this.#placeMs = options.placeMs ?? PLACE_MS;
    this.#lastRowid = db.prepare('SELECT IFNULL(MAX(rowid), 0) FROM parts').pluck();
    this.#newRowids = db.prepare('SELECT rowid FROM parts WHERE rowid > ? ORDER BY rowid').pluck();
    this.#mapParts = db.prepare(
      `INSERT OR IGNORE INTO search_map (fts_rowid, part_rowid, scope, text_version, message_rule) SELECT ${KEY_SQL}, p.rowid, ${SCOPE_SQL}, ${TEXT_VERSION}, ${MESSAGE_RULE} FROM parts p WHERE p.rowid IN (${IDS}) RETURNING fts_rowid, part_rowid`,
    );
    this.#unmapped = db.prepare(`SELECT p.rowid AS rowid, ${KEY_SQL} AS key, ${SCOPE_SQL} AS scope FROM parts p WHERE p.rowid IN (${IDS}) AND NOT EXISTS (SELECT 1 FROM search_map m WHERE m.part_rowid = p.rowid)`);
    this.#mapOne = db.prepare(`INSERT OR IGNORE INTO search_map (fts_rowid, part_rowid, scope, text_version, message_rule) VALUES (?, ?, ?, ${TEXT_VERSION}, ${MESSAGE_RULE})`);
    this.#indexKeys = db.prepare(
      `INSERT INTO search_fts (rowid, body, thinking, tool_input, tool_output, scope) SELECT fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source WHERE fts_rowid IN (${IDS})`,
    );
    this.#addStats = db.prepare(
      `INSERT INTO session_stats (session_id, parts, messages, tool_calls)
       SELECT p.session_id, COUNT(*), SUM(${COUNTS_AS_MESSAGE_SQL}), SUM(p.kind = 'tool_use') FROM parts p WHERE p.rowid IN (${IDS}) GROUP BY p.session_id
       ON CONFLICT(session_id) DO UPDATE SET parts = parts + excluded.parts, messages = messages + excluded.messages, tool_calls = tool_calls + excluded.tool_calls`,
    );
    // What the indexed parts `@ids` count leaves with them, by the rule each was counted by. When their
    // rows are deleted (`@deleted`), a message they cut in two stays counted: the indexed part that
    // comes to stand for it counts it, by its own rule and what is left of the message; one that stays
    // standing counts by what is left of it (UNSPOKEN_SQL).
    this.#subtractStats = db.prepare(
      `UPDATE session_stats SET parts = session_stats.parts - x.n, messages = session_stats.messages - x.m, tool_calls = session_stats.tool_calls - x.t
       FROM (SELECT session_id, SUM(n) AS n, SUM(m) AS m, SUM(t) AS t FROM (
               SELECT p.session_id AS session_id, 1 AS n, ${COUNTED_SQL} AS m, p.kind = 'tool_use' AS t
                 FROM parts p JOIN search_map sm ON sm.part_rowid = p.rowid WHERE p.rowid IN (SELECT value FROM json_each(@ids))
               UNION ALL
               SELECT h.session_id, 0, -(CASE hm.message_rule WHEN 1 THEN 1 ELSE ${countsSql('h', 'q.rowid NOT IN (SELECT value FROM json_each(@ids))')} END), 0
                 FROM parts p JOIN parts h ON h.rowid = ${HEIR_SQL} JOIN search_map hm ON hm.part_rowid = h.rowid
                 WHERE @deleted AND p.rowid IN (SELECT value FROM json_each(@ids)) AND ${NAMED_SQL} AND ${FIRST_STORED_SQL}
               UNION ALL
               SELECT p.session_id, 0, ${countsSql('p')} - ${countsSql('p', `q.rowid NOT IN (${DELETED_SQL})`)}, 0
                 FROM parts p JOIN search_map sm ON sm.part_rowid = p.rowid
                 WHERE @deleted AND p.rowid IN (${UNSPOKEN_SQL}) AND p.rowid NOT IN (${DELETED_SQL}) AND sm.message_rule <> 1 AND ${STARTS_MESSAGE_SQL})
             GROUP BY session_id) AS x
       WHERE session_stats.session_id = x.session_id`,
    );
    // A 'delete' re-tokenizes exactly what was inserted: the part's text and the scope kept in the map.
    this.#unindex = db.prepare(
      `INSERT INTO search_fts (search_fts, rowid, body, thinking, tool_input, tool_output, scope) SELECT 'delete', fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source WHERE part_rowid IN (${IDS})`,
    );
    this.#unmap = db.prepare(`DELETE FROM search_map WHERE part_rowid IN (${IDS})`);
    this.#state = db.prepare('SELECT value FROM search_state WHERE key = ?').pluck();
    this.#setState = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    this.#backfillRows = db.prepare('SELECT rowid FROM parts WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?').pluck();
    this.#changes = db.prepare('SELECT total_changes()').pluck();
    this.#structure = db.prepare(`SELECT block FROM search_fts_data WHERE id = ${STRUCTURE_ROWID}`).pluck();
    this.#crisisMerge = db.prepare(`SELECT v FROM search_fts_config WHERE k = 'crisismerge'`).pluck();
    // A session's parts by parts_session_ts; those with a map row are in the index.
    this.#sessionIndexed = db.prepare('SELECT m.part_rowid FROM parts p JOIN search_map m ON m.part_rowid = p.rowid WHERE p.session_id = ? LIMIT ?').pluck();
    this.#sessionSpan = db.prepare('SELECT MIN(rowid) AS first, MAX(rowid) AS last FROM parts WHERE session_id = ?');
    this.#staleScan = db
      .prepare(`SELECT m.part_rowid, m.scope <> ${SCOPE_SQL} OR steward_search_text_stale(m.text_version, p.text, CASE WHEN p.kind = 'tool_use' THEN p.meta END) FROM search_map m JOIN parts p ON p.rowid = m.part_rowid WHERE m.part_rowid > ? AND m.part_rowid <= ? ORDER BY m.part_rowid LIMIT ?`)
      .raw();
    this.#retagMap = db.prepare(`UPDATE search_map SET scope = (SELECT ${SCOPE_SQL} FROM parts p WHERE p.rowid = search_map.part_rowid), text_version = ${TEXT_VERSION} WHERE part_rowid IN (${IDS})`);
    this.#reindex = db.prepare(
      `INSERT INTO search_fts (rowid, body, thinking, tool_input, tool_output, scope) SELECT fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source WHERE part_rowid IN (${IDS})`,
    );
    // Indexed parts in a span of rowids, by the unique index on part_rowid.
    this.#recountSpan = db.prepare('SELECT part_rowid FROM search_map WHERE part_rowid > ? AND part_rowid <= ? ORDER BY part_rowid LIMIT ?').pluck();
    // What the parts `?` counted by rule 1 count less by today's rule, taken from their sessions' counts.
    this.#recount = db.prepare(
      `UPDATE session_stats SET messages = session_stats.messages - x.d
       FROM (SELECT p.session_id AS session_id, SUM(${STARTS_MESSAGE_SQL} AND NOT ${countsSql('p')}) AS d
               FROM parts p JOIN search_map sm ON sm.part_rowid = p.rowid WHERE p.rowid IN (${IDS}) AND sm.message_rule = 1 GROUP BY p.session_id) AS x
       WHERE session_stats.session_id = x.session_id`,
    );
    this.#recounted = db.prepare(`UPDATE search_map SET message_rule = ${MESSAGE_RULE} WHERE part_rowid IN (${IDS}) AND message_rule = 1`);
    // The indexed parts that stand for the messages `?` (messageOf's prefixes): a range of the part_id key each.
    this.#standingOf = db.prepare(
      `SELECT p.rowid FROM json_each(?) m JOIN parts p ON p.part_id > m.value AND p.part_id < substr(m.value, 1, length(m.value) - 1) || ';'
       WHERE ${STARTS_MESSAGE_SQL} AND EXISTS (SELECT 1 FROM search_map sm WHERE sm.part_rowid = p.rowid)`,
    ).pluck();
    // What the indexed parts `?` count as messages, by the rule each was counted by; then by today's (see recountMessages).
    this.#uncountMessages = db.prepare(
      `UPDATE session_stats SET messages = session_stats.messages - x.m
       FROM (SELECT p.session_id AS session_id, SUM(${COUNTED_SQL}) AS m FROM parts p JOIN search_map sm ON sm.part_rowid = p.rowid WHERE p.rowid IN (${IDS}) GROUP BY p.session_id) AS x
       WHERE session_stats.session_id = x.session_id`,
    );
    // Step 30's walk: conversations in a span of sessions' rowids, the parts of one stored with no time
    // (a NULL ts sorts first in parts_session_ts, by rowid), and the place of one (StoredPlaces).
    this.#placeSessions = db.prepare('SELECT rowid, session_id FROM sessions WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?').raw();
    this.#untimedOf = db.prepare('SELECT rowid FROM parts WHERE session_id = ? AND ts IS NULL AND rowid > ? ORDER BY rowid LIMIT ?').pluck();
    this.#places = new StoredPlaces(db);
    this.#setPlace = db.prepare('UPDATE parts SET ts = ?, ts_inferred = 1 WHERE rowid = ? AND ts IS NULL');
    this.#keyed = db.prepare(`SELECT m.part_rowid AS rowid, m.fts_rowid AS old, ${KEY_SQL} AS key FROM search_map m JOIN parts p ON p.rowid = m.part_rowid WHERE m.part_rowid IN (${IDS})`);
    this.#rekey = db.prepare('UPDATE OR IGNORE search_map SET fts_rowid = ? WHERE part_rowid = ?');
    // #unindex and #reindex in key order: FTS5 writes its pending terms out as a segment whenever a
    // key comes below the last one written, and 50 parts re-keyed in no order wrote up to 100 segments
    // (a piece held the event loop 80-150 ms, and seconds when a level filled and was merged whole).
    this.#unkeyed = db.prepare(
      `INSERT INTO search_fts (search_fts, rowid, body, thinking, tool_input, tool_output, scope) SELECT 'delete', fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source WHERE part_rowid IN (${IDS}) ORDER BY fts_rowid`,
    );
    this.#keyedIn = db.prepare(
      `INSERT INTO search_fts (rowid, body, thinking, tool_input, tool_output, scope) SELECT fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source WHERE part_rowid IN (${IDS}) ORDER BY fts_rowid`,
    );
    this.#countMessages = db.prepare(
      `UPDATE session_stats SET messages = session_stats.messages + x.m
       FROM (SELECT p.session_id AS session_id, SUM(${COUNTS_AS_MESSAGE_SQL}) AS m FROM parts p JOIN search_map sm ON sm.part_rowid = p.rowid WHERE p.rowid IN (${IDS}) GROUP BY p.session_id) AS x
       WHERE session_stats.session_id = x.session_id`,
    );
  }

  /**
   * One piece of merging the index's segments, in the caller's transaction or its own: about
   * MERGE_TARGET_MS of it, sized by how long the last piece took. True when there was merging to do.
   * Automatic merging is off (migration 7): whoever indexes or removes parts in pieces (the walk,
   * forgetting, retention) gives this a turn after each of them, and the walk merges what is left.
   */
  mergePiece(): boolean {
    // A fold under way: a merge piece of this size would carry it on, and a fold's pages cost more
    // (foldPiece sizes its own). FTS5's crisis merge still bounds a level meanwhile.
    if (folding.has(this.#db)) return false;
    const began = performance.now();
    const before = this.#changes.get() as number;
    // An integer literal: FTS5 refuses a bound number here. PieceSize hands out whole page counts.
    this.#db.exec(`INSERT INTO search_fts (search_fts, rank) VALUES ('merge', ${Math.trunc(this.#mergePages.rows)})`);
    // FTS5 counts two or more changes when it merged anything.
    const merged = (this.#changes.get() as number) - before >= 2;
    if (merged) this.#mergePages.took(performance.now() - began);
    return merged;
  }

  /**
   * One piece of folding the whole index into one segment, of FOLD_PAGES: true while there is more
   * to fold, and the pages it asked FTS5 to write. Removing a part from an external-content index adds
   * a delete marker beside the segment that holds its words, and both keep the words (a secret among
   * them) until a merge writes the oldest segment, the one merge that drops markers and what they
   * cancel: a fold is that merge of them all (FTS5's 'optimize', a piece at a time). The `first`
   * piece asks 'merge' with a negative page count, which puts every segment on one level and starts
   * merging them; the rest ask with a positive count, which carries that merge on to its end, while
   * a negative one would start over with each segment a commit adds meanwhile. Until `endFold`, merge
   * pieces on this connection leave the work to this.
   */
  foldPiece(first: boolean): { more: boolean; pages: number } {
    folding.add(this.#db);
    const pages = Math.trunc(this.#foldPages.rows);
    const began = performance.now();
    const before = this.#changes.get() as number;
    this.#db.exec(`INSERT INTO search_fts (search_fts, rank) VALUES ('merge', ${first ? -pages : pages})`);
    const more = (this.#changes.get() as number) - before >= 2;
    if (more) this.#foldPages.took(performance.now() - began);
    return { more, pages };
  }

  /** The fold is over (done or stopped): merge pieces merge again. */
  endFold(): void {
    folding.delete(this.#db);
  }

  /** Transactions the index's background walks share between their pieces (see PieceWindow). */
  pieceWindow(): PieceWindow {
    return new PieceWindow(this.#db);
  }

  /** Leaf pages of the index's segments (FTS5's structure record), or undefined when it cannot be read. */
  indexPages(): number | undefined {
    const record = this.#structure.get() as Uint8Array | undefined;
    return record === undefined ? 0 : structureLevels(record)?.reduce((pages, level) => pages + level.pages, 0);
  }

  /** The newest part rowid: parts a sink step adds land above it. */
  lastPartRowid(): number {
    return this.#lastRowid.get() as number;
  }

  /** Indexes every part stored after `afterRowid`; joins the caller's transaction (the commit window). */
  indexAfter(afterRowid: number): number {
    const rowids = this.#newRowids.all(afterRowid) as number[];
    return rowids.length === 0 ? 0 : inTransaction(this.#db, () => this.#index(rowids));
  }

  /** Indexes these parts now (parts not in the index yet); joins the caller's transaction. */
  indexParts(rowids: readonly number[]): number {
    return rowids.length === 0 ? 0 : inTransaction(this.#db, () => this.#index([...rowids]));
  }

  /**
   * Maps and indexes parts that have no map row yet; a part already indexed is left alone, so the sink
   * and the background walk never index one part twice.
   */
  #index(rowids: number[]): number {
    const ids = JSON.stringify(rowids);
    const mapped = this.#mapParts.all(ids) as Array<{ fts_rowid: number; part_rowid: number }>;
    if (mapped.length < rowids.length) mapped.push(...this.#mapCollisions(ids));
    if (mapped.length === 0) return 0;
    this.#indexKeys.run(JSON.stringify(mapped.map((m) => m.fts_rowid)));
    this.#addStats.run(JSON.stringify(mapped.map((m) => m.part_rowid)));
    return mapped.length;
  }

  /** Parts whose time key another part of the same second already holds take the next free key. */
  #mapCollisions(ids: string): Array<{ fts_rowid: number; part_rowid: number }> {
    const out: Array<{ fts_rowid: number; part_rowid: number }> = [];
    for (const row of this.#unmapped.all(ids) as Array<{ rowid: number; key: number; scope: string }>) {
      for (let key = row.key + 1; ; key += 1) {
        if (this.#mapOne.run(key, row.rowid, row.scope).changes === 1) {
          out.push({ fts_rowid: key, part_rowid: row.rowid });
          break;
        }
      }
    }
    return out;
  }

  /**
   * Takes parts out of the index (those that are in it), with what they count; call in the
   * transaction that deletes their rows, before it does: a message they leave part of is counted by
   * the part that stands for it once they are gone.
   */
  removeParts(rowids: readonly number[]): void {
    if (rowids.length === 0) return;
    inTransaction(this.#db, () => this.#unindexParts(JSON.stringify(rowids), true));
  }

  /**
   * Parts rewritten in place (`rewrite`, a newer parser's reading): out of the index before the rows
   * change and in again after, as an external-content index must. Their rows stay, so every message
   * keeps the part that stands for it. Joins the caller's transaction.
   */
  rewriteParts(rowids: readonly number[], rewrite: () => void, messages: readonly string[] = []): void {
    this.recountMessages(
      messages,
      () => {
        if (rowids.length > 0) this.#unindexParts(JSON.stringify(rowids), false);
        rewrite();
        this.indexParts(rowids);
      },
      rowids,
    );
  }

  /**
   * A change that may alter what the `messages` (messageOf's prefixes) count while the parts that
   * stand for them stay as they are: a sibling's genuine_user_turn flag rewritten, a part added to a
   * stored message (see countsAsMessage). Each of those parts that is indexed, except the `rewritten`
   * (indexed again by the change itself), takes back what it counted by the rule it was counted by
   * before the change and counts by today's after it. Joins the caller's transaction.
   */
  recountMessages<T>(messages: readonly string[], change: () => T, rewritten: readonly number[] = []): T {
    if (messages.length === 0) return inTransaction(this.#db, change);
    return inTransaction(this.#db, () => {
      const skip = new Set(rewritten);
      const standing = (this.#standingOf.all(JSON.stringify([...new Set(messages)])) as number[]).filter((rowid) => !skip.has(rowid));
      if (standing.length === 0) return change();
      const ids = JSON.stringify(standing);
      this.#uncountMessages.run(ids);
      const changed = change();
      this.#countMessages.run(ids);
      this.#recounted.run(ids);
      return changed;
    });
  }

  #unindexParts(ids: string, deleted: boolean): void {
    this.#subtractStats.run({ ids, deleted: deleted ? 1 : 0 });
    this.#unindex.run(ids);
    this.#unmap.run(ids);
  }

  /**
   * A session's project changed (the sink, in the move's transaction; from none, or to none, too):
   * its indexed parts take the tag of the project it is in now, so a project or repository filter
   * finds them there and no longer where they were. A session with more than RETAG_IN_STEP indexed
   * parts is left to the re-tag walk instead: its event-loop time would grow with its size.
   */
  sessionMoved(sessionId: string): void {
    const rowids = this.#sessionIndexed.all(sessionId, RETAG_IN_STEP + 1) as number[];
    if (rowids.length === 0) return;
    inTransaction(this.#db, () => {
      if (rowids.length <= RETAG_IN_STEP) this.#retag(rowids);
      else this.#widenRetag(this.#sessionSpan.get(sessionId) as { first: number; last: number });
    });
  }

  /**
   * Takes parts out of the index with the tags (and the text version) they were indexed with and puts
   * them back with the tags their session's project gives now, through searchTextV4. Their map rows
   * and keys stay: an external-content 'delete' must hand back what was indexed, so the map row
   * changes between the two.
   */
  #retag(rowids: readonly number[]): void {
    const ids = JSON.stringify(rowids);
    this.#unindex.run(ids);
    this.#retagMap.run(ids);
    this.#reindex.run(ids);
  }

  /**
   * The re-tag walk checks the parts of this span of rowids (and what it had left to check). Where the
   * span starts is kept too (retag_start), so its progress counts from there: a walk pending already
   * keeps what it checked, and what is left grows by what the span adds.
   */
  #widenRetag(span: { first: number; last: number }): void {
    const cursor = this.#stateValue('retag_cursor');
    const upto = this.#stateValue('retag_upto');
    const pending = cursor < upto;
    const from = pending ? Math.min(cursor, span.first - 1) : span.first - 1;
    const checked = pending ? cursor - this.#retagStart(cursor) : 0;
    this.#setState.run('retag_cursor', from);
    this.#setState.run('retag_upto', pending ? Math.max(upto, span.last) : span.last);
    this.#setState.run('retag_start', from - checked);
  }

  /**
   * Where the re-tag walk's span starts. Migrations 10, 13, 14 and 18 set the span from rowid 0 without
   * this key (and a walk's end leaves it at its last rowid, see retagStep): a start past the cursor is
   * such a span's, which starts at 0.
   */
  #retagStart(cursor: number): number {
    return Math.min(this.#stateValue('retag_start'), cursor);
  }

  /** Whether the re-tag walk has parts left to check, to recount (see #recountPiece) or to place (#placePiece). */
  retagPending(): boolean {
    return this.#stateValue('retag_cursor') < this.#stateValue('retag_upto') || this.#recountPending() || this.#placePending();
  }

  #placePending(): boolean {
    return this.#stateValue('place_cursor') < this.#stateValue('place_upto');
  }

  /**
   * One piece of placing parts stored with no time before capture placed them (migration 30 sets the
   * span: sessions' rowids up to the newest conversation then): conversations with rowid in (cursor,
   * upto] in rowid order, at most `maxRows` parts placed (and CHECKS_PER_RETAG times as many
   * conversations looked into, a seek each), and no more than fit in the piece's time (#placeHeld).
   * A piece that stops inside a conversation resumes it after its last part looked at (`place_part`),
   * if that conversation is still the first left (`place_session`, placeKey): one deleted meanwhile
   * (forget, retention) must not lend its part rowid to the next, whose lower untimed parts it would
   * skip, even when the next took its rowid (a conversation stored after the last one was deleted).
   * A part whose conversation holds no time stays unplaced. Placed parts that are indexed move to their
   * place's key (#rekeyParts). While FTS5's level 0 is near a crisis merge, the piece merges instead
   * (#nearCrisis). True while conversations are left.
   */
  #placePiece(maxRows: number): boolean {
    const began = performance.now();
    if (this.#nearCrisis() && this.mergePiece()) return true;
    let cursor = this.#stateValue('place_cursor');
    const upto = this.#stateValue('place_upto');
    // Collected first: the connection runs no other statement while one is being read.
    const toPlace = this.#placeSessions.all(cursor, upto, maxRows * CHECKS_PER_RETAG) as Array<[number, string]>;
    const first = toPlace[0];
    const resumes = first !== undefined && placeKey(...first) === this.#stateValue('place_session');
    const walked = { after: resumes ? this.#stateValue('place_part') : 0, looked: 0, placed: [] as number[] };
    let inside = 0;
    for (const [sessionRowid, sessionId] of toPlace) {
      if (!this.#placeIn(sessionId, walked, maxRows, began)) {
        // Stopped inside it: the next piece asks it again for parts after the last one looked at.
        inside = placeKey(sessionRowid, sessionId);
        break;
      }
      [cursor, walked.after] = [sessionRowid, 0];
      if (walked.looked === maxRows || this.#placeHeld(began, walked.placed.length)) break;
    }
    const sessions = this.#placeSessions.all(cursor, upto, 1).length;
    this.#rekeyParts(walked.placed);
    this.#setState.run('place_cursor', sessions === 0 ? upto : cursor);
    this.#setState.run('place_session', inside);
    this.#setState.run('place_part', walked.after);
    return sessions > 0;
  }

  /** Places a conversation's unplaced parts after `walked.after`, until the piece is full: true when it placed them all. */
  #placeIn(sessionId: string, walked: { after: number; looked: number; placed: number[] }, maxRows: number, began: number): boolean {
    const held = () => this.#placeHeld(began, walked.placed.length);
    for (const rowid of this.#untimedOf.all(sessionId, walked.after, maxRows - walked.looked) as number[]) {
      const place = this.#places.placeOf(sessionId, rowid, held);
      // Held inside its look: the next piece asks for this part again, and the look resumes.
      if (place === undefined) return false;
      if (place !== null && this.#setPlace.run(place, rowid).changes === 1) walked.placed.push(rowid);
      walked.looked += 1;
      walked.after = rowid;
      if (walked.looked === maxRows || held()) return false;
    }
    return true;
  }

  /** Whether a placing piece begun at `began` is full: what it spent, and what re-keying `placed` parts will cost, reach its time. */
  #placeHeld(began: number, placed: number): boolean {
    return performance.now() - began + placed * this.#rekeyMs >= this.#placeMs;
  }

  /**
   * Whether the next flush of the index could bring FTS5's level 0 to its crisis merge (see
   * CRISIS_MARGIN): the indexing walk merges each piece's segment in step, but a store left unmerged
   * (a walk stopped, an old build) may hold a level one short of it.
   */
  #nearCrisis(): boolean {
    const record = this.#structure.get() as Uint8Array | undefined;
    const level0 = record === undefined ? 0 : (structureLevels(record)?.[0]?.segments ?? 0);
    const crisis = Number(this.#crisisMerge.get() ?? CRISIS_MERGE);
    return level0 >= crisis - CRISIS_MARGIN;
  }

  /**
   * Parts whose place (`ts`) changed while they are indexed take the key their place gives, as the
   * sink keys a part it stores placed: each is taken out of the index under its old key and put back
   * under its new one (the next free key above it when another part of that second holds it, as
   * #mapCollisions does). Map rows, tags, text versions and counts stay: no count depends on where a
   * part sits. Parts not indexed are passed over: the walk keys them by their place when it indexes them.
   * What it cost per part placed sizes the next placing piece (#placeHeld).
   */
  #rekeyParts(rowids: readonly number[]): void {
    if (rowids.length === 0) return;
    const began = performance.now();
    this.#rekeyMoving(rowids);
    // Per part placed (what #placeHeld counts): a dearer piece counts at once, a cheaper one a little.
    const each = (performance.now() - began) / rowids.length;
    this.#rekeyMs = Math.min(this.#placeMs, each > this.#rekeyMs ? each : 0.9 * this.#rekeyMs + 0.1 * each);
  }

  #rekeyMoving(rowids: readonly number[]): void {
    const moving = (this.#keyed.all(JSON.stringify(rowids)) as Array<{ rowid: number; old: number; key: number }>).filter((row) => row.key !== row.old);
    if (moving.length === 0) return;
    const ids = JSON.stringify(moving.map((row) => row.rowid));
    this.#unkeyed.run(ids);
    for (const row of moving) {
      for (let key = row.key; this.#rekey.run(key, row.rowid).changes === 0; key += 1);
    }
    this.#keyedIn.run(ids);
  }

  #recountPending(): boolean {
    return this.#stateValue('recount_cursor') < this.#stateValue('recount_upto');
  }

  /**
   * One piece of moving indexed parts counted by rule 1 (before migration 22, which sets the span:
   * a tool's result counted as a message) to today's rule: the indexed parts with rowid in (cursor,
   * upto], at most `maxParts` of them in rowid order; each session's count loses what its parts
   * counted more by the old rule. Parts indexed since (rule 2) are passed over. True while parts are left.
   */
  #recountPiece(maxParts: number): boolean {
    if (!this.#recountPending()) return false;
    const cursor = this.#stateValue('recount_cursor');
    const upto = this.#stateValue('recount_upto');
    const rowids = this.#recountSpan.all(cursor, upto, maxParts) as number[];
    const ids = JSON.stringify(rowids);
    if (rowids.length > 0) {
      this.#recount.run(ids);
      this.#recounted.run(ids);
    }
    const more = rowids.length === maxParts;
    this.#setState.run('recount_cursor', more ? rowids[rowids.length - 1]! : upto);
    return more;
  }

  /**
   * One piece of the re-tag walk, in its own transaction: indexed parts with rowid in (cursor, upto]
   * are checked in rowid order, and those whose tag is not their session's project's any more, or
   * whose text reads differently in searchTextV4 than in the version it was indexed with (Chinese or
   * Japanese before v2 found its stretches, JSON's escaped line breaks before v3, a tool call's name
   * before v4), are re-tagged, at most
   * `maxRows` of them (and CHECKS_PER_RETAG times as many checked). The range is kept in search_state,
   * so the walk resumes after a restart; it is set by a move too large to re-tag in step, by migration
   * 10, which repairs stores whose sessions moved before moves re-tagged, and by migrations 13, 14 and
   * 18 over every part. Each piece also moves parts counted by the old rule of messages to today's
   * while migration 22 left some (#recountPiece). True while parts are left to check or recount.
   */
  retagStep(maxRows: number): boolean {
    return inTransaction(this.#db, () => {
      // Step 30's placing rides on the walk's pieces too (a piece of it finds nothing in a store whose
      // parts all have a time: a seek per conversation); its progress shows once the rest is done.
      const placing = this.#placePending() && this.#placePiece(maxRows);
      // Migration 22's recount rides on the walk's pieces; it does not show in the walk's progress.
      const recounting = this.#recountPiece(maxRows * CHECKS_PER_RETAG);
      return this.#retagPiece(maxRows) || recounting || placing;
    });
  }

  #retagPiece(maxRows: number): boolean {
    const cursor = this.#stateValue('retag_cursor');
    const upto = this.#stateValue('retag_upto');
    if (cursor >= upto) return false;
    const checks = maxRows * CHECKS_PER_RETAG;
    const stale: number[] = [];
    let checked = 0;
    let last = cursor;
    // Collected first: the connection runs no other statement while this one is being read.
    for (const [rowid, isStale] of this.#staleScan.iterate(cursor, upto, checks) as Iterable<[number, number]>) {
      checked += 1;
      last = rowid;
      if (isStale === 1) stale.push(rowid);
      if (stale.length === maxRows) break;
    }
    if (stale.length > 0) this.#retag(stale);
    const more = checked === checks || stale.length === maxRows;
    this.#setState.run('retag_cursor', more ? last : upto);
    // A span set next (a migration's from 0, a move's) counts from its own start: see #retagStart.
    if (!(more && last < upto)) this.#setState.run('retag_start', upto);
    return more && last < upto;
  }

  /**
   * How far the re-tag walk has come: rowids passed of its span, from the state it keeps (three
   * lookups by key, no count of parts), so a restart resumes the figure where it was.
   */
  retagProgress(): IndexProgress {
    const cursor = this.#stateValue('retag_cursor');
    const upto = this.#stateValue('retag_upto');
    if (cursor >= upto) return this.#recountProgress();
    const start = this.#retagStart(cursor);
    return { phase: 'retag', indexedParts: cursor - start, totalParts: upto - start, complete: false, deferred: false };
  }

  /**
   * The recount after the re-tag walk (migration 22's span from rowid 0, see #recountPiece): counts are
   * still being brought to today's rule until it ends, so the walk is not complete before.
   */
  #recountProgress(): IndexProgress {
    const cursor = this.#stateValue('recount_cursor');
    const upto = this.#stateValue('recount_upto');
    if (cursor >= upto) return this.#placeProgress();
    return { phase: 'retag', indexedParts: cursor, totalParts: upto, complete: false, deferred: false };
  }

  /** Step 30's placing, once the rest of the walk is done: conversations (sessions' rowids) passed of its span. */
  #placeProgress(): IndexProgress {
    if (!this.#placePending()) return { phase: 'retag', indexedParts: 0, totalParts: 0, complete: true, deferred: false };
    return { phase: 'retag', indexedParts: this.#stateValue('place_cursor'), totalParts: this.#stateValue('place_upto'), complete: false, deferred: false };
  }

  /**
   * What searches are told: the walks run one after the other (indexing, then re-tagging), so the
   * index walk's progress while it has parts to index, then the re-tag walk's.
   */
  walkProgress(): IndexProgress {
    const indexing = this.progress();
    return indexing.complete ? this.retagProgress() : indexing;
  }

  /**
   * The background walk over parts not yet in the index: those stored before the index existed, and
   * those a large run left to it (see `defer`). Parts with rowid in (cursor, upto] may be unindexed;
   * every other part is indexed. At most `maxRows` parts per piece, in rowid order, from where the
   * last piece stopped (kept in search_state, so it resumes after a restart).
   */
  backfillStep(maxRows: number): IndexProgress {
    return inTransaction(this.#db, () => {
      const upto = this.#stateValue('backfill_upto');
      const cursor = this.#stateValue('backfill_cursor');
      if (upto === OPEN) return this.progress();
      if (cursor < upto) {
        const rowids = this.#backfillRows.all(cursor, upto, maxRows) as number[];
        if (rowids.length > 0) this.#index(rowids);
        this.#setState.run('backfill_cursor', rowids.length < maxRows ? upto : rowids[rowids.length - 1]!);
        this.#setState.run('backfill_done', this.#stateValue('backfill_done') + rowids.length);
      }
      return this.progress();
    });
  }

  /**
   * A run that writes many parts (a cold import, a backfill of years) leaves the rest of them to the
   * background walk: indexing in step would cost the import most of its speed. From now on the walk's
   * range is open; `endDeferral` closes it at the run's last part.
   */
  defer(): void {
    inTransaction(this.#db, () => {
      const upto = this.#stateValue('backfill_upto');
      if (upto === OPEN) return;
      if (this.#stateValue('backfill_cursor') >= upto) {
        // No walk pending: everything stored so far is indexed, and a new walk starts here.
        const last = this.lastPartRowid();
        this.#setState.run('backfill_cursor', last);
        this.#setState.run('backfill_start', last);
        this.#setState.run('backfill_done', 0);
      }
      this.#setState.run('backfill_upto', OPEN);
    });
  }

  /** Closes a deferral at the newest part; also repairs one left open by a run that never ended. */
  endDeferral(): void {
    if (this.#stateValue('backfill_upto') === OPEN) this.#setState.run('backfill_upto', this.lastPartRowid());
  }

  /** How far the index walk has come; counts are parts walked of the span of rowids it covers. */
  progress(): IndexProgress {
    const upto = this.#stateValue('backfill_upto');
    const cursor = this.#stateValue('backfill_cursor');
    if (cursor >= upto) return { phase: 'index', indexedParts: 0, totalParts: 0, complete: true, deferred: false };
    const done = this.#stateValue('backfill_done');
    const end = upto === OPEN ? this.lastPartRowid() : upto;
    const total = Math.max(done, end - this.#stateValue('backfill_start'));
    return { phase: 'index', indexedParts: done, totalParts: total, complete: false, deferred: upto === OPEN };
  }

  #stateValue(key: string): number {
    return (this.#state.get(key) as number | undefined) ?? 0;
  }
}
