import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { ParsedParams } from '../api/index.js';
import { fingerprint } from './cursor.js';

type Params = ParsedParams<'Search.Query'>;
type Sort = 'relevance' | 'newest';

/**
 * The parts of a search a cursor belongs to, besides its dates and order, each with the word a refusal
 * names it by: a filter's plain name, which reads as the CLI's flag (--kind) and the MCP tool's argument
 * (kind, session_id) alike.
 */
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
type Part = (typeof PARTS)[number];
/** Characters of a part's digest: 12 bits, enough to say which part differs (`f` alone decides whether one does). */
const DIGEST = 2;

/**
 * What a search cursor holds of the search it pages: `f` the fingerprint of all of it (what decides), `g`
 * a short digest of each part (PARTS, in order) and `fr`/`to` its dates (epoch ms), so that a cursor given
 * back with another search is refused in words that say what differs, never holding what was searched
 * for: `f` and `g` are keyed with the home's searchCursorKey (`v`: 2), so a guess of the query cannot be
 * checked against them. A cursor given out before `g` has only `f`, and its refusal the short words; so
 * has one given out before the key (no `v`), whose unkeyed digests would name parts that do not differ.
 */
export const SearchMark = {
  f: z.string(),
  g: z.string().regex(/^[A-Za-z0-9_-]*$/).max(PARTS.length * DIGEST).optional(),
  fr: z.number().int().nonnegative().optional(),
  to: z.number().int().nonnegative().optional(),
  v: z.literal(2).optional(),
};
export type SearchMark = { f: string; g?: string | undefined; fr?: number | undefined; to?: number | undefined; v?: 2 | undefined };

/** The mark of a search as it runs, under `key`: a sort left out is the one it runs in, so saying the default is the same search. */
export function searchMark(params: Params, sort: Sort, key: Buffer): SearchMark {
  // Redaction left out is redaction off, as the search reads it.
  const search = { ...params, sort, redact: params.redact === true };
  return {
    f: fingerprint(search, key),
    g: PARTS.map((part) => digest(part, search[part], key)).join(''),
    ...(params.from !== undefined ? { fr: params.from } : {}),
    ...(params.to !== undefined ? { to: params.to } : {}),
    v: 2,
  };
}

function digest(part: Part, value: unknown, key: Buffer): string {
  return createHmac('sha256', key)
    .update(`${part}\0${JSON.stringify(value ?? null)}`)
    .digest('base64url')
    .slice(0, DIGEST);
}

const SHORT = 'The cursor belongs to another search; start again without it';

/**
 * Why a cursor (its mark and order) does not page this search (`mark`, searchMark's), or undefined
 * when it does: what differs, by name, with the dates and the order the cursor holds. Only the parts the caller gave are named,
 * never their text; a difference the cursor cannot tell (one given out before `g`) keeps the short words.
 */
export function cursorMismatch(held: SearchMark & { s: Sort }, mark: SearchMark, params: Params, sort: Sort): string | undefined {
  if (held.f === mark.f && held.s === sort) return undefined;
  if (held.v !== mark.v) return SHORT;
  const digestOf = (g: string, part: Part) => g.slice(PARTS.indexOf(part) * DIGEST, (PARTS.indexOf(part) + 1) * DIGEST);
  const differs = (part: Part) => held.g !== undefined && digestOf(held.g, part) !== digestOf(mark.g!, part);
  const filters = FILTERS.filter(([key]) => differs(key)).map(([, name]) => name);
  const clauses = [
    differs('query') ? 'the query differs' : '',
    filters.length > 0 ? `the ${listed(filters)} ${filters.length === 1 ? 'filter differs' : 'filters differ'}` : '',
    held.g === undefined ? '' : dateClause('from', held.fr, params.from),
    held.g === undefined ? '' : dateClause('to', held.to, params.to),
    held.s === sort ? '' : `this cursor pages ${orderWords(held.s)}, and this search asks ${orderWords(sort)}`,
    differs('redact') ? `this cursor pages a search ${params.redact === true ? 'that shows secrets' : 'with secrets redacted'}, and this search ${params.redact === true ? 'redacts them' : 'shows them'}` : '',
  ].filter((c) => c !== '');
  if (clauses.length === 0) return SHORT;
  return `The cursor belongs to another search: ${clauses.join('; ')}. Give that search with the cursor, or start again without it`;
}

function dateClause(end: 'from' | 'to', held: number | undefined, asked: number | undefined): string {
  if (held === asked) return '';
  const at = (ms: number) => `${end} ${new Date(ms).toISOString()}`;
  return `this cursor pages a search ${held === undefined ? `with no ${end}` : at(held)}, and this search ${asked === undefined ? `has no ${end}` : `asks ${at(asked)}`}`;
}

const orderWords = (sort: Sort) => (sort === 'newest' ? 'newest first' : 'by relevance');

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
