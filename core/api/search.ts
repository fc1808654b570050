import { z } from 'zod';
import { EpochMs } from './dates.js';
import { ProjectKey, RepoId, SessionId } from './ids.js';
import { PART_ROLES, SEARCH_KINDS, SEARCH_SORTS } from './lists.js';
import { SEARCH_PROVIDERS } from './registry.js';
import { ParentKind } from './sessions.js';

const count = z.number().int().nonnegative();

/** A role a search narrows to (PART_ROLES); `toolResult`, OpenClaw's name for its tool output, is taken as `tool`. */
export const Role = z.enum([...PART_ROLES, 'toolResult']);

/** One matching part. `snippet` is a bounded excerpt; `highlights` are [start, end) offsets into it, in UTF-16 code units (JavaScript string indices). */
export const SearchHit = z.strictObject({
  sessionId: z.string(),
  partId: z.string(),
  projectKey: z.string().nullable(),
  ts: z.number().int().nullable(),
  /** The role a search finds it by: `tool` for every tool output (kind tool_result), whatever role its agent stored it under; else the role as stored. */
  role: z.string().nullable(),
  snippet: z.string(),
  kind: z.string(),
  provider: z.string(),
  /** The person's own words (capture's `genuine_user_turn`): a user-role text without it is the agent's app's. */
  genuineUserTurn: z.boolean(),
  /** A compaction summary (capture's `is_compact_summary`): said to be from "Conversation summary" (hitVoice), whichever role its agent stored it under. */
  isCompactSummary: z.boolean(),
  /** A tool call's tool; a tool output's, the tool of the call it answers where it is found. */
  toolName: z.string().nullable(),
  /**
   * A tool call's one line, as the viewer folds it ("Bash: npm test", "Read: src/app.ts"); a tool
   * output's, the line of the call it answers where it is found; null for other parts.
   */
  summary: z.string().nullable(),
  highlights: z.array(z.tuple([count, count])),
  /**
   * A tool call's matches in its `summary` line, as `highlights` are in the snippet ([start, end) offsets
   * into `summary`, the same terms): the snippet is what the call says besides that line, empty when the
   * line says it all. Absent when the line holds none, and on a tool output's hit (its line is its call's).
   */
  summaryHighlights: z.array(z.tuple([count, count])).min(1).optional(),
  /**
   * How many more matches of this conversation it stands for, not listed (relevance only): the same
   * role, kind and text (a tool call: the same tool and input), ranked after it. Text a secret was
   * redacted from never folds. Absent when none: a page's hits are what it lists, these are beside them.
   */
  alike: count.min(1).optional(),
});
export type SearchHit = z.infer<typeof SearchHit>;

/** The sessions the hits belong to, once each, so a result can be grouped and labelled. */
export const SearchSession = z.strictObject({
  sessionId: z.string(),
  parentSessionId: z.string().nullable(),
  parentKind: ParentKind,
  projectKey: z.string().nullable(),
  projectName: z.string().nullable(),
  provider: z.string(),
  /** The app that wrote it, as people call it (see appName). */
  app: z.string(),
  title: z.string().nullable(),
  /** The first thing asked, when the conversation has no title. */
  firstRequest: z.string().nullable(),
  lastAt: z.number().int().nullable(),
});
export type SearchSession = z.infer<typeof SearchSession>;

/**
 * Whether a search names a filter: with one, a search may have no words (its parts, newest first). An
 * only-the-person's-own-words flag of false narrows nothing.
 */
export function hasSearchFilter(p: { provider?: unknown; projectKey?: unknown; sessionId?: unknown; role?: unknown; kind?: unknown; genuineUserTurn?: boolean | undefined; from?: unknown; to?: unknown; repo?: unknown }): boolean {
  return [p.provider, p.projectKey, p.sessionId, p.role, p.kind, p.from, p.to, p.repo].some((v) => v !== undefined) || p.genuineUserTurn === true;
}

// SEARCH_APPS lives in registry.ts, which the panel loads at run time: its filter chips derive from it.
export { SEARCH_APPS, SEARCH_PROVIDERS, searchAppOf, type SearchApp } from './registry.js';

/** What a search with neither words nor a filter is told. */
/**
 * The details of Search.Query's refusal of a query with no word to find (and no filter): the person's
 * input to change, not a failure to retry. Other `invalid_params` (a stale cursor, a bad filter) carry none.
 */
export interface NothingToFind {
  method: 'Search.Query';
  reason: 'nothing_to_find';
}

export const NOTHING_TO_SEARCH = 'the query is empty: give words to search for, or at least one filter';

