import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { methods, type ParsedParams } from '../api/index.js';
import { fingerprint } from './cursor.js';

type Params = ParsedParams<'Search.Query'>;
type ListParams = ParsedParams<'Sessions.List'>;
type Sort = 'relevance' | 'newest';

/**
 * A request a cursor pages, as its mark holds it: what a refusal calls it, its parts (each digested into
 * `g`, in this order) and its filters among them, each with the word a refusal names it by: a filter's
 * plain name, which reads as the CLI's flag (--kind) and the MCP tool's argument (kind, session_id) alike.
 */
interface Paged {
  noun: 'search' | 'listing';
  parts: readonly string[];
  filters: ReadonlyArray<readonly [string, string]>;
}

/** A search's parts besides its dates and order. */
const FILTERS = [
  ['projectKey', 'project'],
  ['repo', 'repository'],
  ['provider', 'provider'],
  ['sessionId', 'session'],
  ['role', 'role'],
  ['kind', 'kind'],
  ['genuineUserTurn', 'genuine user turn'],
] as const satisfies ReadonlyArray<readonly [keyof Params, string]>;
const PARTS = ['query', ...FILTERS.map(([key]) => key), 'redact'] as const satisfies ReadonlyArray<keyof Params>;
const SEARCH: Paged = { noun: 'search', parts: PARTS, filters: FILTERS };

/**
 * A listing of conversations (Sessions.List), besides its dates: its one order is the latest active first,
 * and its rows are the same redacted or not, so a cursor serves either way.
 */
const LIST_FILTERS = [
  ['projectKey', 'project'],
  ['provider', 'provider'],
] as const satisfies ReadonlyArray<readonly [keyof ListParams, string]>;
const LISTING: Paged = { noun: 'listing', parts: LIST_FILTERS.map(([key]) => key), filters: LIST_FILTERS };

/** Characters of a part's digest: 12 bits, enough to say which part differs (`f` alone decides whether one does). */
const DIGEST = 2;

/**
 * The last digest of `g`: of no part, so the same for every request under one key. A mark made under
 * another home's key (or a `g` edited) has another, and its parts' digests would all differ from this
 * request's though the request is the same: such a mark is refused in the short words, naming nothing.
 */
const HOME_PART = '';

/** A cursor's dates are what its request gave (Search.Query's and Sessions.List's `from`, the same): one edited past them is refused, never thrown at by toISOString. */
const MarkDate = methods['Search.Query'].params.shape.from;

/**
 * What a cursor holds of the search or listing it pages: `f` the fingerprint of all of it (what decides),
 * `g` a short digest of each part (Paged's, in order, then HOME_PART's) and `fr`/`to` its dates (epoch ms), so that a cursor
 * given back with another request is refused in words that say what differs, never holding what was
 * asked for: `f` and `g` are keyed with the home's searchCursorKey (`v`: 2), so a guess of a query or a
 * filter cannot be checked against them. A search cursor given out before `g` has only `f`, and its
 * refusal the short words; so has one given out before the key (no `v`), whose unkeyed digests would
 * name parts that do not differ; so has one whose `g` is not this home's (HOME_PART), or not whole.
 */
export const SearchMark = {
  f: z.string(),
  g: z.string().regex(/^[A-Za-z0-9_-]*$/).max((PARTS.length + 1) * DIGEST).optional(),
  fr: MarkDate,
  to: MarkDate,
  v: z.literal(2).optional(),
};
export type SearchMark = { f: string; g?: string | undefined; fr?: number | undefined; to?: number | undefined; v?: 2 | undefined };

/** The mark of a search as it runs, under `key`: a sort left out is the one it runs in, so saying the default is the same search. */
export function searchMark(params: Params, sort: Sort, key: Buffer): SearchMark {
  // Redaction left out is redaction off, as the search reads it.
  return markOf(SEARCH, { ...params, sort, redact: params.redact === true }, key);
}

/** The mark of a listing of conversations, under the same key: its filters and dates, never its redaction (see LISTING). */
export function listingMark(params: ListParams, key: Buffer): SearchMark {
  const { redact: _sameRows, ...listing } = params;
  return markOf(LISTING, listing, key);
}

