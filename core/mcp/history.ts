import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { appName, countOf, groupBySession, hitSpeaker, indexingNote, hasSearchFilter, parseIsoDate, ProjectKey, RepoId, rootKinds, searchAppOf, SEARCH_KINDS, SEARCH_PROVIDERS, SEARCH_SORTS, SessionId, StewardError, type Params, type Result, type StewardClient } from '../api/index.js';
import { createRedactor } from '../secrets/index.js';
import type { WithClient } from './projects.js';
import { GetSessionOutput, PAGE_CHARS, readSessionPage } from './session-page.js';

/** Outputs are bounded: a page of hits, a page of messages within PAGE_CHARS (see session-page.ts). */
const MAX_HITS = 25;
const MAX_MESSAGES = 50;

/**
 * An agent's dates are UTC: every time these tools hand it (a hit's `at`) is, and it does not know the
 * zone the owner runs in. A date alone is the whole day. The CLI reads a person's in their own zone.
 */
const DATE_ZONE = 'utc';

/** A date that does not exist (2026-02-30) is refused, never rolled over to one nobody typed (parseIsoDate). */
const isoDate = (end: 'from' | 'to') =>
  z
    .string()
    .max(40)
    .superRefine((value, ctx) => {
      const date = parseIsoDate(value, { zone: DATE_ZONE, end });
      if ('error' in date) ctx.addIssue({ code: 'custom', message: date.error });
    });

/** The apps whose conversations are searched, as people call them, from the provider registry. */
const APPS = [...new Set(rootKinds().map((r) => r.kind.label))].join(', ');

/**
 * What `provider` takes, in words: each provider, and each app of one a search narrows to
 * (SEARCH_APPS), so an agent can ask for Claude Desktop's conversations alone. From the registry:
 * "claude (Claude Code and Claude Desktop), claude-desktop (Claude Desktop alone), openclaw, …".
 */
const PROVIDER_CHOICES = SEARCH_PROVIDERS.map((id) => {
  const app = searchAppOf(id);
  if (app !== undefined) return `${id} (${appName(app.provider, app.source)} alone)`;
  const apps = [...new Set(rootKinds().filter((r) => r.provider === id).map((r) => r.kind.label))];
  return apps.length > 1 ? `${id} (${apps.join(' and ')})` : id;
}).join(', ');

export const SearchTranscriptsInput = z.strictObject({
  query: z
    .string()
    .max(500)
    .optional()
    .describe('Words, "exact phrases", prefix*, AND/OR/NOT. Identifiers are found by their pieces: parseConfig by "config", snake_case by "case". Leave it out to list what the filters select, newest first.'),
  project_key: ProjectKey.optional().describe('Only this project (projectKey from list_projects)'),
  repo: RepoId.optional().describe("Only projects whose repository is this one: OWNER/NAME (any forge) or a canonical id such as github.com/OWNER/NAME, as list_projects' repoId names it"),
  provider: z.enum(SEARCH_PROVIDERS).optional().describe(`Only the conversations of one app: ${PROVIDER_CHOICES}`),
  session_id: SessionId.optional().describe('Only this conversation (its subagents included)'),
  role: z.enum(['user', 'assistant']).optional().describe('user with kind text: what the person wrote, with what the harness wrote in their name (see genuine_user_turn)'),
  kind: z.enum(SEARCH_KINDS).optional().describe('text, thinking, tool_use (commands and tool inputs) or tool_result (tool output)'),
  genuine_user_turn: z
    .boolean()
    .optional()
    .describe("true: only the person's own words, never slash-command echoes, hook output, task notifications, compaction summaries or a subagent's prompt (which role user with kind text include)"),
  from: isoDate('from').optional().describe('Lines at or after this ISO date or time (2026-03-10, 2026-03-10T08:00:00Z); UTC unless it has an offset; a date alone from its first moment'),
  to: isoDate('to').optional().describe('Lines at or before this ISO date or time; UTC unless it has an offset; a date alone through its last moment (from and to one date: that whole day)'),
  sort: z.enum(SEARCH_SORTS).optional().describe('relevance (default) or newest'),
  limit: z.number().int().min(1).max(MAX_HITS).optional().describe(`Hits per page, at most ${MAX_HITS} (default 10)`),
  cursor: z.string().max(500).optional().describe('From a previous result, for the next page'),
});

