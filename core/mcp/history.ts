import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { appName, countOf, LAST_MS, numberOf, localDay, missingOf, groupBySession, hitLineFrom, hitSpeaker, moreLikeIt, indexingNote, nobodyImportsNote, nobodyRunsNote, hasSearchFilter, PART_ROLES, parseDateText, ProjectKey, RepoId, repoMatches, rootKinds, searchAppOf, SEARCH_KINDS, SEARCH_PROVIDERS, SEARCH_SORTS, SessionId, StewardError, type Params, type Result, type StewardClient } from '../api/index.js';
import { createRedactor } from '../secrets/index.js';
import { checkedAnswer } from './answers.js';
import type { WithClient } from './projects.js';
import { perConversation, spreadPage, type Unlisted } from './search-spread.js';
import { checkedAlone, type Alone } from './stale.js';
import { GetSessionOutput, PAGE_CHARS, READ_CHARS, readPartFrom, readSessionPage, readSubagents, SUBAGENTS_CURSOR } from './session-page.js';
import { defineTool, READ_ONLY } from './tools.js';

/** Outputs are bounded: a page of hits, a page of messages within PAGE_CHARS (see session-page.ts). */
const MAX_HITS = 25;
const MAX_MESSAGES = 50;

/**
 * An agent's dates are UTC: every time these tools hand it (a hit's `at`) is, and it does not know the
 * zone the owner runs in. A date alone is the whole day. The CLI reads a person's in their own zone.
 */
const DATE_ZONE = 'utc';

/**
 * A date, a time or a span back from now, as the CLI's `--from` takes them (parseDateText). A date that
 * does not exist (2026-02-30) is refused, never rolled over to one nobody typed.
 */
const searchDate = (end: 'from' | 'to') =>
  z
    .string()
    .max(40)
    .superRefine((value, ctx) => {
      const date = parseDateText(value, { zone: DATE_ZONE, end });
      // Named in the words: "expected … a span back from now" holds "from", which would pass for naming it (issueWords).
      if ('error' in date) ctx.addIssue({ code: 'custom', message: `${end}: ${date.error}` });
    });

/** The apps whose conversations are searched, as people call them, from the provider registry. */
const APPS = [...new Set(rootKinds().map((r) => r.kind.label))].join(', ');

/**
 * What `provider` takes, in words, beyond what its enum says: each provider of more than one app, and
 * each app of one a search narrows to (SEARCH_APPS), so an agent can ask for Claude Desktop's
 * conversations alone. From the registry: "claude: Claude Code and Claude Desktop; claude-desktop:
 * Claude Desktop alone". A provider of one app (codex) is its name alone.
 */
const PROVIDER_CHOICES = SEARCH_PROVIDERS.flatMap((id) => {
  const app = searchAppOf(id);
  if (app !== undefined) return [`${id}: ${appName(app.provider, app.source)} alone`];
  const apps = [...new Set(rootKinds().filter((r) => r.provider === id).map((r) => r.kind.label))];
  return apps.length > 1 ? [`${id}: ${apps.join(' and ')}`] : [];
}).join('; ');

export const SearchTranscriptsInput = z.strictObject({
  query: z
    .string()
    .max(500)
    .optional()
    .describe('Words, "phrases", prefix*, AND/OR/NOT; identifiers match by piece (parseConfig by config)'),
  project_key: ProjectKey.optional().describe('From list_projects'),
  repo: RepoId.optional().describe('Projects of OWNER/NAME'),
  provider: z.enum(SEARCH_PROVIDERS).optional().describe(PROVIDER_CHOICES),
  session_id: SessionId.optional().describe('One conversation, its subagents included'),
  role: z
    .enum(PART_ROLES)
    .optional()
    .describe("Alike in every app; user holds text the person's app wrote for them"),
  kind: z
    .enum(SEARCH_KINDS)
    .optional()
    .describe('text holds agent_message, notice, error, context, compaction…; tool_use: commands, tool inputs'),
  // Only true: the index has no filter for the text an app wrote in the person's name alone (role user, kind text holds both).
  genuine_user_turn: z
    .literal(true, { error: 'genuine_user_turn takes only true (only the person\'s own words); leave it out to search everything' })
    .optional()
    .describe("Only the person's own words, not their app's (command echoes, hook output, summaries)"),
  from: searchDate('from').optional().describe('At or after: 2026-03-10, 2026-03-10T08:00Z (UTC unless offset) or a span back (12h, 7d)'),
  to: searchDate('to').optional().describe('At or before, as from; a date alone includes its day'),
  sort: z.enum(SEARCH_SORTS).optional().meta({ default: 'relevance' }),
  limit: z.number().int().min(1).max(MAX_HITS).optional().meta({ default: 10 }),
  // Room for the pins a cursor carries (see pinnedCursor) beside the owner's own, at most 500.
  cursor: z.string().max(600).optional().describe('From the page before; same arguments'),
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
  /** The tool of a call, or of the call a tool output answers. */
  toolName: z.string().nullable(),
  /** A tool call's one line ("Bash: npm run build"), or a tool output's: the call it answers. */
  summary: z.string().optional(),
  snippet: z.string(),
  /** How many more matches of its conversation it stands for, not listed: the same text (a tool call: the same tool and input). */
  alike: z.number().int().positive().optional(),
});

