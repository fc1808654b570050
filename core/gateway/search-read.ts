import Database, { type Statement } from 'better-sqlite3';
import { asksToolOutput, subagentParentOf, TOOL_OUTPUT_ROLES, type SearchKind } from '../api/index.js';
import { sqliteOptions, type Db } from '../store/index.js';
import { MatchFailure, MatchWorker } from './match-worker.js';
import { SHOWN_P_TS_SQL } from './placed.js';
import { indexReading, KEY_SHIFT, keyOfSeconds, registerSearchFunctions, scopeTokens, searchTextV2, SearchSyntaxError } from './search-index.js';

/** What a search asks of the index. `expression` is full-text syntax, already made safe by the caller. */
export interface SearchFilter {
  expression: string;
  kind?: SearchKind | undefined;
  provider?: string | undefined;
  /** Only sessions the provider's app of this kind wrote (sessions.source: Claude Desktop's `desktop`). */
  source?: string | undefined;
  /** A role as a search means it, the same for every agent (see byRole): not always the role stored. */
  role?: string | undefined;
  /** A conversation: its own parts and its subagents'. */
  sessionId?: string | undefined;
  /** Any of these projects (a project filter, or the projects of one repository). */
  projectKeys?: readonly string[] | undefined;
  /**
   * Line time in epoch ms, inclusive. The index's keys order by whole seconds: a bound inside a second
   * keeps that second's matches by their part's own time (see wholeSeconds).
   */
  fromMs?: number | undefined;
  toMs?: number | undefined;
  /** The text before each `*` of the expression's prefix terms, as the person typed it. */
  prefixes?: readonly string[] | undefined;
  /** Only the person's own words: parts whose `genuine_user_turn` flag capture set (see GENUINE_SCAN_BUDGET). */
  genuineUserTurn?: boolean | undefined;
  /**
   * Only parts up to this rowid: the parts indexed when a paged search took its first page (see
   * lastPartRowid). Index keys order by line time, not by when a part came, so a backfill of old
   * history lands among the keys a search already paged through; only its parts' rowids tell it apart.
   */
  partRowid?: number | undefined;
}

/** What a search with no words asks of the index: its filters alone (see SearchReader.latest). */
export type ListFilter = Omit<SearchFilter, 'expression' | 'prefixes'>;

export interface MatchedPart {
  /** The part's position in the index: orders by line time. */
  key: number;
  partId: string;
  sessionId: string;
  provider: string;
  role: string | null;
  kind: string;
  ts: number | null;
  text: string | null;
  meta: string | null;
  projectKey: string | null;
  /** The person's own words, as capture marked the part (`genuine_user_turn`). */
  genuineUserTurn: boolean;
  /** A compaction summary, as capture marked the part (`is_compact_summary`). */
  isCompactSummary: boolean;
}

/**
 * What a reader may see of a matched part, for SearchReader.stillMatching: `pieces` of its text
 * (redacted, apart in it), `json` whether the whole text is JSON (read as the index read it).
 */
export interface Evidence {
  key: number;
  kind: string;
  pieces: readonly string[];
  json: boolean;
  toolName: string | null;
}

/** NEAR's distance when none is written (FTS5's). */
const NEAR_DEFAULT = 10;
/** Tokens between pieces at most: a NEAR of this many words or more may still reach across two. */
const BREAK_TOKENS_MAX = 100;
/** Where the break's first letter is looked for after ASCII: CJK ideographs, more than a query's 1,000 characters can start words with. */
const BREAK_FIRST_IDEOGRAPH = 0x4e00;

/** Letters a break may start with: ASCII first (a token of its own in any text), then ideographs. */
function* breakLetters(): Generator<string> {
  yield* 'qzxjkvwy0123456789abcdefghilmnoprstu';
  for (let code = BREAK_FIRST_IDEOGRAPH; ; code += 1) yield String.fromCodePoint(code);
}

/**
 * What to set between pieces of evidence, so no phrase or NEAR runs across two of them: a token no
 * word of the expression can match, not even as a prefix, as many times as its widest NEAR reaches.
 * `taken`: the first letters of the expression's tokens as the index's tokenizer reads them (folded,
 * split at what it splits at: see SearchReader.#startsOf). A fixed word would be an oracle of its
 * own: `stew*` would match every part with two pieces, the secrets' included.
 */
function breakFor(expression: string, taken: ReadonlySet<string>): string {
  let letter = 'q';
  for (letter of breakLetters()) if (!taken.has(letter)) break;
  // A number before a `)` may be a phrase's, not a distance: a wider break only keeps fewer parts.
  const distances = [...expression.matchAll(/,\s*(\d+)\s*\)/g)].map((m) => Number(m[1]));
  const reach = Math.max(expression.includes('NEAR(') ? NEAR_DEFAULT : 0, ...distances);
  return Array.from({ length: Math.min(reach + 1, BREAK_TOKENS_MAX) }, () => `${letter.repeat(3)}break`).join(' ');
}

/** stillMatching's index of evidence, in memory. */
interface Scratch {
  db: Db;
  insert: Statement;
  match: Statement;
  clear: Statement;
  /** The expression's text as a row of a table with the index's tokenizer, and its tokens' first letters. */
  probe: Statement;
  starts: Statement;
  unprobe: Statement;
}