const Hit = z.strictObject({
  sessionId: z.string(),
  partId: z.string(),
  projectKey: z.string().nullable(),
  at: z.string().nullable(),
  role: z.string().nullable(),
  kind: z.string(),
  /** The person's own words; false for user text the agent's app wrote in their name, and for everything else. */
  genuineUserTurn: z.boolean(),
  /** Who it is from, as get_session's `speaker` says it ("User", "Claude Code", "Conversation summary"; the person is "You" only to a person). */
  speaker: z.string(),
  toolName: z.string().nullable(),
  snippet: z.string(),
});

export const SearchTranscriptsOutput = z.strictObject({
  hits: z.array(Hit),
  sessions: z.array(z.strictObject({ sessionId: z.string(), app: z.string(), title: z.string().nullable(), firstRequest: z.string().nullable(), projectName: z.string().nullable(), lastAt: z.string().nullable() })),
  cursor: z.string().optional(),
  note: z.string().optional(),
});

export const GetSessionInput = z.strictObject({
  session_id: SessionId.describe('A sessionId from search_transcripts'),
  part_id: z.string().min(1).max(400).optional().describe('Open the page around this part (a hit’s partId)'),
  cursor: z.string().max(500).optional().describe('cursor (later messages) or before (earlier ones) from a previous result'),
  limit: z.number().int().min(1).max(MAX_MESSAGES).optional().describe(`Messages per page, at most ${MAX_MESSAGES} (default 20)`),
});

const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());

/** The contract's dates are epoch ms from 1970 to its last date: a wider range searches everything in it. */
const LAST_MS = 8_640_000_000_000;
function epochMs(date: string, end: 'from' | 'to'): number {
  const parsed = parseIsoDate(date, { zone: DATE_ZONE, end });
  // isoDate has refused every date that does not parse.
  return 'ms' in parsed ? Math.min(LAST_MS, Math.max(0, parsed.ms)) : 0;
}

/** What a call with neither a query nor a filter is told: there is nothing to search for. */
const NOTHING_TO_SEARCH = 'Give a query, or at least one filter (project_key, repo, provider, session_id, role, kind, genuine_user_turn, from, to) to list its messages newest first.';

function searchParams(input: z.infer<typeof SearchTranscriptsInput>): Params<'Search.Query'> {
  return {
    query: input.query ?? '',
    limit: input.limit ?? 10,
    ...(input.project_key !== undefined ? { projectKey: input.project_key } : {}),
    ...(input.repo !== undefined ? { repo: input.repo } : {}),
    ...(input.provider !== undefined ? { provider: input.provider } : {}),
    ...(input.session_id !== undefined ? { sessionId: input.session_id } : {}),
    ...(input.role !== undefined ? { role: input.role } : {}),
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.genuine_user_turn !== undefined ? { genuineUserTurn: input.genuine_user_turn } : {}),
    ...(input.from !== undefined ? { from: epochMs(input.from, 'from') } : {}),
    ...(input.to !== undefined ? { to: epochMs(input.to, 'to') } : {}),
    ...(input.sort !== undefined ? { sort: input.sort } : {}),
    ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
    redact: true,
  };
}

/** A background walk over the index, said: history still being indexed, or the index being re-tagged. */
function indexingWords(indexing: NonNullable<Result<'Search.Query'>['indexing']>): string {
  if (indexing.phase === 'retag') return indexingNote(indexing);
  return `Earlier history is still being indexed (${indexing.indexedParts} of ${countOf(indexing.totalParts, 'part')}).`;
}