export const SearchQueryParams = z
  .strictObject({
    /**
     * Words, "phrases", prefix*, AND/OR/NOT; anything else is searched as written. Empty (or blank) with
     * a filter: every part the filters select, newest first (there is nothing to rank by).
     */
    query: z.string().max(1_000),
    /** A provider (`claude`: Claude Code and Claude Desktop), or an app of one: `claude-desktop` (SEARCH_APPS). */
    provider: z.enum(SEARCH_PROVIDERS).optional(),
    projectKey: ProjectKey.optional(),
    /** A conversation; its subagents' parts are included. */
    sessionId: SessionId.optional(),
    role: Role.optional(),
    kind: z.enum(SEARCH_KINDS).optional(),
    /**
     * true: only the person's own words, the parts capture marked `genuineUserTurn` when it parsed them —
     * never a slash-command echo, a caveat, hook output, a task notification, a skill expansion, a
     * compaction summary or a subagent's prompt (the parent agent wrote it). Such parts are user text too,
     * so `role: user, kind: text` alone finds them.
     */
    genuineUserTurn: z.boolean().optional(),
    /** Line timestamps, epoch ms, inclusive. */
    from: EpochMs.optional(),
    to: EpochMs.optional(),
    /** Only projects whose repository is this one: OWNER/NAME or a canonical id such as github.com/OWNER/NAME. */
    repo: RepoId.optional(),
    /**
     * `relevance` (the default) or `newest`: newest by line time to the second (the index orders by it);
     * of lines of the same second, the one stored last comes first. A search with no words is always newest.
     */
    sort: z.enum(SEARCH_SORTS).optional(),
    limit: z.number().int().min(1).max(100).optional(),
    /** From the previous page's result; the query and filters must be the same. */
    cursor: z.string().max(500).optional(),
    /**
     * true: snippets, titles and first requests redacted with the secrets module before they are cut,
     * so a cut never hides what makes a secret recognisable (the MCP tools ask for this).
     */
    redact: z.boolean().optional(),
  })
  .refine((p) => p.from === undefined || p.to === undefined || p.from <= p.to, { message: 'from must not be after to' })
  .refine((p) => p.query.trim() !== '' || hasSearchFilter(p), { message: NOTHING_TO_SEARCH, path: ['query'] });

/** Which background walk over the index a progress figure is for: indexing parts, or re-tagging them. */
const INDEX_PHASE = z.enum(['index', 'retag']);

export const SearchQueryResult = z.strictObject({
  hits: z.array(SearchHit),
  /** Present when there may be more: pass it back for the next page. */
  cursor: z.string().optional(),
  sessions: z.array(SearchSession),
  /**
   * The query could not be searched as written, or a word of it not as typed; `message` says so in words to show. `phrase`: it was
   * not valid search syntax, so it was searched as one exact phrase (code typed as written, `upload()`, is
   * said to be searched as its exact text, never invalid), or without an operator that had
   * nothing on a side and a lone `*` (`kitchen AND` as `kitchen`); one with only those has no words to
   * search for (no hits; with a filter, the filter's parts newest first, as `newest`). `too_broad`: a prefix* stands for
   * more words than a search can merge in its time, so nothing was searched (no hits, no cursor): the
   * message names the prefix and asks for a letter or two more. `newest`: it had no words, so relevance
   * had nothing to rank by and the filters' parts are newest first (said unless `sort` was `newest`).
   * `any_words`: plain words (no phrase or operator) that no part holds all of, searched again with any of
   * them, less the common words of a question (`why did we pick WAL` as `pick OR WAL`); its cursor goes on
   * with that search. Not when the any-word search finds nothing either. `symbols`: the words were
   * searched as typed, but a word held symbols the index does not (`C++` as `c`), and the message says
   * what each was searched as, or a word was written as a column the index has not (`text:backoff`, a kind's or
   * a role's name) and was searched as written; after any other note, its words are added to that note's message instead.
   */
  fallback: z.strictObject({ mode: z.enum(['phrase', 'too_broad', 'newest', 'any_words', 'symbols']), message: z.string() }).optional(),
  /**
   * Relevance ranked only the newest this-many matches (there were more; for `genuineUserTurn`, or a
   * conversation with more than 100 subagents of their own ids, there may be more past the matches a
   * page looks at, and such a page may come back short with a cursor): narrow the query or sort by newest.
   */
  rankedAmong: count.optional(),
  /**
   * A background walk over the index has not finished: `index`, history captured before the index (or
   * by a large run) is still being indexed, and some of it is not searchable yet; `retag`, indexed parts
   * are being checked and indexed again (an upgrade's new way of reading text, conversations that moved
   * project), and those not reached yet may miss matches. Counts are parts walked of the walk's span.
   * Owners before the re-tag walk reported progress send no phase: theirs is `index`.
   */
  indexing: z.strictObject({ phase: INDEX_PHASE.optional(), indexedParts: count, totalParts: count }).optional(),
});
export type SearchQueryResult = z.infer<typeof SearchQueryResult>;

/**
 * How far the index's background walks have come (`indexing` as a search result gives it; null when
 * everything stored is searchable), and whether a walk is under way in the process that answers: an
 * owner's runs in the background; a CLI that opened the stores itself runs one after it imports.
 */
export const SearchIndexingResult = z.strictObject({
  indexing: z.strictObject({ phase: INDEX_PHASE, indexedParts: count, totalParts: count }).nullable(),
  walking: z.boolean(),
});
export type SearchIndexingResult = z.infer<typeof SearchIndexingResult>;

/** Full-text search over every captured conversation (history). */
export const searchMethods = {
  'Search.Query': {
    params: SearchQueryParams,
    result: SearchQueryResult,
  },
  'Search.Indexing': {
    params: z.strictObject({}),
    result: SearchIndexingResult,
  },
} as const;

export const searchEvents = {
  /** Progress of the index's background walks (see SearchQueryResult's `indexing`), at most about twice a second. */
  'search.indexing': z.strictObject({ phase: INDEX_PHASE.optional(), indexedParts: count, totalParts: count, complete: z.boolean() }),
} as const;