export const SearchTranscriptsOutput = z.strictObject({
  hits: z.array(Hit),
  sessions: z.array(z.strictObject({ sessionId: z.string(), app: z.string(), title: z.string().nullable(), firstRequest: z.string().nullable(), projectName: z.string().nullable(), lastAt: z.string().nullable() })),
  cursor: z.string().optional(),
  /**
   * Conversations with more matches in the stretch of the ranking this page covers than it lists (see
   * spreadPage): how many, by conversation. The same arguments with its session_id and no cursor list them.
   */
  unlisted: z.array(z.strictObject({ sessionId: z.string(), matches: z.number().int().positive() })).optional(),
  /** Where from or to was a span (7d): the instant it meant, to pass with the cursor for the next page. */
  pinned: z.strictObject({ from: z.string().optional(), to: z.string().optional() }).optional(),
  note: z.string().optional(),
});

export const GetSessionInput = z.strictObject({
  session_id: SessionId.describe('From search_transcripts'),
  part_id: z.string().min(1).max(400).optional().describe("A hit's partId: opens the page holding it"),
  cursor: z.string().max(500).optional().describe("A page's cursor (later), before (earlier) or subagentsCursor"),
  at: z.literal('end').optional().describe('"end": the last messages; page back with before'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_MESSAGES)
    .optional()
    .meta({ default: 20, description: 'Entries per page: a message or tool result each' }),
  from_char: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`With part_id: that part alone, from this character (${READ_CHARS.toLocaleString('en')} at most)`),
});

const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());

/** A span (`7d`) pinned to the instant it meant on a search's first page. */
interface Pin {
  span: string;
  ms: number;
}
type Pins = { from?: Pin; to?: Pin };

/**
 * `from` and `to` as epoch ms, read against one now, and the span each was given as pinned to the
 * instant it meant (ISO, UTC): a cursor belongs to the exact search that gave it out, and `7d` names a
 * later instant on the next call. A span the cursor's search was pinned with (`pins`, the same words)
 * means that instant again, so an agent repeating its arguments with the cursor gets the next page; a
 * date or another span is read as given, and the owner refuses the cursor if it is not the same.
 */
function searchDates(input: { from?: string | undefined; to?: string | undefined }, pins: Pins = {}, now = Date.now()): { range: { from?: number; to?: number }; pinned: { from?: string; to?: string }; pins: Pins } {
  const dates: ReturnType<typeof searchDates> = { range: {}, pinned: {}, pins: {} };
  for (const end of ['from', 'to'] as const) {
    const value = input[end]?.trim();
    if (value === undefined) continue;
    const parsed = parseDateText(value, { zone: DATE_ZONE, end }, now);
    // searchDate has refused every date that does not parse.
    const read = 'ms' in parsed ? Math.min(LAST_MS, Math.max(0, parsed.ms)) : 0;
    const span = 'span' in parsed && parsed.span;
    const ms = span && pins[end]?.span === value ? pins[end].ms : read;
    dates.range[end] = ms;
    if (span) [dates.pinned[end], dates.pins[end]] = [new Date(ms).toISOString(), { span: value, ms }];
  }
  return dates;
}

/**
 * The cursor given out for a page whose search had spans: the owner's cursor, then each span and its
 * instant (`~f100d@1756267788594`), so the next call may repeat `100d`. The owner's cursors are
 * base64url, which holds no `~` or `@`.
 */
function pinnedCursor(cursor: string, pins: Pins): string {
  return cursor + (['from', 'to'] as const).map((end) => (pins[end] ? `~${end[0]}${pins[end].span}@${pins[end].ms}` : '')).join('');
}