/** Matched rows as read, their flag as SQLite keeps it. */
const matched = (rows: unknown[]): MatchedPart[] =>
  (rows as Array<Omit<MatchedPart, 'genuineUserTurn' | 'isCompactSummary'> & { genuineUserTurn: number; isCompactSummary: number }>).map((r) => ({
    ...r,
    genuineUserTurn: r.genuineUserTurn === 1,
    isCompactSummary: r.isCompactSummary === 1,
  }));

/** Matches newest first; `resumeBelow` is set when the scan's budget ran out before the page was full. */
export interface NewestPage {
  matches: MatchedPart[];
  /** The lowest key the scan looked at: the next page starts strictly below it. */
  resumeBelow: number | null;
}

/** Characters of each candidate's text a ranking reads (the page's own hits are read whole). */
const HEAD_CHARS = 2_000;

/**
 * Matches a search that reads its matched parts may look at before it answers with what it found: one
 * for the person's own words, or one in a conversation with more subagents than SUBAGENT_TOKEN_CAP. The
 * flag is not in the index (its scope tokens are fixed for the life of the index, and the sink may
 * correct a part's flags in place), so it is read from the matched parts: a page walks the index's
 * user-text matches newest first, in growing batches, until it holds enough of them. Without a budget,
 * words that only harness text holds (`command-name`) would read every such match; with it, a page
 * may come back short with a cursor that goes on below what it looked at. Measured worst case (5,000
 * user-text matches, none the person's, among 200k parts): 16–30 ms, the match and the flags together.
 */
export const GENUINE_SCAN_BUDGET = 5_000;
const GENUINE_FIRST_BATCH = 100;

/**
 * Subagents with ids of their own (Gemini's, Codex's spawned threads) a session filter names in its
 * match, each by its session token: the index's tokens are fixed, and only Claude's `{parent}:agent-…`
 * parts carry their parent's token too. Each token costs the match about 10 µs (measured: 100 ≈ 1 ms,
 * 1,000 ≈ 6–19 ms); a conversation with more is matched without its session and each match's session
 * read instead, within GENUINE_SCAN_BUDGET. The same cap holds for the sessions of an app (AppScope).
 */
export const SUBAGENT_TOKEN_CAP = 100;

/**
 * Leaf pages of the index a prefix term may span before its match leaves the owner's thread. FTS5
 * answers `e*` by merging the whole posting list of every word starting with `e`, however few hits
 * are asked for: on a million parts that held the event loop 2.4 s, about 0.1 ms a page (0.2 at most,
 * measured); 250 pages keep a match run in-thread near 50 ms.
 */
export const PREFIX_PAGE_BUDGET = 250;
/** How long a match off the owner's thread may run before the search is refused as too broad. */
export const MATCH_TIMEOUT_MS = 5_000;

/**
 * Matches newest first, of the parts up to a rowid (SearchFilter.partRowid). CROSS JOIN keeps the
 * index the outer loop, so the walk stays in key order and stops at the limit.
 */
const NEWEST_SQL = `SELECT f.rowid FROM search_fts f CROSS JOIN search_map m ON m.fts_rowid = f.rowid
  WHERE search_fts MATCH ? AND f.rowid >= ? AND f.rowid < ? AND m.part_rowid <= ? ORDER BY f.rowid DESC LIMIT ?`;
/**
 * Every indexed part newest first, of the parts up to a rowid, for a search with no words whose filters
 * are none of them index terms (a date range, a kind): the map's key is its primary key, in time order.
 */
const LATEST_SQL = 'SELECT fts_rowid FROM search_map WHERE fts_rowid >= ? AND fts_rowid < ? AND part_rowid <= ? ORDER BY fts_rowid DESC LIMIT ?';
/** No bound on part rowids: every indexed part. */
const ANY_PART = Number.MAX_SAFE_INTEGER;

/** A prefix term that stands for more words than a search can merge in its time; `prefix` is as typed. */
export class SearchTooBroadError extends Error {
  readonly prefix: string;
  constructor(prefix: string) {
    super('A prefix term stands for too many words to search at once');
    this.name = 'SearchTooBroadError';
    this.prefix = prefix;
  }
}

/**
 * A prefix as the index stores its last token (unicode61, remove_diacritics 2): case folded and
 * diacritics removed, split where the tokenizer splits (`load_set*` looks for `set*` after `load`).
 */
function indexedStem(prefix: string): string {
  const tokens = prefix.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}\p{Co}]+/u);
  return tokens.filter((token) => token !== '').pop() ?? '';
}

/**
 * How many leaf pages of the index hold words starting with a stem, from FTS5's own term index (the
 * `search_fts_idx` shadow table): per segment, one row per leaf page on which a word starts, keyed by
 * that word after a byte naming the index ('0': the main one; this index has no prefix indexes), and
 * the page number shifted left once. The pages from the one holding the stem's first word to the one
 * after its last are the posting lists a prefix query merges. A few seeks per segment.
 */
