import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { appName, hasSearchFilter, methods, NOTHING_TO_SEARCH, partRoleOf, type NothingToFind, searchAppOf, StewardError, wholeAt, type ParsedParams, type Result, type SearchHit, type SearchSession } from '../api/index.js';
import { holdsToken, SearchSyntaxError, SearchTooBroadError, type HistoryReader, type ListFilter, type MatchedPart, type SearchFilter, type SearchIndex, type SearchReader } from '../gateway/index.js';
import type { Redactor } from '../secrets/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { anyWordsOf, anyWordsQuery, asPhrase, prepareQuery, symbolsLeftOut, unknownColumnsOf, withoutDangling, type DanglingFree, type PreparedQuery } from './query.js';
import { foldRepeats, placeOf, rankByRelevance, rankedBefore, type Ranked } from './rank.js';
import { recheckOf, type Recheck } from './recheck.js';
import { redactAll } from './redaction.js';
import { cursorMismatch, searchMark, SearchMark } from './search-mark.js';
import { callRest, toolCallLine, wrappedOutput } from './messages.js';
import type { SessionsView } from './sessions.js';
import { excerptOf, highlightsIn, redactPieces, snippetOf, termPattern, type Excerpt, type Snippet } from './snippet.js';
import type { TermPattern } from './term-match.js';

/** The projects a search may be narrowed to: by key, or every project of one repository. */
export interface ProjectDirectory {
  repoProjects(repo: string): string[];
}

const DEFAULT_LIMIT = 20;
/** The calls before a tool output looked through for the one it answers: a turn's parallel calls, with room. */
const CALLS_LOOKED_AT = 50;
/** How much of each string of a tool call's input its summary line is read from (see callHead). */
const CALL_HEAD_CHARS = 2_048;
/**
 * Relevance ranks at most this many of the newest matches (see SearchReader.candidates): a page must
 * come back in tens of ms however common the words are.
 */
const RANK_CAP = 500;
/**
 * Matches a redacted search looks at again per page (see recheck.ts) before it answers with what it
 * kept. As many as relevance ranks, so a ranked page never stops short of its candidates: a short page
 * with a cursor would say that parts only a secret's words match exist. A newest-first page past it
 * comes back short with a cursor that goes on below what it looked at (500 such parts ≈ 300 ms of
 * redaction, a turn of the event loop between passes).
 */
const RECHECK_BUDGET = RANK_CAP;
/**
 * An any-word search (anyWordsQuery) leaves out a word that this many parts hold, or more, when another
 * of its words is rarer: its matches alone could fill all that relevance ranks (RANK_CAP), newer ones
 * first, and crowd out the rarer word's (`why do we use WAL`: a chat saying `use` hid every WAL decision).
 */
const COMMON_IN_STORE = RANK_CAP;
/**
 * At most this many of an any-word search's words are counted (each to COMMON_IN_STORE parts, a few
 * hundred index rows at most); the rest are kept uncounted.
 */
