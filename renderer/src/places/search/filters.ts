import type { Params, SearchKind } from '../../../../core/api/index.js';
import { appName, SEARCH_APPS } from '../../../../core/api/registry.js';
import { providerIds, providerLabel } from '../../components/format.js';
import { searchHref } from '../../navigation.js';
import { backwards, dateMs, isDateText, type End } from './range.js';

/** The filters a search's address carries (`#/search?q=…&who=me&kind=tool_use…`), as chips show them. */
export interface SearchFilters {
  q: string;
  who?: 'me' | 'assistant' | undefined;
  kind?: SearchKind | undefined;
  provider?: string | undefined;
  project?: string | undefined;
  when?: '7d' | '30d' | '365d' | undefined;
  /**
   * A date range as typed (`since:2026-01-01 until:2025-03`): a date, a month, a time or a span (range.ts).
   * Kept as written, not as ms, so the address reads as it was typed and a span counts back from each search.
   * Never beside `when`: a When chip is the range from its span to now (withDate).
   */
  from?: string | undefined;
  to?: string | undefined;
  sort?: 'newest' | undefined;
}

const DAY = 86_400_000;
const WHEN_DAYS = { '7d': 7, '30d': 30, '365d': 365 } as const;
const WHENS = ['7d', '30d', '365d'] as const;
const KINDS: readonly SearchKind[] = ['text', 'thinking', 'tool_use', 'tool_result'];

/**
 * The address's date range: an end it cannot read is no end, and a range that ends before it starts is
 * none (typed, it is refused with words), never a search the server fails.
 */
function rangeFrom(params: Record<string, string>): { from: string | undefined; to: string | undefined } {
  const from = isDateText(params.from, 'from') ? params.from : undefined;
  const to = isDateText(params.to, 'to') ? params.to : undefined;
  return backwards(from, to) === undefined ? { from, to } : { from: undefined, to: undefined };
}

export function filtersFrom(params: Record<string, string>): SearchFilters {
  const pick = <T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined => allowed.find((a) => a === value);
  const range = rangeFrom(params);
  // Never both (SearchFilters.from): an address holding both, by hand, keeps the range, as typing one would.
  const ranged = range.from !== undefined || range.to !== undefined;
  return {
    q: params.q ?? '',
    who: pick(params.who, ['me', 'assistant'] as const),
    kind: pick(params.kind, KINDS),
    provider: params.provider,
    project: params.project,
    when: ranged ? undefined : pick(params.when, WHENS),
    ...range,
    sort: pick(params.sort, ['newest'] as const),
  };
}

/**
 * The Agent chips: every provider, each followed by the apps of it a search narrows to (the contract's
 * SEARCH_APPS, named as people call them: "Claude Desktop"), so the list grows with the contract's.
 */
export function agentChoices(): Array<{ value: string | undefined; label: string }> {
  const apps = Object.entries(SEARCH_APPS);
  return [
    { value: undefined, label: 'All agents' },
    ...providerIds().flatMap((id) => [
      { value: id, label: providerLabel(id) },
      ...apps.filter(([, app]) => app.provider === id).map(([value, app]) => ({ value, label: appName(app.provider, app.source) })),
    ]),
  ];
}

/**
 * The most pages a search loads at once from its address (`pages=…`, on a reload or Back): 10 pages of
 * 20 matches. More matches goes on past it one page at a time; a reload then shows the first ten, and
 * says so (cappedSentence).
 */
export const MAX_PAGES = 10;

/** How many pages of matches the address says are shown (`#/search?q=…&pages=3`): 1 unless it names a whole number above it. */
export function pagesFrom(params: Record<string, string>): number {
  const pages = /^\d+$/.test(params.pages ?? '') ? Number(params.pages) : 1;
  return Math.max(1, pages);
}

/** The search's address with the pages shown: the first page alone is the search's plain address. */
export function pagesHref(filters: SearchFilters, pages: number): string {
  return searchHref({ ...filtersToParams(filters), pages: pages > 1 ? String(pages) : undefined });
}

/** The address form: every key a string, absent filters left out. */
export function filtersToParams(filters: SearchFilters): Record<string, string | undefined> {
  return { q: filters.q, who: filters.who, kind: filters.kind, provider: filters.provider, project: filters.project, when: filters.when, from: filters.from, to: filters.to, sort: filters.sort };
}

/**
 * Whether a chip narrows the search (the order does not): with one, a search needs no words and lists
 * the messages it selects, newest first (the contract's hasSearchFilter, which the panel may not import).
 */
export function hasFilter(filters: SearchFilters): boolean {
  return [filters.who, filters.kind, filters.provider, filters.project, filters.when, filters.from, filters.to].some((value) => value !== undefined);
}

/**
 * The filters once the box holds `text` without Enter: an emptied box is no query at once, or the chips
 * would go on narrowing the words it no longer shows; other typing waits for Enter, so no search runs per
 * keystroke. Undefined when there is nothing to commit.
 */
export function typedInBox(filters: SearchFilters, text: string): SearchFilters | undefined {
  return text.trim() === '' && filters.q !== '' ? { ...filters, q: '' } : undefined;
}