const PREFIX_PAGES_SQL = `
  WITH RECURSIVE seg(id) AS (
    SELECT MIN(segid) FROM search_fts_idx
    UNION ALL SELECT (SELECT MIN(segid) FROM search_fts_idx WHERE segid > seg.id) FROM seg WHERE seg.id IS NOT NULL
  )
  SELECT IFNULL(SUM(
    IFNULL((SELECT pgno >> 1 FROM search_fts_idx WHERE segid = seg.id AND term >= :hi ORDER BY term LIMIT 1),
           (SELECT (pgno >> 1) + 1 FROM search_fts_idx WHERE segid = seg.id ORDER BY term DESC LIMIT 1))
    - IFNULL((SELECT pgno >> 1 FROM search_fts_idx WHERE segid = seg.id AND term < :lo ORDER BY term DESC LIMIT 1), 1)
  ), 0) FROM seg WHERE seg.id IS NOT NULL`;

const COLUMNS: Record<SearchKind, string> = { text: 'body', thinking: 'thinking', tool_use: 'tool_input', tool_result: 'tool_output' };
const ALL_COLUMNS = 'body thinking tool_input tool_output';

/** The column a part's kind is indexed under (the search_source view's CASE). */
function columnOf(kind: string): string {
  return kind === 'thinking' || kind === 'tool_use' || kind === 'tool_result' ? COLUMNS[kind] : 'body';
}

/**
 * What a role filter selects, the same for every agent (the contract's PART_ROLES), by the rule that
 * labels a part (partRoleOf): `tool` is every tool output, the kind tool_result whatever role its agent
 * stored it under (Claude Code writes it inside a user message), and every part stored under a
 * tool-output role (TOOL_OUTPUT_ROLES: an image or resource OpenClaw stored as a toolResult); any other
 * role is the parts stored under it less their tool output, so `user` is what was said in the person's
 * turn. Read at query time from what the index holds (a kind is a column, a stored role a scope token):
 * no part is indexed again. `roles`: the stored roles' scope tokens to ask for (any of them); `kind`: the
 * kind asked for, or the one the role implies; `notOutput`: leave tool output out; `orOutput`: tool
 * output of any role, or any part under `roles` (role tool with no kind); `none`: the role and the kind
 * cannot meet.
 */
interface RoleScope {
  roles: readonly string[] | undefined;
  kind: SearchKind | undefined;
  notOutput: boolean;
  orOutput: boolean;
  none: boolean;
}

function byRole(filter: Pick<ListFilter, 'role' | 'kind' | 'genuineUserTurn'>): RoleScope {
  // The person's own words are always user text: the index narrows to it before the flag is read.
  const role = filter.role ?? (filter.genuineUserTurn ? 'user' : undefined);
  const kind = filter.kind ?? (filter.genuineUserTurn ? 'text' : undefined);
  const scope = { roles: undefined, kind, notOutput: false, orOutput: false, none: false };
  if (role === undefined) return scope;
  if (asksToolOutput(role)) {
    if (kind === 'tool_result') return scope;
    return kind === undefined ? { ...scope, orOutput: true } : { ...scope, roles: TOOL_OUTPUT_ROLES };
  }
  return { ...scope, roles: [role], notOutput: kind === undefined, none: kind === 'tool_result' };
}

/** A MATCH of the scope column for parts stored under any of `roles`. */
function rolesTerm(roles: readonly string[]): string {
  const tokens = roles.map(scopeTokens.role);
  return tokens.length === 1 ? `scope : ${tokens[0]}` : `{scope} : (${tokens.join(' OR ')})`;
}

/** The index columns a search's words are looked for in: the kind's, or every kind's (less tool output for a role other than tool). */
function columnsOf(filter: Pick<SearchFilter, 'role' | 'kind' | 'genuineUserTurn'>): string {
  const { kind, notOutput } = byRole(filter);
  if (kind) return COLUMNS[kind];
  return notOutput ? 'body thinking tool_input' : ALL_COLUMNS;
}

/** The words of the MATCH (matchOf without the scope tokens): what stillMatching holds evidence to. */
function wordsMatchOf(filter: Pick<SearchFilter, 'expression' | 'role' | 'kind' | 'genuineUserTurn'>): string {
  return `{${columnsOf(filter)}} : (${filter.expression})`;
}

/**
 * The whole MATCH: the expression within its columns, AND each filter's scope tokens; `subagents` join
 * the session's; `app`: the sessions of the app the search is narrowed to (AppScope).
 */
export function matchOf(filter: SearchFilter, subagents: readonly string[] = [], app: readonly string[] | null = null): string {
  return [indexWordsOf(filter), ...scopeTerms(filter, subagents, app)].join(' AND ');
}

/**
 * The words as the index is asked them: wordsMatchOf, but for role tool with no kind (byRole's
 * `orOutput`) the tool output column, or the other columns of a part stored under a tool-output role.
 * stillMatching's scratch table has no scope column: it holds found parts to the words in every column.
 */
function indexWordsOf(filter: SearchFilter): string {
  if (!byRole(filter).orOutput) return wordsMatchOf(filter);
  return `({${COLUMNS.tool_result}} : (${filter.expression}) OR ({body thinking tool_input} : (${filter.expression}) AND ${rolesTerm(TOOL_OUTPUT_ROLES)}))`;
}

