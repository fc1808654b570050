import type { Params, SearchKind } from '../../../../core/api/index.js';
import { appName, SEARCH_APPS } from '../../../../core/api/registry.js';
import { providerIds, providerLabel } from '../../components/format.js';
import { searchHref } from '../../navigation.js';

/** The filters a search's address carries (`#/search?q=…&who=me&kind=tool_use…`), as chips show them. */
export interface SearchFilters {
  q: string;
  who?: 'me' | 'assistant' | undefined;
  kind?: SearchKind | undefined;
  provider?: string | undefined;
  project?: string | undefined;
  when?: '7d' | '30d' | '365d' | undefined;
  sort?: 'newest' | undefined;
}

const DAY = 86_400_000;
const WHEN_DAYS = { '7d': 7, '30d': 30, '365d': 365 } as const;
const KINDS: readonly SearchKind[] = ['text', 'thinking', 'tool_use', 'tool_result'];

export function filtersFrom(params: Record<string, string>): SearchFilters {
  const pick = <T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined => allowed.find((a) => a === value);
  return {
    q: params.q ?? '',
    who: pick(params.who, ['me', 'assistant'] as const),
    kind: pick(params.kind, KINDS),
    provider: params.provider,
    project: params.project,
    when: pick(params.when, ['7d', '30d', '365d'] as const),
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
  return { q: filters.q, who: filters.who, kind: filters.kind, provider: filters.provider, project: filters.project, when: filters.when, sort: filters.sort };
}

/**
 * Whether a chip narrows the search (the order does not): with one, a search needs no words and lists
 * the messages it selects, newest first (the contract's hasSearchFilter, which the panel may not import).
 */
export function hasFilter(filters: SearchFilters): boolean {
  return [filters.who, filters.kind, filters.provider, filters.project, filters.when].some((value) => value !== undefined);
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
    ...(filters.sort ? { sort: filters.sort } : {}),
    // Results are read on a shared screen too: snippets and titles come with secrets as [REDACTED], redacted before they are cut.
    redact: true,
  };
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
  const next = { ...filters, [key]: value };
  if (next.who === undefined || KINDS_SAID_BY[next.who].includes(next.kind)) return next;
  return key === 'who' ? { ...next, kind: undefined } : { ...next, who: undefined };
}