const COUNTED_WORDS = 16;
/** Said of a word written as a column that is none (`text:backoff`); the README's search syntax names the same columns. */
const NOT_A_COLUMN = 'is no column of the search index (body:, thinking:, tool_input: and tool_output: are); a kind or a role is a filter of its own.';
const FALLBACK_MESSAGE = 'That was not valid search syntax, so it was searched as one exact phrase.';
/** What may stand before a call's `(` in code (`upload(`, `foo.bar(`, `Vec<u8>::new(`, `xs[0](`). */
const CALLEE_END = /[\p{L}\p{N}_$>\]]/u;
/** What a search of code typed as written says (see codeAsTyped): the input, as it was searched. */
const exactTextMessage = (query: string) => `Searched as the exact text “${query.trim()}”.`;
const AS_WRITTEN_MESSAGE = 'Nothing matched that as search syntax (AND, OR, NOT and NEAR are operators), so it was searched as one exact phrase.';
/** What a search of plain words says that no part holds all of, searched again with any of them (see anyWordsQuery). */
const ANY_WORDS_MESSAGE = 'No message has all of these words; showing those with any of them.';
/** What a search with no words says unless it asked for newest first (SearchQueryResult.fallback). */
const NO_WORDS_MESSAGE = 'There are no words to rank by, so the matching messages are shown newest first.';
/** Words a pasted error may hold that the syntax reads as operators: `IntegrityError: NOT NULL constraint failed`. */
const OPERATOR_WORDS = /(?:^|\s)(?:AND|OR|NOT|NEAR)(?=[\s(]|$)/;

/** The longest cursor a request may hand back (the contract's). */
const CURSOR_MAX = methods['Search.Query'].params.shape.cursor.unwrap().maxLength ?? Infinity;

const whole = z.number().int().nonnegative();
/**
 * A cursor holds the search it pages (SearchMark: `f`, and what says which part differs) and what its
 * first page saw, so that nothing captured or forgotten between pages repeats or skips a hit: `p` the
 * newest part indexed then (see SearchFilter.partRowid), and where the last page ended: `k` its last key; for relevance also `a` its last score and `t` its voice tier (pages go
 * on in the ranking's order, see rankedBefore, not at an offset a forgotten part would shift), `u` and `l` the keys the ranked matches lay in, `b` the
 * ranking's basis (see RankBasis) and `r` how many were ranked when there were more; `w` when the
 * pages are of the input as one phrase because its operators matched nothing, `o` when they are
 * of any of its words because no part holds all of them (see #answer), with `d` the words (by their
 * place in anyWordsOf) its first page left out as too common: counts change as parts arrive, the pages do not.
 */
const dropped = z.array(whole).max(COUNTED_WORDS).optional();
const SearchCursor = z.discriminatedUnion('s', [
  z.strictObject({ s: z.literal('newest'), ...SearchMark, k: whole, p: whole, w: z.literal(1).optional(), o: z.literal(1).optional(), d: dropped }),
  z.strictObject({
    s: z.literal('relevance'),
    ...SearchMark,
    u: whole,
    l: whole,
    p: whole,
    a: z.number(),
    t: whole.optional(),
    k: whole,
    b: z.strictObject({ n: whole, m: z.number().positive(), h: z.array(whole) }).optional(),
    r: whole.optional(),
    w: z.literal(1).optional(),
    o: z.literal(1).optional(),
    d: dropped,
  }),
]);
type SearchCursor = z.infer<typeof SearchCursor>;
type NewestCursor = Extract<SearchCursor, { s: 'newest' }>;
type RelevanceCursor = Extract<SearchCursor, { s: 'relevance' }>;

type Params = ParsedParams<'Search.Query'>;

interface Page {
  matches: MatchedPart[];
  next: SearchCursor | undefined;
  rankedAmong?: number;
  /** How many parts like it each shown part (by key) stands for, where any (see foldRepeats). */
  alike?: ReadonlyMap<number, number>;
}

/** A repository given as OWNER/NAME matches its canonical id (`github.com/OWNER/NAME`) too. */
/**
 * Search over every captured conversation: the person's syntax made safe (a refused expression is
 * searched again as a phrase, a prefix too broad to search in time is not searched, and the result
 * says so), filters as index terms, pages by cursor.
 */
export class HistorySearch {
  readonly #reader: SearchReader;
  readonly #index: SearchIndex;
  readonly #sessions: SessionsView;
  readonly #history: HistoryReader;
  readonly #projects: ProjectDirectory;
  readonly #redactor: () => Redactor;
  readonly #cursorKey: () => Buffer;
  #key: Buffer | undefined;

  /** `cursorKey`: the key cursors mark their search under (searchCursorKey), read at the first search; left out, one for this instance alone. */
  constructor(reader: SearchReader, index: SearchIndex, sessions: SessionsView, history: HistoryReader, projects: ProjectDirectory, redactor: () => Redactor, cursorKey: () => Buffer = () => randomBytes(32)) {
    this.#reader = reader;
    this.#index = index;
    this.#sessions = sessions;
    this.#history = history;
    this.#projects = projects;
    this.#redactor = redactor;
    this.#cursorKey = cursorKey;
  }

  async query(params: Params): Promise<Result<'Search.Query'>> {
    const cursor = params.cursor === undefined ? undefined : decodeCursor(params.cursor, SearchCursor);
    const typed = withoutDangling(params.query);
    // Only letters, numbers and private-use characters are indexed: `"*"`, `(` or `-` has no word to find.
    const words = holdsToken(typed.text);
    // With no words (the contract allows that only with a filter) relevance has nothing to rank by.
    const sort = words ? (params.sort ?? 'relevance') : 'newest';
    this.#key ??= this.#cursorKey();
    const tag = searchMark(params, sort, this.#key);
    const mismatch = cursor && cursorMismatch(cursor, tag, params, sort);
    if (mismatch) throw new StewardError('invalid_params', mismatch);
    const limit = params.limit ?? DEFAULT_LIMIT;
    if (!words) {
      // Only operators or a lone `*` (see withoutDangling), and no filter: nothing would be searched, so
      // the request is refused as an empty one is, never answered with "no matches".
      if (!hasSearchFilter(params)) throw new StewardError('invalid_params', nothingToFind(params.query), { method: 'Search.Query', reason: 'nothing_to_find' } satisfies NothingToFind);
      return this.#listing(params, limit, cursor?.s === 'newest' ? cursor : undefined, tag);
    }
    try {
      return withSymbolsSaid(await this.#answer(params, typed, sort, limit, cursor, tag), typed.text);
    } catch (error) {
      // What the person typed never makes an error: a prefix too broad to search in time is theirs to narrow, and the result says how.
      if (error instanceof SearchTooBroadError) return { hits: [], sessions: [], fallback: { mode: 'too_broad', message: tooBroadMessage(error.prefix) }, ...this.#indexing() };
      throw error;
    }
  }

  /**
   * A page of the query as written (less an operator with nothing on a side and a lone `*`: `typed`,
   * see withoutDangling), or of the whole input as one phrase: when the index refused its syntax, or
   * when it holds operator words and matched nothing while the phrase matches (a pasted
   * `IntegrityError: NOT NULL constraint failed` is not meant to leave out `NULL`). The pages after such
   * a first page go on with the phrase (their cursor says so). Plain words no part holds all of are
   * searched again with any of them (see anyWordsQuery), and so are their later pages.
   */
  async #answer(params: Params, typed: DanglingFree, sort: 'relevance' | 'newest', limit: number, cursor: SearchCursor | undefined, tag: SearchMark): Promise<Result<'Search.Query'>> {
    // Words with an operator left out are the person's syntax, as the words left are: never any of them.
    const anyWords = typed.leftOut.length > 0 || typed.moved ? null : anyWordsOf(typed.text);
    // `anyWords`: an any-word search's query, ranked by how many of its words a part holds (rankByRelevance).
    const attempt = (query: PreparedQuery, anyWords = false) => {
      const filter = this.#filter(params, query);
      // Relevance counts what the positive expression looks for: a word after NOT never raises a hit.
      if (params.redact !== true) return this.#run(filter, query.positiveTerms, sort, limit, cursor, tag, null, anyWords);
      // Results a reader gets redacted keep only matches the words still make once redacted: the index is
      // asked for what the words find before NOT leaves any out, the recheck holds each to them all.
      const recheck = recheckOf(this.#reader, filter, query.terms, query.prefixes, this.#redactor(), query.positive !== query.expression);
      return this.#run({ ...filter, expression: query.positive }, query.positiveTerms, sort, limit, cursor, tag, recheck, anyWords);
    };
    if (cursor?.o === 1) {
      // The same input always gives the same words, less those the first page left out: only a cursor not made for this search lacks them.
      const left = cursor.d ?? [];
      const query = anyWords === null ? null : anyWordsQuery(anyWords.filter((_, i) => !left.includes(i)));
      if (query === null) throw new StewardError('invalid_params', 'The cursor belongs to another search; start again without it');
      return this.#anyWordsResult(params, await attempt(query, true), query, left);
    }
    const prepared = cursor?.w === 1 ? null : prepareQuery(typed.text);
    let used: PreparedQuery = prepared ?? asPhrase(params.query);
    let page = prepared === null ? undefined : await refusedAsUndefined(() => attempt(used));
    let fallback = typed.leftOut.length > 0 || typed.moved ? leftOutMessage(typed) : undefined;
    if (page === undefined) {
      fallback = cursor?.w === 1 ? AS_WRITTEN_MESSAGE : codeAsTyped(params.query) ? exactTextMessage(params.query) : FALLBACK_MESSAGE;
      used = asPhrase(params.query);
      // A phrase of nothing but punctuation holds no word to find: no hits, never an error.
      page = (await refusedAsUndefined(() => attempt(used))) ?? { matches: [], next: undefined };
    } else if (page.matches.length === 0 && cursor === undefined && OPERATOR_WORDS.test(params.query)) {
      const phrase = asPhrase(params.query);
      const literal = await refusedAsUndefined(() => attempt(phrase));
      if (literal && literal.matches.length > 0) [used, page, fallback] = [phrase, literal, AS_WRITTEN_MESSAGE];
    } else if (page.matches.length === 0 && page.next === undefined && cursor === undefined && anyWords !== null) {
      const left = this.#tooCommon(anyWords);
      const query = anyWordsQuery(anyWords.filter((_, i) => !left.includes(i)))!;
      const wider = await refusedAsUndefined(() => attempt(query, true));
      if (wider && wider.matches.length > 0) return this.#anyWordsResult(params, wider, query, left);
    }
    if (fallback === AS_WRITTEN_MESSAGE && page.next) page.next = { ...page.next, w: 1 };
    return this.#result(params, page, termPattern(used.terms, used.prefixes), fallback === undefined ? undefined : { mode: 'phrase', message: fallback });
  }

  /**
   * Which of an any-word search's words (by place) it leaves out as too common in this store (see
   * COMMON_IN_STORE): each that reaches it, when another counted word is rarer; none when none is. A word
   * found nowhere counts as rarer too, so leaving a word out never tells whether a part holds another
   * (a redacted search's words may be a secret's).
   */
  #tooCommon(words: readonly string[]): number[] {
    const counts = words.slice(0, COUNTED_WORDS).map((word) => this.#partsHolding(word));
    if (!counts.some((n) => n !== null && n < COMMON_IN_STORE)) return [];
    return counts.flatMap((n, i) => (n !== null && n >= COMMON_IN_STORE ? [i] : []));
  }

  /** How many parts hold `word`, counted to COMMON_IN_STORE; null for a word the index refuses, which is never left out. */
  #partsHolding(word: string): number | null {
    const expression = prepareQuery(word)?.expression;
    if (expression === undefined) return null;
    try {
      return this.#reader.matchCount(expression, COMMON_IN_STORE);
    } catch (error) {
      if (error instanceof SearchSyntaxError) return null;
      throw error;
    }
  }

  /** A page of the any-word search (see anyWordsQuery), saying so; its cursor goes on with it and the words it left out. */
  #anyWordsResult(params: Params, page: Page, query: PreparedQuery, left: number[]): Promise<Result<'Search.Query'>> {
    const next = page.next && { ...page.next, o: 1 as const, ...(left.length > 0 ? { d: left } : {}) };
    return this.#result(params, { ...page, next }, termPattern(query.terms, query.prefixes), { mode: 'any_words', message: ANY_WORDS_MESSAGE });
  }

  /**
   * A search with no words: the parts its filters select, newest first, paged as `newest` pages are
   * (the same cursor); each snippet is the start of its part, with nothing to highlight.
   */
  async #listing(params: Params, limit: number, cursor: NewestCursor | undefined, tag: SearchMark): Promise<Result<'Search.Query'>> {
    const page = await this.#newest(this.#scope(params), limit, cursor, tag);
    // Words that were all operators or a lone `*` are said to be none, whatever the sort.
    if (params.query.trim() !== '') return this.#result(params, page, null, { mode: 'newest', message: noWordsMessage(params.query) });
    return this.#result(params, page, null, params.sort === 'newest' ? undefined : { mode: 'newest', message: NO_WORDS_MESSAGE });
  }

  /** A page as the contract hands it: hits with snippets (highlighting `pattern`), their conversations, what the search had to say. */
  async #result(params: Params, page: Page, pattern: TermPattern | null, fallback: Result<'Search.Query'>['fallback']): Promise<Result<'Search.Query'>> {
    const redactor = params.redact === true ? this.#redactor() : null;
    const calls = page.matches.map((m) => (m.kind === 'tool_result' ? this.#callAnswered(m) : null));
    const called = await callsOf(page.matches, calls, redactor);
    const summaries = called.map((c) => (c === null ? null : toolCallLine(c.name, c.text)));
    const snippets = await snippetsOf(page.matches, pattern, redactor, called);
    const hits = page.matches.map((m, i): SearchHit => {
      const snippet = snippets[i]!;
      const toolName = toolNameOf(m.meta) ?? calls[i]?.name ?? null;
      const summary = summaries[i] ?? null;
      return { sessionId: m.sessionId, partId: m.partId, projectKey: m.projectKey, ts: m.ts, role: partRoleOf(m.kind, m.role), snippet: snippet.text, kind: m.kind, provider: m.provider, genuineUserTurn: m.genuineUserTurn, isCompactSummary: m.isCompactSummary, toolName, summary, highlights: snippet.highlights, ...summaryMarks(m, summary, pattern), ...alikeOf(page, m.key) };
    });
    return {
      hits,
      ...(page.next ? { cursor: encodeCursor(page.next) } : {}),
      sessions: await this.#sessionsOf(hits, redactor),
      ...(fallback !== undefined ? { fallback } : {}),
      ...(page.rankedAmong !== undefined ? { rankedAmong: page.rankedAmong } : {}),
      ...this.#indexing(),
    };
  }

  /**
   * The tool call a tool output answers (by the call id both keep, toolUseId), among the calls of its
   * conversation just before it: its tool's name and input, so a hit says which command printed it
   * (most agents keep the name on the call alone). Null when none is found.
   */
  #callAnswered(result: MatchedPart): Call | null {
    const id = metaField(result.meta, 'toolUseId');
    if (id === null || result.ts === null) return null;
    const call = this.#history.callAnswering(result.sessionId, result.ts, id, CALLS_LOOKED_AT);
    return call ? { name: toolNameOf(call.meta), text: call.text === null ? null : callHead(call.text) } : null;
  }

  /** While a background walk over the index (indexing, re-tagging) is unfinished, a result says which and how far it got. */
  #indexing(): Pick<Result<'Search.Query'>, 'indexing'> {
    const progress = this.#index.walkProgress();
    return progress.complete ? {} : { indexing: { phase: progress.phase, indexedParts: progress.indexedParts, totalParts: progress.totalParts } };
  }

  #filter(params: Params, query: PreparedQuery): SearchFilter {
    return { ...this.#scope(params), expression: query.expression, prefixes: query.prefixes };
  }

  /** The request's filters, without words. */
  #scope(params: Params): ListFilter {
    let projectKeys: string[] | undefined;
    if (params.repo !== undefined) {
      projectKeys = this.#projects.repoProjects(params.repo);
      if (params.projectKey !== undefined) projectKeys = projectKeys.filter((key) => key === params.projectKey);
    } else if (params.projectKey !== undefined) projectKeys = [params.projectKey];
    const app = searchAppOf(params.provider);
    return {
      kind: params.kind,
      provider: app?.provider ?? params.provider,
      source: app?.source,
      role: params.role,
      sessionId: params.sessionId,
      projectKeys,
      fromMs: params.from,
      toMs: params.to,
      genuineUserTurn: params.genuineUserTurn,
    };
  }

  #run(filter: SearchFilter, terms: readonly string[], sort: 'relevance' | 'newest', limit: number, cursor: SearchCursor | undefined, tag: SearchMark, recheck: Recheck | null, anyWords = false): Promise<Page> {
    if (sort === 'newest') return this.#newest(filter, limit, cursor?.s === 'newest' ? cursor : undefined, tag, recheck);
    return this.#relevance(filter, terms, limit, cursor?.s === 'relevance' ? cursor : undefined, tag, recheck, anyWords);
  }

  /**
   * Newest first, below the last key shown, among the parts indexed when the first page was taken: of
   * the words' matches, or of a filter without an expression (a search with no words) alone.
   */
  async #newest(filter: SearchFilter | ListFilter, limit: number, cursor: NewestCursor | undefined, tag: SearchMark, recheck: Recheck | null = null): Promise<Page> {
    const parts = cursor ? cursor.p : this.#reader.lastPartRowid();
    let before = cursor ? cursor.k : null;
    const kept: MatchedPart[] = [];
    let looked = 0;
    let next: number | null;
    for (;;) {
      const found = 'expression' in filter ? await this.#reader.newest({ ...filter, partRowid: parts }, before, limit + 1) : await this.#reader.latest({ ...filter, partRowid: parts }, before, limit + 1);
      kept.push(...(recheck ? await recheck(found.matches) : found.matches));
      looked += found.matches.length;
      const lowest = found.matches[found.matches.length - 1];
      if (kept.length > limit) {
        next = kept[limit - 1]!.key;
        break;
      }
      // A page that stopped at its scan budget (or its recheck's) goes on below what it looked at, though it came back short.
      if (found.resumeBelow !== null || found.matches.length <= limit || !lowest) {
        next = found.resumeBelow;
        break;
      }
      before = lowest.key;
      if (looked >= RECHECK_BUDGET) {
        next = before;
        break;
      }
    }
    return { matches: kept.slice(0, limit), next: next === null ? undefined : { s: 'newest', ...tag, k: next, p: parts } };
  }

  /**
   * The first page ranks the newest RANK_CAP matches; later pages rank the same ones (the keys they lay
   * in, the parts indexed then) less any forgotten since, scored with the first page's basis, fold their
   * repeats as it did (see foldRepeats), and go on after the last place shown (see rankedBefore). A
   * repeat is never on a later page: it ranks after the part it folded into.
   */
  async #relevance(filter: SearchFilter, terms: readonly string[], limit: number, cursor: RelevanceCursor | undefined, tag: SearchMark, recheck: Recheck | null, anyWords = false): Promise<Page> {
    const upper = cursor ? cursor.u : this.#reader.upperKey();
    const parts = cursor ? cursor.p : this.#reader.lastPartRowid();
    const found = await this.#reader.candidates({ ...filter, partRowid: parts }, upper, RANK_CAP, cursor?.l ?? 0);
    const { ranked, basis } = await rankByRelevance(found.heads, terms, cursor?.b, filter.prefixes, anyWords);
    const redactor = recheck ? this.#redactor() : null;
    const folded = await foldRepeats(ranked, (keys) => this.#reader.details(keys), redactor ? (texts) => redactAll(texts, redactor) : undefined);
    const rest = cursor ? folded.filter((r) => rankedBefore({ score: cursor.a, tier: cursor.t ?? 0, key: cursor.k }, placeOf(r))) : folded;
    const { shown, last, more } = recheck ? await this.#rechecked(rest, limit, recheck) : { shown: this.#reader.details(rest.slice(0, limit).map((r) => r.part.key)), last: rest[Math.min(limit, rest.length) - 1], more: rest.length > limit };
    const rankedAmong = cursor ? cursor.r : found.capped ? found.heads.length : undefined;
    const floor = cursor ? cursor.l : Math.min(...found.heads.map((h) => h.key));
    const next: RelevanceCursor | undefined =
      more && last ? { s: 'relevance', ...tag, u: upper, l: floor, p: parts, a: last.score, t: last.tier, k: last.part.key, b: basis, ...(rankedAmong === undefined ? {} : { r: rankedAmong }) } : undefined;
    const alike = new Map(rest.flatMap((r) => (r.alike > 0 ? [[r.part.key, r.alike] as const] : [])));
    return { matches: shown, next: next && withinLength(next), alike, ...(rankedAmong === undefined ? {} : { rankedAmong }) };
  }

  /**
   * The first `limit` of the ranked parts a recheck keeps, read whole, looking at no more than
   * RECHECK_BUDGET of them; `last` is the last one looked at that the next page goes on after, and
   * `more` whether there are more to look at.
   */
  async #rechecked(ranked: readonly Ranked[], limit: number, recheck: Recheck): Promise<{ shown: MatchedPart[]; last: Ranked | undefined; more: boolean }> {
    const kept: Array<{ at: number; part: MatchedPart }> = [];
    let at = 0;
    while (kept.length <= limit && at < ranked.length && at < RECHECK_BUDGET) {
      const batch = ranked.slice(at, Math.min(at + limit + 1 - kept.length, RECHECK_BUDGET));
      const survivors = new Map((await recheck(this.#reader.details(batch.map((r) => r.part.key)))).map((p) => [p.key, p]));
      batch.forEach((r, i) => {
        const part = survivors.get(r.part.key);
        if (part) kept.push({ at: at + i, part });
      });
      at += batch.length;
    }
    if (kept.length > limit) return { shown: kept.slice(0, limit).map((k) => k.part), last: ranked[kept[limit - 1]!.at], more: true };
    return { shown: kept.map((k) => k.part), last: ranked[at - 1], more: at < ranked.length };
  }

  /** Only what a group's heading shows: a page of hits reads no more than that per conversation. */
  async #sessionsOf(hits: readonly SearchHit[], redactor: Redactor | null): Promise<SearchSession[]> {
    const records = [...new Set(hits.map((h) => h.sessionId))].flatMap((id) => this.#history.session(id) ?? []);
    const labels = redactor
      ? await this.#sessions.redactedLabels(records, redactor, (r) => r.title === null)
      : records.map((r) => ({ title: r.title, firstRequest: r.title === null ? this.#sessions.firstRequest(r) : null }));
    const nameOf = this.#sessions.projectNamer();
    return records.map((record, i) => ({
      sessionId: record.sessionId,
      parentSessionId: record.parentSessionId,
      parentKind: record.parentKind,
      projectKey: record.projectKey,
      projectName: nameOf(record.projectKey),
      provider: record.provider,
      app: appName(record.provider, record.source),
      ...labels[i]!,
      lastAt: record.lastTs,
    }));
  }
}

/**
 * A result that says what a word with symbols was searched as (symbolsLeftOut), after what it says
 * already: `C++` finds every `c`, and `build^2` the words `build 2`, which nothing said. So is a word
 * written as a column the index has not (unknownColumnsOf): `text:backoff` searched as written.
 */
function withSymbolsSaid(result: Result<'Search.Query'>, text: string): Result<'Search.Query'> {
  const left = symbolsLeftOut(text);
  const said = left.map(({ typed, searched }) => (searched === '' ? `“${typed}” has no letters or numbers to search` : `“${typed}” was searched as “${searched}”`));
  const notes = [
    ...(left.length > 0 ? [`Symbols such as + # ^ are not in the search index: ${said.join('; ')}.`] : []),
    ...unknownColumnsOf(text).map(({ typed, name }) => `“${typed}” was searched as written: “${name}:” ${NOT_A_COLUMN}`),
  ];
  if (notes.length === 0) return result;
  const message = notes.join(' ');
  // Its own mode when there was no note: the words were searched as typed, never as a phrase.
  const fallback = result.fallback ? { ...result.fallback, message: `${result.fallback.message} ${message}` } : { mode: 'symbols' as const, message };
  return { ...result, fallback };
}

/** Runs a search; an expression the index refused gives undefined instead of an error. */
async function refusedAsUndefined(run: () => Promise<Page>): Promise<Page | undefined> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SearchSyntaxError) return undefined;
    throw error;
  }
}

/**
 * Whether a query the syntax refused is code as a person types it to find it (`upload()`,
 * `foo.bar()`, `await save(doc)`) rather than a malformed expression: each `(` follows a name, as a
 * call's does, and each is closed; no quote, no operator (`NEAR(` is syntax). It is no mistake, so
 * its note says what was searched without calling it invalid.
 */
function codeAsTyped(query: string): boolean {
  if (query.includes('"') || OPERATOR_WORDS.test(query.replace(/[()]/g, ' '))) return false;
  let depth = 0;
  for (let i = 0; i < query.length; i += 1) {
    if (query[i] === '(') {
      if (i === 0 || !CALLEE_END.test(query[i - 1]!)) return false;
      depth += 1;
    } else if (query[i] === ')' && --depth < 0) return false;
  }
  return depth === 0 && query.includes('(');
}

/** What a search says whose operators with nothing on a side, or lone `*`, were left out (see withoutDangling). */
function leftOutMessage({ text, leftOut, moved }: DanglingFree): string {
  if (leftOut.length === 0 && moved) return `NOT needs words before it, so it was searched as: ${text}`;
  const why = [
    ...(leftOut.some((t) => !t.startsWith('*')) ? ['AND, OR, NOT and NEAR need words on both sides'] : []),
    ...(leftOut.some((t) => t.startsWith('*')) ? ['a lone * stands for no word'] : []),
  ];
  return `That was not valid search syntax (${why.join('; ')}), so ${quotedList(leftOut)} was left out and it was searched as: ${text}`;
}

/** What a search whose input was only operators or a lone `*` says; `listed`: its filters' messages are shown instead. */
/** `NOT kitchen` alone: words, but nothing for NOT to leave them out of. */
const LONE_NOT = /^\s*NOT\s+\S/;

/** What a listing whose words were all operators or a lone `*` says. */
function noWordsMessage(query: string): string {
  const what = LONE_NOT.test(query) ? `“${query.trim()}” has nothing for NOT to leave out of (NOT needs words before it)` : `“${query.trim()}” has no words to search for`;
  return `${what}, so the messages the filters select are shown newest first.`;
}

/** Why a query with no word to find (and no filter) is refused: `NOT x` alone would match everything but x, which is no search. */
function nothingToFind(query: string): string {
  if (query.trim() === '') return NOTHING_TO_SEARCH;
  if (LONE_NOT.test(query)) return `“${query.trim()}” only leaves out what follows NOT (everything but it is no search): a query needs at least one word to find; give words, or at least one filter`;
  return `“${query.trim()}” has no words to search for: give words, or at least one filter`;
}

function quotedList(items: readonly string[]): string {
  const quoted = [...new Set(items)].map((item) => `“${item}”`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/** What a search refused as too broad says, naming the prefix as typed (see SearchTooBroadError). */
function tooBroadMessage(prefix: string): string {
  return `“${prefix}*” stands for too many different words to search at once, so nothing was searched. Add a letter or two before the *.`;
}

/**
 * A basis holds a count per term: one for a query of very many words may not fit a cursor. Without it
 * later pages weigh the terms among the candidates left, the same ones unless some were forgotten.
 */
function withinLength(cursor: RelevanceCursor): RelevanceCursor {
  if (encodeCursor(cursor).length <= CURSOR_MAX) return cursor;
  const { b: _basis, ...rest } = cursor;
  return rest;
}

/** Places of a match a redacted snippet is cut around at most: past one a secret hid, the next. */
const SNIPPET_PLACES = 4;

/**
 * Each match's snippet; with a redactor, cut from its excerpt redacted whole, never redacted after the
 * cut (a token cut from its `Bearer`, or a key cut short, no longer looks like a secret). Where the
 * first match stood in a secret, the snippet is cut around the next one the reader can see, if any, as
 * if it had been the first: a snippet cut short at the excerpt's end would tell where a secret matched.
 */
async function snippetsOf(matches: readonly MatchedPart[], pattern: TermPattern | null, redactor: Redactor | null, called: ReadonlyArray<Call | null>): Promise<Snippet[]> {
  const texts = matches.map(shownText);
  // A tool call's snippet is what it says besides its line (callRest), cut from its input redacted whole.
  const rest = (i: number) => (matches[i]!.kind === 'tool_use' ? snippetOf(callRest(called[i]?.text ?? null), pattern) : undefined);
  if (redactor === null) return texts.map((text, i) => rest(i) ?? snippetOf(text, pattern));
  const shown: Array<Snippet | undefined> = texts.map((text, i) => rest(i) ?? (text === null ? snippetOf(null, pattern) : undefined));
  const toHead: number[] = [];
  let looking = texts.flatMap((_, i) => (shown[i] === undefined ? [{ i, from: 0 }] : []));
  for (let place = 0; place < SNIPPET_PLACES && looking.length > 0; place += 1) {
    const cut = await redactedSnippets(looking.map(({ i, from }) => excerptOf(texts[i]!, pattern, from)), pattern, redactor);
    looking = looking.flatMap(({ i }, k) => {
      const { snippet, past } = cut[k]!;
      // A match the reader sees, shown whole; or, on the first look, words that match nothing here (the excerpt is the head).
      if ((snippet.highlights.length > 0 && !snippet.cutShort) || (past < 0 && place === 0)) shown[i] = snippet;
      else if (past < 0) toHead.push(i);
      else return [{ i, from: past }];
      return [];
    });
  }
  // No match the reader sees: the head, as for words that match nothing here (a cut around a hidden match would tell where it is).
  toHead.push(...looking.map(({ i }) => i));
  const heads = await redactedSnippets(toHead.map((i) => excerptOf(texts[i]!, null)), pattern, redactor);
  toHead.forEach((i, k) => (shown[i] = heads[k]!.snippet));
  return shown.map((snippet) => snippet!);
}

/** Excerpts redacted whole, then cut to their snippets (with where the next match may be looked for). */
async function redactedSnippets(excerpts: readonly Excerpt[], pattern: TermPattern | null, redactor: Redactor): Promise<Array<{ snippet: Snippet; past: number }>> {
  if (excerpts.length === 0) return [];
  const redacted = await redactPieces(excerpts, redactor);
  return excerpts.map((e, k) => ({ snippet: snippetOf(redacted[k] ?? null, pattern, e), past: e.past }));
}

/** A match's text as the viewer shows it: a tool result's output without the wrapper it is stored in (Codex's JSON). */
function shownText(match: MatchedPart): string | null {
  if (match.kind !== 'tool_result' || match.text === null) return match.text;
  return wrappedOutput(match.provider, match.text) ?? match.text;
}

/** A tool call's name and stored input. */
interface Call {
  name: string | null;
  text: string | null;
}

/**
 * Each tool call, and, for each tool output, the call it answers (`calls`, where found); null for
 * other parts. Its input redacted whole, then read: a token the line's 140-character cut (or a
 * snippet's) shortened no longer looks like one. A call's line (toolCallLine) and snippet (callRest)
 * are both read from it.
 */
async function callsOf(matches: readonly MatchedPart[], calls: ReadonlyArray<Call | null>, redactor: Redactor | null): Promise<Array<Call | null>> {
  const called = matches.map((m, i) => (m.kind === 'tool_use' ? { name: toolNameOf(m.meta), text: m.text } : (calls[i] ?? null)));
  if (redactor === null) return called;
  const texts = await redactAll(
    called.map((c) => c?.text ?? null),
    redactor,
  );
  return called.map((c, i) => (c === null ? null : { name: c.name, text: texts[i] ?? null }));
}

/**
 * As much of a tool call's input as its one-line summary (toolCallLine, 140 characters) can read: the
 * call is redacted before its line is cut, and redacting a whole call (a Write's file) cost more than
 * the rest of the hit. An input of JSON keeps its shape, each string cut, so its line names the same
 * argument; any other text is cut to its start.
 */
function callHead(text: string): string {
  if (text.length <= CALL_HEAD_CHARS) return text;
  const prefix = (value: string, cap: number) => (value.length <= cap ? value : value.slice(0, wholeAt(value, cap)));
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) => (typeof value === 'string' ? prefix(value, CALL_HEAD_CHARS) : value));
  } catch {
    return prefix(text, CALL_HEAD_CHARS);
  }
}