/** A scope token no part holds (project tokens are hex): a filter that cannot match, kept a valid query. */
const NO_PART = 'zknone';

/** Each filter that is an index term, as a MATCH of the scope column; none for a filter of dates or a kind alone. */
function scopeTerms(filter: ListFilter, subagents: readonly string[] = [], app: readonly string[] | null = null): string[] {
  const { roles, none } = byRole(filter);
  const terms: string[] = none ? [`scope : ${NO_PART}`] : [];
  if (filter.provider !== undefined) terms.push(`scope : ${scopeTokens.provider(filter.provider)}`);
  if (roles !== undefined) terms.push(rolesTerm(roles));
  if (filter.sessionId !== undefined) {
    const sessions = [filter.sessionId, ...subagents].map(scopeTokens.session);
    terms.push(sessions.length === 1 ? `scope : ${sessions[0]}` : `{scope} : (${sessions.join(' OR ')})`);
  }
  if (filter.projectKeys !== undefined) {
    // No project at all matches nothing: an always-absent token keeps the query valid.
    const keys = filter.projectKeys.length > 0 ? filter.projectKeys.map(scopeTokens.project) : [NO_PART];
    terms.push(`{scope} : (${keys.join(' OR ')})`);
  }
  if (app !== null) {
    // No session of the app matches nothing, as no project does: no session token is `zsnone`.
    const sessions = app.length > 0 ? app.map(scopeTokens.session) : ['zsnone'];
    terms.push(`{scope} : (${sessions.join(' OR ')})`);
  }
  return terms;
}

/** [lo, hi) of index keys for a date range. */
function keyRange(filter: Pick<SearchFilter, 'fromMs' | 'toMs'>, beforeKey: number | null, fromKey = 0): [number, number] {
  const lo = Math.max(fromKey, filter.fromMs === undefined ? 0 : keyOfSeconds(filter.fromMs / 1000));
  let hi = filter.toMs === undefined ? Number.MAX_SAFE_INTEGER : keyOfSeconds(filter.toMs / 1000) + KEY_SHIFT;
  if (beforeKey !== null) hi = Math.min(hi, beforeKey);
  return [lo, hi];
}

/**
 * [lo, hi) of the keys whose whole second lies in the date range, or null when no bound cuts inside a
 * second. A key holds its line's second, not its ms (see KEY_SQL), so the seconds at a cut (from
 * 12:00:00.500, to 12:00:00.499) are in keyRange whole, and their matches are kept by their part's
 * own `ts` (KEPT_SQL): only they are read, and only when a bound is not a whole second.
 */
export function wholeSeconds(filter: Pick<SearchFilter, 'fromMs' | 'toMs'>): { lo: number; hi: number } | null {
  const { fromMs, toMs } = filter;
  const cutsFrom = fromMs !== undefined && fromMs % 1000 !== 0;
  // A `to` at a second's last ms (12:00:00.999) takes that second whole.
  const cutsTo = toMs !== undefined && (toMs + 1) % 1000 !== 0;
  if (!cutsFrom && !cutsTo) return null;
  return {
    lo: cutsFrom ? keyOfSeconds(Math.ceil(fromMs / 1000)) : 0,
    hi: cutsTo ? keyOfSeconds(Math.floor((toMs + 1) / 1000)) : Number.MAX_SAFE_INTEGER,
  };
}

/**
 * How a search's session filter reaches the index: the session's scope token OR these subagents', or,
 * for a conversation with more than SUBAGENT_TOKEN_CAP of them, `family`: each match's session is read.
 */
interface SessionScope {
  subagents: string[];
  family: string | null;
}

/**
 * How a search narrowed to an app (SearchFilter.source: Claude Desktop apart from Claude Code) reaches
 * the index, whose tokens name providers, not apps: `sessions`, the app's sessions, each by its token,
 * or, for more than SUBAGENT_TOKEN_CAP of them, `source`: each match's session is read.
 */
interface AppScope {
  sessions: string[] | null;
  source: string | null;
}

/** The sessions an app wrote (a subagent's own row says its conversation's app), to name in a match. */
const APP_SESSIONS_SQL = 'SELECT session_id FROM sessions WHERE (@provider IS NULL OR provider = @provider) AND source = @source ORDER BY session_id LIMIT @limit';

/** A session's subagents (never a branch: that is a conversation of its own) whose parts lack its token. */
const SUBAGENTS_SQL = `SELECT session_id FROM sessions WHERE parent_session_id = @id AND parent_kind IS NOT 'branch'
  AND NOT (session_id >= @agents AND session_id < @agentsEnd) ORDER BY session_id LIMIT @limit`;

/**
 * The matches to keep, in the order given: the person's own words, in a conversation or its subagents,
 * at a time in the range. A key in [@wholeLo, @wholeHi) is in it by its second alone; only the
 * seconds a bound cuts inside read their part's time (OR stops at the first true side).
 */