/**
 * Whether going from the search `from` to `to` takes the place of the history entry instead of adding
 * one: emptying the box, or searching from a place that searched nothing. Back then walks only the
 * searches the person made, never each empty box on the way between them.
 */
export function replacesEntry(from: SearchFilters, to: SearchFilters): boolean {
  const emptied = from.q.trim() !== '' && to.q.trim() === '';
  return emptied || !canSearch(from);
}

/** The same words in the same order, with every filter dropped: what an empty search offers when filters were on. */
export function withoutFilters(filters: SearchFilters): SearchFilters {
  return { q: filters.q, ...(filters.sort ? { sort: filters.sort } : {}) };
}

/** Whether there is anything to search: words, or a chip that narrows. */
export function canSearch(filters: SearchFilters): boolean {
  return filters.q.trim() !== '' || hasFilter(filters);
}

/**
 * "What I said" is the person's own words as capture marked them (genuineUserTurn): their role and text
 * hold slash-command echoes, hook output and the prompts an agent writes for its subagents too.
 */
export function queryOf(filters: SearchFilters, now = Date.now()): Params<'Search.Query'> {
  const kind = filters.kind ?? (filters.who === 'me' ? 'text' : undefined);
  return {
    query: filters.q,
    limit: 20,
    ...(filters.who === 'me' ? { role: 'user', genuineUserTurn: true } : filters.who === 'assistant' ? { role: 'assistant' } : {}),
    ...(kind ? { kind } : {}),
    ...(filters.provider ? { provider: filters.provider as Params<'Search.Query'>['provider'] } : {}),
    ...(filters.project ? { projectKey: filters.project } : {}),
    ...(filters.when ? { from: now - WHEN_DAYS[filters.when] * DAY } : {}),
    ...rangeQuery(filters, now),
    ...(filters.sort ? { sort: filters.sort } : {}),
    // Results are read on a shared screen too: snippets and titles come with secrets as [REDACTED], redacted before they are cut.
    redact: true,
  };
}

/** The range's ends as the contract's epoch ms (an end the address could not read was left out by filtersFrom). */
function rangeQuery(filters: SearchFilters, now: number): { from?: number; to?: number } {
  const ms = (text: string | undefined, end: End) => {
    const read = text === undefined ? undefined : dateMs(text, end, now);
    return read && 'ms' in read ? { [end]: read.ms } : {};
  };
  return { ...ms(filters.from, 'from'), ...ms(filters.to, 'to') };
}

/** The kinds each "Said by" choice can find: the person writes only messages; a tool's output is nobody's words. */
const KINDS_SAID_BY: Record<'me' | 'assistant', ReadonlyArray<SearchKind | undefined>> = {
  me: [undefined, 'text'],
  assistant: [undefined, 'text', 'tool_use', 'thinking'],
};

/**
 * The filters after a chip is pressed. A choice that cannot meet the other group's (what I said, in
 * tool output) lets go of the other: the search then shows what was asked for last, never a page that
 * can match nothing.
 */
export function withChip<K extends keyof SearchFilters>(filters: SearchFilters, key: K, value: SearchFilters[K]): SearchFilters {
  // A When chip counts back from now: it takes the range's place ("Any time" removes it).
  const next = key === 'when' ? { ...filters, when: value as SearchFilters['when'], from: undefined, to: undefined } : { ...filters, [key]: value };
  if (next.who === undefined || KINDS_SAID_BY[next.who].includes(next.kind)) return next;
  return key === 'who' ? { ...next, kind: undefined } : { ...next, who: undefined };
}

/**
 * The filters with one end of the date range typed (`since:`, `until:`), the other end kept: a start
 * takes a When chip's place, and an end keeps the chip's span as the start (`since:30d until:2026-01`).
 * A span the When chips have with no end is that chip, so since:7d is Past week as pressing it is.
 */
export function withDate(filters: SearchFilters, end: End, text: string): SearchFilters {
  const range = { from: filters.from ?? filters.when, to: filters.to, [end]: text };
  const when = range.to === undefined ? WHENS.find((span) => span === range.from) : undefined;
  return { ...filters, when, from: when ? undefined : range.from, to: range.to };
}

/** A typed end the Dates… control's date input can show (a whole day); a month, a time or a span shows as empty there. */
export const dayOf = (text: string | undefined): string => (text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : '');

/**
 * The filters with the range the Dates… control's two date inputs give (`YYYY-MM-DD`, empty for an open
 * end), or why not: an end before the start, or before 1970, is refused, as typed it is. Only an end
 * whose input the person changed is replaced: one the input cannot show (a month, a span, a When chip)
 * shows as empty there, and is kept while it stays so.
 */
export function withDates(filters: SearchFilters, from: string, to: string): { filters: SearchFilters } | { problem: string } {
  let next = filters;
  for (const [end, text] of [['from', from], ['to', to]] as const) {
    if (text === dayOf(filters[end])) continue;
    if (text === '') {
      next = { ...next, [end]: undefined };
      continue;
    }
    const read = dateMs(text, end);
    if (!('ms' in read)) return { problem: `${read.error}.` };
    next = withDate(next, end, text);
  }
  const reversed = backwards(next.from, next.to);
  return reversed ? { problem: reversed } : { filters: next };
}