/**
 * A tool call's marks in its one line (summaryHighlights), by the terms its snippet is marked by: the
 * line is read from the call's input (redacted first when the search is), which is what matched; the
 * snippet is what the call says besides it, empty when the line says it all. A tool output's line is
 * its call's, not what matched, and is never marked. Nothing when none.
 */
function summaryMarks(match: MatchedPart, summary: string | null, pattern: TermPattern | null): Pick<SearchHit, 'summaryHighlights'> {
  if (match.kind !== 'tool_use' || summary === null) return {};
  const marks = highlightsIn(summary, pattern);
  return marks.length > 0 ? { summaryHighlights: marks } : {};
}

/** A hit's `alike`: how many matches like it it stands for (see foldRepeats); nothing when none. */
function alikeOf(page: Page, key: number): Pick<SearchHit, 'alike'> {
  const alike = page.alike?.get(key) ?? 0;
  return alike > 0 ? { alike } : {};
}

function toolNameOf(meta: string | null): string | null {
  return metaField(meta, 'name');
}

/** A text field of a part's meta (a tool's `name`, a call's `toolUseId`); null when it has none. */
function metaField(meta: string | null, field: 'name' | 'toolUseId'): string | null {
  if (meta === null) return null;
  try {
    const value = (JSON.parse(meta) as Record<string, unknown>)[field];
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}