const KEPT_FROM = 'SELECT m.fts_rowid FROM json_each(@keys) j JOIN search_map m ON m.fts_rowid = j.value JOIN parts p ON p.rowid = m.part_rowid';
const KEPT_WHERE = `(@genuine = 0 OR p.genuine_user_turn = 1)
    AND ((m.fts_rowid >= @wholeLo AND m.fts_rowid < @wholeHi) OR ((@from IS NULL OR p.ts >= @from) AND (@to IS NULL OR p.ts <= @to)))
    AND (@source IS NULL OR EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = p.session_id AND s.source = @source))
    AND (@family IS NULL OR p.session_id = @family OR (p.session_id >= @family || ':agent-' AND p.session_id < @family || ':agent.')
         OR EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = p.session_id AND s.parent_session_id = @family AND s.parent_kind IS NOT 'branch'))`;
const KEPT_SQL = `${KEPT_FROM} WHERE ${KEPT_WHERE} ORDER BY j.key`;

/**
 * The parts a search with no words keeps, as KEPT_SQL does, and only those words could find: with text
 * (octet_length reads no text), of the kind asked, as the index files a kind under its columns (the
 * search_source view's CASE), without tool output for a role other than tool, and for role tool only
 * tool output or a part stored under a tool-output role (byRole). The words' MATCH names the columns instead.
 */
const LISTED_SQL = `${KEPT_FROM}
  WHERE octet_length(p.text) > 0
    AND (@kind IS NULL OR (CASE WHEN p.kind IN ('thinking', 'tool_use', 'tool_result') THEN p.kind ELSE 'text' END) = @kind)
    AND (@notOutput = 0 OR p.kind IS NOT 'tool_result')
    AND (@orOutput IS NULL OR p.kind = 'tool_result' OR p.role IN (SELECT value FROM json_each(@orOutput)))
    AND ${KEPT_WHERE}
  ORDER BY j.key`;

/**
 * The full-text index as other rooms read it. Matches are found in the index (filters are scope
 * tokens, dates a range of its time-ordered keys; only the person's own words, and a conversation with
 * very many subagents, need their parts read, for a bounded number of matches); only the page's own
 * parts are then read whole.
 */
export class SearchReader {
  readonly #newest: Statement;
  readonly #details: Statement;
  readonly #heads: Statement;
  readonly #kept: Statement;
  readonly #latest: Statement;
  readonly #listed: Statement;
  readonly #subagents: Statement;
  readonly #appSessions: Statement;
  readonly #top: Statement;
  readonly #lastPart: Statement;
  readonly #prefixPages: Statement;
  readonly #count: Statement;
  readonly #prefixBudget: number;
  readonly #timeoutMs: number;
  readonly #genuineBudget: number;
  readonly #subagentCap: number;
  /** Absent for a database in memory: no other connection can read it, so every match runs here. */
  readonly #offThread: MatchWorker | undefined;
  /** Matches the worker answered (read by tests: a failing worker's matches run here instead). */
  offThreadMatches = 0;
  /** A database in memory of its own, for stillMatching: never the store's connection, whose transactions are the writers'. */
  #scratch: Scratch | undefined;
  /** The last break set between pieces, and the words it was chosen for: a page's re-check asks for the same words batch after batch. */
  #lastBreak: { expression: string; between: string } | undefined;