const PIN = /^([ft])(\d{1,6}[mhdw])@(\d{1,16})$/;

/** A cursor from pinnedCursor as the owner's cursor and the pins it carries; one with pins it could not have given out is refused. */
function unpinnedCursor(cursor: string | undefined): { cursor?: string; pins: Pins } {
  if (cursor === undefined) return { pins: {} };
  const [own, ...marks] = cursor.split('~');
  const pins: Pins = {};
  for (const mark of marks) {
    const pin = PIN.exec(mark);
    const ms = Number(pin?.[3]);
    // An instant no Date holds (past 8.64e15 ms) was never given out: refused, not thrown by toISOString.
    if (!pin || !Number.isFinite(new Date(ms).getTime())) throw new StewardError('invalid_params', 'The cursor is not one this request gave out; start again without it');
    pins[pin[1] === 'f' ? 'from' : 'to'] = { span: pin[2]!, ms };
  }
  return { cursor: own!, pins };
}

/** What a call with from_char and no part_id is told: it reads on in one part. */
const FROM_CHAR_ALONE = 'from_char reads on in one part: give the part_id its words named too.';

/**
 * What a call with `at` and a cursor or a part_id is told: each names where the page opens (the
 * contract refuses them too, in words that do not name the tool's inputs).
 */
function refuseWithAt(input: { at?: 'end' | undefined; cursor?: string | undefined; part_id?: string | undefined }): void {
  if (input.at === undefined) return;
  if (input.cursor !== undefined) throw new StewardError('invalid_params', 'at "end" and cursor cannot be combined: at "end" opens the last page; its before is the cursor for the page before it.');
  if (input.part_id !== undefined) throw new StewardError('invalid_params', 'at "end" and part_id cannot be combined: part_id opens the page around that part, at "end" the last page.');
}

/** What a call with neither a query nor a filter is told: there is nothing to search for. */
const NOTHING_TO_SEARCH = 'Give a query, or at least one filter (project_key, repo, provider, session_id, role, kind, genuine_user_turn, from, to) to list its messages newest first.';

/**
 * A from after the to is refused in the CLI's words (--from 30d is after --to 60d), with the instants
 * each meant: a span back from now reaches further the longer it is, which `from: 30d, to: 60d` misses.
 * The contract refuses it too, in words that do not name what the agent gave.
 */
function refuseEmptyRange(input: { from?: string | undefined; to?: string | undefined }, range: { from?: number; to?: number }): void {
  if (range.from === undefined || range.to === undefined || range.from <= range.to) return;
  const said = (end: 'from' | 'to') => `${end} ${JSON.stringify(input[end])} (${new Date(range[end]!).toISOString()})`;
  throw new StewardError('invalid_params', `${said('from')} is after ${said('to')}: nothing can match; give a from no later than the to`);
}

function searchParams(input: z.infer<typeof SearchTranscriptsInput>, range: { from?: number; to?: number }, cursor: string | undefined): Params<'Search.Query'> {
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
    ...range,
    ...(input.sort !== undefined ? { sort: input.sort } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
    redact: true,
  };
}

type Indexing = NonNullable<Result<'Search.Query'>['indexing']>;

/**
 * A background walk over the index, said: history still being indexed, or the index being re-tagged;
 * `idle`: nothing walks it, no Steward running since the folders were last checked then, said in the
 * one sentence that also says nothing imports (nobodyRunsNote), so "No Steward is running" comes once.
 */
function indexingWords(indexing: Indexing, idle: Alone | undefined): string {
  const words = indexing.phase === 'retag' ? indexingNote(indexing) : `Earlier history is still being indexed (${numberOf(indexing.indexedParts)} of ${countOf(indexing.totalParts, 'part')}).`;
  return idle ? `${words} ${nobodyRunsNote(indexing, idle.lastCheckAt)}` : words;
}

/** Whether the index is behind with nothing walking it: only where the stores were opened for this call (an owner walks in the background). */
async function nobodyWalks(client: StewardClient, via: 'owner' | 'in-process' | undefined, found: Result<'Search.Query'>): Promise<boolean> {
  if (via !== 'in-process' || found.indexing === undefined) return false;
  return !(await client.call('Search.Indexing', {})).walking;
}

/**
 * The owner redacts before it cuts (`redact: true`); the table here runs again over what arrives, as a
 * second guard: an agent may forward what it reads to a remote model. `idle`: the index is behind and
 * nothing walks it (see nobodyWalks).
 */