/**
 * The owner redacts before it cuts (`redact: true`); the table here runs again over what arrives, as a
 * second guard: an agent may forward what it reads to a remote model.
 */
export function searchOutput(result: Result<'Search.Query'>, redact: (text: string) => string): z.infer<typeof SearchTranscriptsOutput> {
  const notes = [result.fallback?.message, result.indexing && indexingWords(result.indexing)].filter(Boolean);
  const sessions = new Map(result.sessions.map((s) => [s.sessionId, s]));
  // Who each hit is from by the rule the CLI's lines and the panel's hits follow (reading.ts's hitVoice).
  const speaker = (h: Result<'Search.Query'>['hits'][number]) => {
    const s = sessions.get(h.sessionId);
    return hitSpeaker(h, s?.parentKind === 'subagent', s?.app ?? h.provider, 'agent');
  };
  return {
    hits: result.hits.map((h) => ({ sessionId: h.sessionId, partId: h.partId, projectKey: h.projectKey, at: iso(h.ts), role: h.role, kind: h.kind, genuineUserTurn: h.genuineUserTurn, speaker: speaker(h), toolName: h.toolName, snippet: redact(h.snippet) })),
    sessions: result.sessions.map((s) => ({
      sessionId: s.sessionId,
      app: s.app,
      title: s.title === null ? null : redact(s.title),
      firstRequest: s.firstRequest === null ? null : redact(s.firstRequest),
      projectName: s.projectName,
      lastAt: iso(s.lastAt),
    })),
    ...(result.cursor ? { cursor: result.cursor } : {}),
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

type SearchOut = z.infer<typeof SearchTranscriptsOutput>;

/** Hits by conversation, conversations in the order of their best hit: a ranking interleaves them. */

/** Each conversation named once, above its hits: a title (up to 500 characters) repeated on 25 hit lines was half the answer. */
function searchText(out: SearchOut): string {
  if (out.hits.length === 0) return out.note ? `No matches. ${out.note}` : 'No matches.';
  const sessions = new Map(out.sessions.map((s) => [s.sessionId, s]));
  const lines: string[] = [];
  for (const [sessionId, hits] of groupBySession(out.hits)) {
    const s = sessions.get(sessionId);
    lines.push(`[${sessionId}] ${s?.title ?? s?.firstRequest ?? '(untitled)'} — ${s?.app ?? ''}${s?.projectName ? ` · ${s.projectName}` : ''}`);
    for (const h of hits) lines.push(`  ${h.at ?? ''} ${h.speaker} · ${h.role ?? ''} ${h.kind}${h.toolName ? ` ${h.toolName}` : ''} (part_id ${h.partId}): ${h.snippet}`);
  }
  if (out.note) lines.unshift(out.note);
  if (out.cursor) lines.push(`More results: call again with cursor "${out.cursor}".`);
  return lines.join('\n');
}

/**
 * What an empty search says when a filter names a conversation or project Steward does not hold:
 * "No matches." would tell the agent it was searched. Undefined when each one named is stored.
 */
async function unknownFilter(client: StewardClient, params: Params<'Search.Query'>): Promise<string | undefined> {
  if (params.sessionId !== undefined && !(await isStored(client.call('Sessions.Get', { sessionId: params.sessionId, limit: 1 })))) {
    return `not_found: no stored conversation has the session_id ${JSON.stringify(params.sessionId)} (it may have been pruned or forgotten). Give the whole id, as search_transcripts or get_session returns it.`;
  }
  if (params.projectKey !== undefined && !(await client.call('Projects.List', {})).projects.some((p) => p.projectKey === params.projectKey)) {
    return `not_found: no stored project has the project_key ${params.projectKey} (it may have been forgotten). list_projects names each project's projectKey.`;
  }
  return undefined;
}

/** Whether a read found its record: false for `not_found`; any other error passes as it is. */
async function isStored(read: Promise<unknown>): Promise<boolean> {
  try {
    await read;
    return true;
  } catch (error) {
    if (error instanceof StewardError && error.code === 'not_found') return false;
    throw error;
  }
}

/** `search_transcripts` and `get_session`: the person's captured conversations, for agents. */
export function registerHistoryTools(server: McpServer, withClient: WithClient): void {
  const redactor = createRedactor();
  const redact = (text: string) => redactor.redactSync(text);
  server.registerTool(
    'search_transcripts',
    {
      title: 'Search past agent conversations',
      description:
        `Full-text search over every conversation Steward has captured from coding agents (${APPS}): ranked hits with the session id, a short snippet, role, kind and time. ` +
        `Narrow with project_key, provider (which app wrote it: ${PROVIDER_CHOICES}), session_id, role, kind (tool_use finds commands, tool_result their output) and from/to dates; with filters and no query, it lists what they select, newest first. ` +
        'A session_id or project_key Steward holds nothing under is a tool error, not an empty result. ' +
        'Read a hit in context with get_session (session_id, part_id). Secrets in snippets are redacted; no filesystem path of Steward or of a transcript file is returned.',
      inputSchema: SearchTranscriptsInput,
      outputSchema: SearchTranscriptsOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      const params = searchParams(input);
      if (params.query.trim() === '' && !hasSearchFilter(params)) return { isError: true, content: [{ type: 'text' as const, text: NOTHING_TO_SEARCH }] };
      return withClient(async (client) => {
        const found = await client.call('Search.Query', params);
        // Asked only of an empty answer, as the CLI does: hits show the filters hold something.
        const unknown = found.hits.length === 0 ? await unknownFilter(client, params) : undefined;
        if (unknown !== undefined) return { isError: true, content: [{ type: 'text' as const, text: unknown }] };
        const out = searchOutput(found, redact);
        return { content: [{ type: 'text' as const, text: searchText(out) }], structuredContent: out };
      });
    },
  );
  server.registerTool(
    'get_session',
    {
      title: 'Read a past agent conversation',
      description:
        'The messages of one captured conversation in order, a page at a time: user and assistant turns, thinking, tool calls (with a one-line summary) and their results, each part’s text capped. ' +
        `Every answer is bounded: its text, and its structured content as JSON, are each at most ${PAGE_CHARS.toLocaleString('en')} characters. A page over it holds fewer messages (its cursor continues right after the last one shown); a single message over it shows a run of its parts with their one-line summaries, and says how many parts are left out and the part_id to call again with to read from the first of them. ` +
        'Each message says who it is from in `speaker`. Text the agent’s app wrote (slash-command echoes and output, hook output in the person’s name; a compaction summary, whichever agent wrote it) has `harness` set and `genuineUserTurn` false, its text kept; the person’s own words have `genuineUserTurn` true. ' +
        'A conversation that started subagents (Task calls) lists them on every page: each one’s session_id, agent type and what it was asked; read one with get_session, and a subagent’s page names the conversation it belongs to. ' +
        'Each message names the subagents started there (by one of its calls, or by none right after it; one whose start is unknown, after the last message). ' +
        'Pass part_id (from search_transcripts) to open the page around a hit; use cursor/before from a result to page. Secrets are redacted; no filesystem path is returned.',
      inputSchema: GetSessionInput,
      outputSchema: GetSessionOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (input) =>
      withClient(async (client) => {
        const ask = (limit: number) =>
          client.call('Sessions.Get', {
            sessionId: input.session_id,
            limit,
            ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
            ...(input.part_id !== undefined ? { partId: input.part_id } : {}),
            redact: true,
          });
        const { page, text } = await readSessionPage(ask, input.limit ?? 20, input.part_id, redact);
        return { content: [{ type: 'text' as const, text }], structuredContent: page };
      }),
  );
}