  constructor(db: Db, options: { prefixPageBudget?: number; matchTimeoutMs?: number; genuineScanBudget?: number; subagentTokenCap?: number } = {}) {
    registerSearchFunctions(db);
    this.#prefixBudget = options.prefixPageBudget ?? PREFIX_PAGE_BUDGET;
    this.#timeoutMs = options.matchTimeoutMs ?? MATCH_TIMEOUT_MS;
    this.#genuineBudget = options.genuineScanBudget ?? GENUINE_SCAN_BUDGET;
    this.#subagentCap = options.subagentTokenCap ?? SUBAGENT_TOKEN_CAP;
    this.#offThread = db.memory ? undefined : new MatchWorker(db.name, NEWEST_SQL);
    this.#prefixPages = db.prepare(PREFIX_PAGES_SQL).pluck();
    this.#newest = db.prepare(NEWEST_SQL).pluck();
    this.#count = db.prepare('SELECT COUNT(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)').pluck();
    this.#details = db.prepare(
      `SELECT m.fts_rowid AS key, p.part_id AS partId, p.session_id AS sessionId, p.provider, p.role, p.kind, ${SHOWN_P_TS_SQL} AS ts, p.text, p.meta,
              (SELECT s.project_key FROM sessions s WHERE s.session_id = p.session_id) AS projectKey, p.genuine_user_turn = 1 AS genuineUserTurn,
              p.is_compact_summary = 1 AS isCompactSummary
       FROM json_each(?) j JOIN search_map m ON m.fts_rowid = j.value JOIN parts p ON p.rowid = m.part_rowid ORDER BY j.key`,
    );
    // Ranking reads many candidates: a bounded head of each part's text is enough to weigh it. Not a
    // tool call's name, which the index matches too (searchTextV4): a call found by its name alone
    // ranks after the parts that hold the word, so `read` or `edit` lists what was said before every
    // Read or Edit call (200 Read calls took the top 20 from 5 messages saying `read` when it counted).
    this.#heads = db.prepare(
      `SELECT m.fts_rowid AS key, p.part_id AS partId, p.session_id AS sessionId, p.provider, p.role, p.kind, ${SHOWN_P_TS_SQL} AS ts, substr(p.text, 1, ${HEAD_CHARS}) AS text, NULL AS meta, NULL AS projectKey, p.genuine_user_turn = 1 AS genuineUserTurn,
              p.is_compact_summary = 1 AS isCompactSummary
       FROM json_each(?) j JOIN search_map m ON m.fts_rowid = j.value JOIN parts p ON p.rowid = m.part_rowid ORDER BY j.key`,
    );
    this.#kept = db.prepare(KEPT_SQL).pluck();
    this.#latest = db.prepare(LATEST_SQL).pluck();
    this.#listed = db.prepare(LISTED_SQL).pluck();
    this.#subagents = db.prepare(SUBAGENTS_SQL).pluck();
    this.#appSessions = db.prepare(APP_SESSIONS_SQL).pluck();
    this.#top = db.prepare('SELECT IFNULL(MAX(fts_rowid), 0) + 1 FROM search_map').pluck();
    this.#lastPart = db.prepare('SELECT IFNULL(MAX(part_rowid), 0) FROM search_map').pluck();
  }

  /** Newest first, strictly below `beforeKey` (the previous page's last key, or its `resumeBelow`). */
  async newest(filter: SearchFilter, beforeKey: number | null, limit: number): Promise<NewestPage> {
    const [lo, hi] = keyRange(filter, beforeKey);
    const scan = await this.#keys(filter, lo, hi, limit);
    return { matches: this.details(scan.keys), resumeBelow: scan.resumeBelow };
  }

  /**
   * What the filters alone select (a search with no words), newest first, strictly below `beforeKey`,
   * with the keys and the paging of `newest`. The filters that are index terms walk the index as a
   * MATCH of its scope column; with none (dates or a kind alone) the map's keys are walked in order.
   * Either way the parts are read in batches, within the scan budget (see #scan): a kind is not an index
   * term without words, and a part with no text is nothing words could find.
   */
  async latest(filter: ListFilter, beforeKey: number | null, limit: number): Promise<NewestPage> {
    const [lo, hi] = keyRange(filter, beforeKey);
    const scope = this.#sessionScope(filter.sessionId);
    const app = this.#appScope(filter);
    const terms = scope.family === null ? scopeTerms(filter, scope.subagents, app.sessions) : scopeTerms({ ...filter, sessionId: undefined }, [], app.sessions);
    const parts = filter.partRowid ?? ANY_PART;
    const match = terms.join(' AND ');
    const find = (top: number, n: number) => (match === '' ? this.#latest.all(lo, top, parts, n) : guard(() => this.#newest.all(match, lo, top, parts, n))) as number[];
    const roles = byRole(filter);
    const keep = { ...keptParams(filter, scope.family, app.source), kind: roles.kind ?? null, notOutput: roles.notOutput ? 1 : 0, orOutput: roles.orOutput ? JSON.stringify(TOOL_OUTPUT_ROLES) : null };
    const scan = await this.#scan(find, (keys) => this.#listed.all({ keys: JSON.stringify(keys), ...keep }) as number[], hi, limit);
    return { matches: this.details(scan.keys), resumeBelow: scan.resumeBelow };
  }

  /**
   * The newest `cap` matches under `upperKey` and from `fromKey` (a later page's: the lowest key its
   * first page ranked), their text cut to a head, for the caller to rank. FTS5's own bm25() counts every
   * match of every phrase (the filters' scope tokens included) for its IDF, which reads whole posting
   * lists of common words; `capped` says there were more matches than were handed back, or may be
   * (a search for the person's own words stopped at its scan budget).
   */
  async candidates(filter: SearchFilter, upperKey: number, cap: number, fromKey = 0): Promise<{ heads: MatchedPart[]; capped: boolean }> {
    const [lo, hi] = keyRange(filter, upperKey, fromKey);
    const { keys, resumeBelow } = await this.#keys(filter, lo, hi, cap + 1);
    const heads = keys.length === 0 ? [] : matched(this.#heads.all(JSON.stringify(keys.slice(0, cap))));
    return { heads, capped: keys.length > cap || resumeBelow !== null };
  }

  /** The parts at these index keys, in the order given. */
  details(keys: readonly number[]): MatchedPart[] {
    return keys.length === 0 ? [] : matched(this.#details.all(JSON.stringify(keys)));
  }

  /** Leaf pages of the index a prefix term would merge (see PREFIX_PAGES_SQL). */
  prefixPages(prefix: string): number {
    const stem = indexedStem(prefix);
    if (stem === '') return 0;
    const lo = Buffer.from(`0${stem}`, 'utf8');
    // No UTF-8 byte is 0xff: every word that starts with the stem sorts below this.
    return this.#prefixPages.get({ lo, hi: Buffer.concat([lo, Buffer.from([0xff])]) }) as number;
  }

  /**
   * How many parts the words' expression matches in any column, counted to `cap` at most: how common
   * they are in this store, read from the start of their posting lists only. Scope tokens are not asked.
   */
  matchCount(expression: string, cap: number): number {
    return guard(() => this.#count.get(wordsMatchOf({ expression }), cap) as number);
  }

  /** The matching keys in [lo, hi), newest first, at most `limit`; see NewestPage for `resumeBelow`. */
  #keys(filter: SearchFilter, lo: number, hi: number, limit: number): Promise<{ keys: number[]; resumeBelow: number | null }> {
    const scope = this.#sessionScope(filter.sessionId);
    const app = this.#appScope(filter);
    const match = scope.family === null ? matchOf(filter, scope.subagents, app.sessions) : matchOf({ ...filter, sessionId: undefined }, [], app.sessions);
    // Each of these keeps only some matches, read from their parts: a page scans on until it is full.
    if (filter.genuineUserTurn || scope.family !== null || app.source !== null || wholeSeconds(filter) !== null) return this.#scanKeys(filter, match, scope.family, app.source, lo, hi, limit);
    return this.#matchKeys(filter, match, lo, hi, limit).then((keys) => ({ keys, resumeBelow: null }));
  }

  /**
   * A conversation's subagents whose parts only their own session token names (see SUBAGENT_TOKEN_CAP);
   * past the cap, the conversation is matched by reading each match's session.
   */
  #sessionScope(sessionId: string | undefined): SessionScope {
    if (sessionId === undefined) return { subagents: [], family: null };
    // `{id}:agent-…` parts carry the id's own token (see subagentParentOf): they need none of theirs.
    const agents = subagentParentOf(sessionId) === null ? `${sessionId}:agent-` : '';
    const agentsEnd = agents === '' ? '' : `${sessionId}:agent.`;
    const subagents = this.#subagents.all({ id: sessionId, agents, agentsEnd, limit: this.#subagentCap + 1 }) as string[];
    return subagents.length > this.#subagentCap ? { subagents: [], family: sessionId } : { subagents, family: null };
  }

  /**
   * The sessions of the app a search is narrowed to (AppScope); past the cap, the app is matched by
   * reading each match's session.
   */
  #appScope(filter: ListFilter): AppScope {
    if (filter.source === undefined) return { sessions: null, source: null };
    const sessions = this.#appSessions.all({ provider: filter.provider ?? null, source: filter.source, limit: this.#subagentCap + 1 }) as string[];
    return sessions.length > this.#subagentCap ? { sessions: null, source: filter.source } : { sessions, source: null };
  }

  /** The keys of matches their parts keep (the person's own words; parts of the conversation `family` or the app `source`; in the seconds a date bound cuts, lines at a time in range). */
  #scanKeys(filter: SearchFilter, match: string, family: string | null, source: string | null, lo: number, hi: number, limit: number): Promise<{ keys: number[]; resumeBelow: number | null }> {
    const keep = keptParams(filter, family, source);
    return this.#scan(
      (top, n) => this.#matchKeys(filter, match, lo, top, n),
      (keys) => this.#kept.all({ keys: JSON.stringify(keys), ...keep }) as number[],
      hi,
      limit,
    );
  }

  /**
   * Keys below `hi` that `keep` keeps, newest first: batches of what `find` gives (each four times the
   * last), until `limit` are kept, the keys run out, or GENUINE_SCAN_BUDGET keys were looked at.
   */
  async #scan(find: (hi: number, limit: number) => Promise<number[]> | number[], keep: (keys: number[]) => number[], hi: number, limit: number): Promise<{ keys: number[]; resumeBelow: number | null }> {
    const keys: number[] = [];
    let top = hi;
    let scanned = 0;
    let batch = Math.min(this.#genuineBudget, Math.max(2 * limit, GENUINE_FIRST_BATCH));
    for (;;) {
      const found = await find(top, batch);
      scanned += found.length;
      const kept = found.length === 0 ? [] : keep(found);
      keys.push(...kept.slice(0, limit - keys.length));
      if (keys.length === limit || found.length < batch) return { keys, resumeBelow: null };
      top = found[found.length - 1]!;
      if (scanned >= this.#genuineBudget) return { keys, resumeBelow: top };
      batch = Math.min(this.#genuineBudget - scanned, batch * 4);
    }
  }

  /**
   * The matching keys, newest first: here when the match is cheap, on the match worker when its
   * prefixes together would make FTS5 merge more pages than the budget. One that outruns its time is
   * refused as too broad, naming the broadest of them.
   */
  async #matchKeys(filter: SearchFilter, match: string, lo: number, hi: number, limit: number): Promise<number[]> {
    const weighed = (filter.prefixes ?? []).map((prefix) => ({ prefix, pages: this.prefixPages(prefix) })).sort((a, b) => b.pages - a.pages);
    const pages = weighed.reduce((sum, w) => sum + w.pages, 0);
    const parts = filter.partRowid ?? ANY_PART;
    const inThread = () => guard(() => this.#newest.all(match, lo, hi, parts, limit) as number[]);
    if (pages <= this.#prefixBudget || !this.#offThread) return inThread();
    try {
      const keys = await this.#offThread.keys({ match, lo, hi, parts, limit }, this.#timeoutMs);
      this.offThreadMatches += 1;
      return keys;
    } catch (error) {
      if (!(error instanceof MatchFailure)) throw error;
      if (error.reason === 'syntax') throw new SearchSyntaxError();
      if (error.reason === 'timeout') throw new SearchTooBroadError(weighed[0]!.prefix);
      // The worker could not run it (it failed to start, or its file went away): the owner's thread can.
      return inThread();
    }
  }

  /**
   * The keys whose evidence the words of the search still match, as the index would have matched a
   * part holding only that text (same tokenizer, same columns, same reading, so phrases, prefixes,
   * NEAR, column filters and operators mean what they meant). A search that hands out redacted results
   * keeps only these: a part found by words that only a secret holds would tell the secret.
   */
  stillMatching(filter: Pick<SearchFilter, 'expression' | 'role' | 'kind' | 'genuineUserTurn'>, evidence: readonly Evidence[]): Set<number> {
    if (evidence.length === 0) return new Set();
    const scratch = this.#scratchDb();
    const between = this.#breakFor(filter.expression);
    const run = scratch.db.transaction(() => {
      scratch.clear.run();
      for (const e of evidence) {
        const read = e.pieces.map((piece) => searchTextV2(indexReading(piece, e.json)) ?? '').join(`\n${between}\n`);
        const name = e.toolName === null ? null : searchTextV2(e.toolName);
        const text = name === null ? read : read === '' ? name : `${read}\n${name}`;
        const row = { body: null, thinking: null, tool_input: null, tool_output: null, [columnOf(e.kind)]: text };
        scratch.insert.run({ key: e.key, ...row });
      }
      const keys = guard(() => scratch.match.all(wordsMatchOf(filter)) as number[]);
      scratch.clear.run();
      return keys;
    });
    return new Set(run());
  }

  /**
   * Refuses (SearchSyntaxError) words the index would refuse, before any is asked: a search whose
   * results are redacted asks the index fewer words (PreparedQuery.positive) and holds each hit to all
   * of them, so a refusal found only then would come only where there was a hit.
   */
  checkWords(filter: Pick<SearchFilter, 'expression' | 'role' | 'kind' | 'genuineUserTurn'>): void {
    const scratch = this.#scratchDb();
    guard(() => scratch.match.all(wordsMatchOf(filter)));
  }

  #breakFor(expression: string): string {
    if (this.#lastBreak?.expression !== expression) this.#lastBreak = { expression, between: breakFor(expression, this.#startsOf(expression)) };
    return this.#lastBreak.between;
  }

  /** The first letters of `expression`'s tokens, as the index's tokenizer makes and folds them. */
  #startsOf(expression: string): Set<string> {
    const scratch = this.#scratchDb();
    return scratch.db.transaction(() => {
      scratch.probe.run(expression);
      const starts = new Set(scratch.starts.all() as string[]);
      scratch.unprobe.run();
      return starts;
    })();
  }

  #scratchDb(): Scratch {
    if (this.#scratch) return this.#scratch;
    const db = new Database(':memory:', sqliteOptions()) as Db;
    db.exec("CREATE VIRTUAL TABLE evidence USING fts5(body, thinking, tool_input, tool_output, tokenize = 'unicode61 remove_diacritics 2')");
    db.exec("CREATE VIRTUAL TABLE probe USING fts5(words, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE probe_terms USING fts5vocab(probe, 'row')");
    this.#scratch = {
      db,
      insert: db.prepare('INSERT INTO evidence (rowid, body, thinking, tool_input, tool_output) VALUES (@key, @body, @thinking, @tool_input, @tool_output)'),
      match: db.prepare('SELECT rowid FROM evidence WHERE evidence MATCH ?').pluck(),
      clear: db.prepare('DELETE FROM evidence'),
      probe: db.prepare('INSERT INTO probe (words) VALUES (?)'),
      starts: db.prepare('SELECT DISTINCT substr(term, 1, 1) FROM probe_terms').pluck(),
      unprobe: db.prepare('DELETE FROM probe'),
    };
    return this.#scratch;
  }

  /** Stops the match worker, if one started. */
  close(): Promise<void> {
    this.#scratch?.db.close();
    this.#scratch = undefined;
    return this.#offThread?.close() ?? Promise.resolve();
  }

  /** A key above every indexed part: fixes a relevance result's candidates across its pages. */
  upperKey(): number {
    return this.#top.get() as number;
  }

  /**
   * The newest indexed part's rowid: a part stored later takes a rowid above every part there is, so
   * a paged search's first page fixes what its later pages read with this (SearchFilter.partRowid).
   */
  lastPartRowid(): number {
    return this.#lastPart.get() as number;
  }
}

/** KEPT_SQL's parameters for a filter. */
function keptParams(filter: ListFilter, family: string | null, source: string | null = null) {
  const whole = wholeSeconds(filter) ?? { lo: 0, hi: Number.MAX_SAFE_INTEGER };
  return { genuine: filter.genuineUserTurn ? 1 : 0, family, source, wholeLo: whole.lo, wholeHi: whole.hi, from: filter.fromMs ?? null, to: filter.toMs ?? null };
}

function guard<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    // Only the MATCH can fail this way; FTS5 reports a refused expression as a plain SQLITE_ERROR.
    if ((error as { code?: unknown }).code === 'SQLITE_ERROR') throw new SearchSyntaxError();
    throw error;
  }
}