export function searchOutput(result: Result<'Search.Query'>, redact: (text: string) => string, idle?: Alone): z.infer<typeof SearchTranscriptsOutput> {
  const notes = [result.fallback?.message, result.indexing && indexingWords(result.indexing, idle)].filter(Boolean);
  const sessions = new Map(result.sessions.map((s) => [s.sessionId, s]));
  // Who each hit is from by the rule the CLI's lines and the panel's hits follow (reading.ts's hitVoice).
  const speaker = (h: Result<'Search.Query'>['hits'][number]) => {
    const s = sessions.get(h.sessionId);
    return hitSpeaker(h, s?.parentKind === 'subagent', s?.app ?? h.provider, 'agent');
  };
  return {
    hits: result.hits.map((h) => ({ sessionId: h.sessionId, partId: h.partId, projectKey: h.projectKey, at: iso(h.ts), role: h.role, kind: h.kind, genuineUserTurn: h.genuineUserTurn, speaker: speaker(h), toolName: h.toolName, ...(h.summary ? { summary: redact(h.summary) } : {}), snippet: redact(h.snippet), ...(h.alike ? { alike: h.alike } : {}) })),
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

/**
 * A page with a next one says the instants its spans meant, and its cursor carries them (pinnedCursor):
 * the next call repeats its arguments, or passes those instants, with the cursor.
 */
function withPinned(out: SearchOut, dates: Pick<ReturnType<typeof searchDates>, 'pinned' | 'pins'>): SearchOut {
  if (!out.cursor || Object.keys(dates.pinned).length === 0) return out;
  return { ...out, cursor: pinnedCursor(out.cursor, dates.pins), pinned: dates.pinned };
}

/** Hits by conversation, conversations in the order of their best hit: a ranking interleaves them. */

/** Each conversation named once, above its hits: a title (up to 500 characters) repeated on 25 hit lines was half the answer. */
function searchText(out: SearchOut, listRest: (sessionId: string) => string): string {
  if (out.hits.length === 0) return out.note ? `No matches. ${out.note}` : 'No matches.';
  const sessions = new Map(out.sessions.map((s) => [s.sessionId, s]));
  const unlisted = new Map((out.unlisted ?? []).map((u) => [u.sessionId, u.matches]));
  const lines: string[] = [];
  for (const [sessionId, hits] of groupBySession(out.hits)) {
    const s = sessions.get(sessionId);
    lines.push(`[${sessionId}] ${s?.title ?? s?.firstRequest ?? '(untitled)'} — ${s?.app ?? ''}${s?.projectName ? ` · ${s.projectName}` : ''}`);
    // Who and what once, by the CLI's rule: "Tool output Bash: npm run build", never "Tool output · tool tool_result".
    for (const h of hits) lines.push(`  ${h.at ?? ''} ${hitLineFrom(h.speaker, { kind: h.kind, summary: h.summary ?? null, toolName: h.toolName })} (part_id ${h.partId})${h.snippet ? `: ${h.snippet}` : ''}${h.alike ? ` (${moreLikeIt(h.alike)})` : ''}`);
    const more = unlisted.get(sessionId);
    if (more !== undefined) lines.push(`  ${unlistedWords(more, listRest(sessionId))}`);
    unlisted.delete(sessionId);
  }
  // Only where a part was forgotten between asks can a conversation be counted with none of its hits listed.
  for (const [sessionId, more] of unlisted) lines.push(`[${sessionId}] ${unlistedWords(more, listRest(sessionId))}`);
  if (out.note) lines.unshift(out.note);
  const pinned = Object.entries(out.pinned ?? {}).map(([end, at]) => `${end} stays at "${at}"`);
  if (out.cursor) lines.push(`More results: call again with the same arguments and cursor "${out.cursor}"${pinned.length > 0 ? ` (${pinned.join(', ')})` : ''}.`);
  return lines.join('\n');
}

/** What a page says of a conversation's matches it counted instead of listing, and the exact call (listRestCall) that lists them. */
function unlistedWords(matches: number, call: string): string {
  return `… and ${matches.toLocaleString('en')} more in this conversation, not listed here: call search_transcripts with ${call} to list them.`;
}

/**
 * The arguments that list a conversation's matches a page counted instead of listing: the search's
 * own, narrowed to it by session_id, from its first page (no cursor: the cursor goes on past them), a
 * span pinned to the instant it meant. No cursor of the crowded search ever reaches them.
 */
function listRestCall(input: z.infer<typeof SearchTranscriptsInput>, pinned: { from?: string; to?: string }): (sessionId: string) => string {
  const { cursor: _cursor, ...args } = input;
  return (sessionId) => JSON.stringify({ ...args, ...pinned, session_id: sessionId });
}

/** A page with one more thing to say after what it says already (nobodyImports). */
function withNote(out: SearchOut, note: string | undefined): SearchOut {
  return note === undefined ? out : { ...out, note: out.note ? `${out.note} ${note}` : note };
}

/** A page with the conversations it counted matches of instead of listing them (see spreadPage). */
function withUnlisted(out: SearchOut, unlisted: readonly Unlisted[]): SearchOut {
  return unlisted.length === 0 ? out : { ...out, unlisted: [...unlisted] };
}

/** What a tool says of a session id Steward holds nothing under (search_transcripts' filter, get_session). */
function notStoredSession(sessionId: string): string {
  return `no stored conversation has the session_id ${JSON.stringify(sessionId)} (it may have been pruned or forgotten). Give the whole id, as search_transcripts or get_session returns it.`;
}

/**
 * What an empty search says when a filter names a conversation, project or repository Steward does not hold:
 * "No matches." would tell the agent it was searched. Undefined when each one named is stored.
 */
async function unknownFilter(client: StewardClient, params: Params<'Search.Query'>): Promise<string | undefined> {
  if (params.sessionId !== undefined && !(await isStored(client.call('Sessions.Get', { sessionId: params.sessionId, limit: 1 })))) {
    return notStoredSession(params.sessionId);
  }
  // Asked once, for the project and the repository alike.
  let listed: Promise<Result<'Projects.List'>['projects']> | undefined;
  const projects = () => (listed ??= client.call('Projects.List', {}).then((r) => r.projects));
  if (params.projectKey !== undefined && !(await projects()).some((p) => p.projectKey === params.projectKey)) {
    return `no stored project has the project_key ${params.projectKey} (it may have been forgotten). list_projects names each project's projectKey.`;
  }
  if (params.repo !== undefined && !repoMatches(params.repo, (await projects()).map((p) => p.repoId))) {
    return `no stored project belongs to the repository ${params.repo} (repo is OWNER/NAME or a repository's canonical id).`;
  }
  return undefined;
}

/**
 * get_session's words for an id it holds nothing under, as search_transcripts' (said as `not_found: …`):
 * forgotten by the person (or the conversation a subagent belongs to, or its project: Forget.Of says
 * which), with when and that it stays out, or not stored; a part not in the conversation as it is said.
 */
async function sessionNotFound(client: StewardClient, sessionId: string, error: StewardError): Promise<string> {
  if (missingOf(error) === 'part') return error.message;
  const { record } = await client.call('Forget.Of', { sessionId }).catch(() => ({ record: null }));
  if (record?.via === 'self') return `the person forgot this conversation on ${localDay(record.createdAt)}; Steward keeps it out until they bring it back.`;
  if (record?.via === 'parent') return `the person forgot the conversation this subagent belongs to (${record.id}) on ${localDay(record.createdAt)}; Steward keeps both out until they bring it back.`;
  // The project by its key alone, as list_projects gives it: its name is not said to an agent once forgotten.
  if (record?.via === 'project') return `the person forgot the project this conversation was in (${record.id}) on ${localDay(record.createdAt)}; Steward keeps it out until they bring it back.`;
  return notStoredSession(sessionId);
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

/**
 * Where a subagents cursor ("subagents:20") lists the conversation's subagents from; undefined for any
 * other cursor. It lists them alone: with part_id or from_char it is refused.
 */
function subagentsFrom(input: { cursor?: string | undefined; part_id?: string | undefined; from_char?: number | undefined }): number | undefined {
  const listed = input.cursor === undefined ? null : SUBAGENTS_CURSOR.exec(input.cursor);
  if (!listed) return undefined;
  if (input.part_id !== undefined || input.from_char !== undefined) throw new StewardError('invalid_params', `cursor "${input.cursor}" lists the conversation's subagents: give it without part_id or from_char.`);
  return Number(listed[1]);
}

/** `search_transcripts` and `get_session`: the person's captured conversations, for agents. */
export function registerHistoryTools(server: McpServer, withClient: WithClient): void {
  const redactor = createRedactor();
  const redact = (text: string) => redactor.redactSync(text);
  defineTool(
    server,
    'search_transcripts',
    {
      title: 'Search past conversations',
      description:
        `Full-text search of the conversations Steward captured (${APPS}): ranked hits with sessionId, partId, snippet, role, kind, time. ` +
        'A hit holds every query word as written (no stemming), else any (the note says so). Filters alone list newest first. ' +
        `While others match, a page shows at most ${perConversation(MAX_HITS)} hits of a conversation, naming the call for the rest. ` +
        'Read one with get_session. Secrets are redacted.',
      inputSchema: SearchTranscriptsInput,
      annotations: READ_ONLY,
    },
    checkedAnswer('search_transcripts', SearchTranscriptsOutput, async (input) => {
      const given = unpinnedCursor(input.cursor);
      const dates = searchDates(input, given.pins);
      refuseEmptyRange(input, dates.range);
      const params = searchParams(input, dates.range, given.cursor);
      if (params.query.trim() === '' && !hasSearchFilter(params)) throw new StewardError('invalid_params', NOTHING_TO_SEARCH);
      return withClient(async (client, via) => {
        const ask = (limit: number) => client.call('Search.Query', { ...params, limit });
        // Narrowed to one conversation (its subagents included), nothing is thinned: the call that would list
        // the rest is this one, so its own pages list every match.
        const { found, unlisted } = params.sessionId === undefined ? await spreadPage(ask, params.limit ?? 10) : { found: await ask(params.limit ?? 10), unlisted: [] };
        // Asked only of an empty answer, as the CLI does: hits show the filters hold something.
        const unknown = found.hits.length === 0 ? await unknownFilter(client, params) : undefined;
        if (unknown !== undefined) throw new StewardError('not_found', unknown);
        const alone = await checkedAlone(client, via);
        const idle = alone && (await nobodyWalks(client, via, found)) ? alone : undefined;
        // With the index idle its note says nothing imports either; otherwise, alone, that is said apart.
        const note = alone && !idle ? nobodyImportsNote(alone.lastCheckAt) : undefined;
        const out = withNote(withPinned(withUnlisted(searchOutput(found, redact, idle), unlisted), dates), note);
        return { content: [{ type: 'text' as const, text: searchText(out, listRestCall(input, dates.pinned)) }], structuredContent: out };
      });
    }),
  );
  defineTool(
    server,
    'get_session',
    {
      title: 'Read a past conversation',
      description:
        `One captured conversation's messages in order, a page at a time (at most ${PAGE_CHARS.toLocaleString('en')} characters; it says what it left out and how to read on): turns, thinking, tool calls, results, each with speaker and role. ` +
        "Text the person's app wrote for them has harness set, genuineUserTurn false. The first page lists subagents by sessionId. Secrets are redacted.",
      inputSchema: GetSessionInput,
      annotations: READ_ONLY,
    },
    checkedAnswer('get_session', GetSessionOutput, async (input) =>
      withClient(async (client) => {
        // `paged` false: the conversation's head alone, for its subagents (a subagents cursor is no owner's).
        const ask = (limit: number, paged = true) =>
          client.call('Sessions.Get', {
            sessionId: input.session_id,
            limit,
            ...(input.cursor !== undefined && paged ? { cursor: input.cursor } : {}),
            ...(input.part_id !== undefined ? { partId: input.part_id } : {}),
            ...(input.at !== undefined ? { at: input.at } : {}),
            redact: true,
          });
        if (input.from_char !== undefined && input.part_id === undefined) throw new StewardError('invalid_params', FROM_CHAR_ALONE);
        refuseWithAt(input);
        const listFrom = subagentsFrom(input);
        try {
          const { page, text } =
            listFrom !== undefined
              ? await readSubagents(() => ask(1, false), listFrom, redact)
              : input.from_char !== undefined && input.part_id !== undefined
                ? await readPartFrom(ask, input.part_id, input.from_char, redact)
                : // The subagents are listed where the conversation opens: a page its cursor reaches follows that one.
                  await readSessionPage(ask, input.limit ?? 20, input.part_id, redact, input.at === 'end', input.cursor === undefined);
          return { content: [{ type: 'text' as const, text }], structuredContent: page };
        } catch (error) {
          if (!(error instanceof StewardError && error.code === 'not_found')) throw error;
          throw new StewardError('not_found', await sessionNotFound(client, input.session_id, error));
        }
      })),
  );
}