/** `request` marked as `paged` says (fingerprint leaves out its cursor and limit). */
function markOf(paged: Paged, request: Record<string, unknown> & { from?: number | undefined; to?: number | undefined }, key: Buffer): SearchMark {
  return {
    f: fingerprint(request, key),
    g: [...paged.parts.map((part) => digest(part, request[part], key)), digest(HOME_PART, null, key)].join(''),
    ...(request.from !== undefined ? { fr: request.from } : {}),
    ...(request.to !== undefined ? { to: request.to } : {}),
    v: 2,
  };
}

function digest(part: string, value: unknown, key: Buffer): string {
  return createHmac('sha256', key)
    .update(`${part}\0${JSON.stringify(value ?? null)}`)
    .digest('base64url')
    .slice(0, DIGEST);
}

const shortWords = (paged: Paged) => `The cursor belongs to another ${paged.noun}; start again without it`;

/**
 * Why a cursor (its mark and order) does not page this search (`mark`, searchMark's), or undefined
 * when it does: what differs, by name, with the dates and the order the cursor holds. Only the parts the caller gave are named,
 * never their text; a difference the cursor cannot tell (one given out before `g`) keeps the short words.
 */
export function cursorMismatch(held: SearchMark & { s: Sort }, mark: SearchMark, params: Params, sort: Sort): string | undefined {
  if (held.f === mark.f && held.s === sort) return undefined;
  return mismatchWords(SEARCH, held, mark, params, (differs) => ({
    first: differs('query') ? ['the query differs'] : [],
    last: [
      held.s === sort ? '' : `this cursor pages ${orderWords(held.s)}, and this search asks ${orderWords(sort)}`,
      differs('redact') ? `this cursor pages a search ${params.redact === true ? 'that shows secrets' : 'with secrets redacted'}, and this search ${params.redact === true ? 'redacts them' : 'shows them'}` : '',
    ],
  }));
}

/** Why a cursor does not page this listing (`mark`, listingMark's), or undefined when it does: in a search's words (cursorMismatch). */
export function listingMismatch(held: SearchMark, mark: SearchMark, params: ListParams): string | undefined {
  return held.f === mark.f ? undefined : mismatchWords(LISTING, held, mark, params);
}

/**
 * What differs between the request a cursor pages (`held`) and this one (`mark`, `asked`): the filters by
 * name and the dates, with what only `paged`'s kind of request has (a search's query, order and
 * redaction) around them. The short words where the cursor cannot tell (no key, another key, no `g`
 * or not a whole one): it names nothing that may not differ.
 */
function mismatchWords(
  paged: Paged,
  held: SearchMark,
  mark: SearchMark,
  asked: { from?: number | undefined; to?: number | undefined },
  own: (differs: (part: string) => boolean) => { first: string[]; last: string[] } = () => ({ first: [], last: [] }),
): string {
  // Only a whole `g` ending in this home's HOME_PART digest says which part differs (a false one passes 1 in 4096).
  if (held.v !== mark.v || held.g?.length !== mark.g!.length || !held.g.endsWith(mark.g!.slice(-DIGEST))) return shortWords(paged);
  const digestOf = (g: string, part: string) => g.slice(paged.parts.indexOf(part) * DIGEST, (paged.parts.indexOf(part) + 1) * DIGEST);
  const differs = (part: string) => digestOf(held.g!, part) !== digestOf(mark.g!, part);
  const filters = paged.filters.filter(([key]) => differs(key)).map(([, name]) => name);
  const { first, last } = own(differs);
  const clauses = [
    ...first,
    filters.length > 0 ? `the ${listed(filters)} ${filters.length === 1 ? 'filter differs' : 'filters differ'}` : '',
    dateClause(paged, 'from', held.fr, asked.from),
    dateClause(paged, 'to', held.to, asked.to),
    ...last,
  ].filter((c) => c !== '');
  if (clauses.length === 0) return shortWords(paged);
  return `The cursor belongs to another ${paged.noun}: ${clauses.join('; ')}. Give that ${paged.noun} with the cursor, or start again without it`;
}

function dateClause(paged: Paged, end: 'from' | 'to', held: number | undefined, asked: number | undefined): string {
  if (held === asked) return '';
  const at = (ms: number) => `${end} ${new Date(ms).toISOString()}`;
  return `this cursor pages a ${paged.noun} ${held === undefined ? `with no ${end}` : at(held)}, and this ${paged.noun} ${asked === undefined ? `has no ${end}` : `asks ${at(asked)}`}`;
}

const orderWords = (sort: Sort) => (sort === 'newest' ? 'newest first' : 'by relevance');

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
