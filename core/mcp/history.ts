import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { countOf, harnessLine, ProjectKey, wholeAt, PROVIDER_IDS, SEARCH_KINDS, SEARCH_SORTS, SessionId, type Params, type Result } from '../api/index.js';
import { createRedactor } from '../secrets/index.js';
import type { WithClient } from './projects.js';

/** Outputs are bounded: a page of hits, a page of messages with each part's text capped. */
const MAX_HITS = 25;
const MAX_MESSAGES = 50;
const PART_CHARS = 2_000;
const PAGE_CHARS = 60_000;

const isoDate = z
  .string()
  .max(40)
  .refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), 'expected an ISO date or time such as 2026-11-29 or 2026-11-29T08:00:00Z');

export const SearchTranscriptsInput = z.strictObject({
  query: z.string().min(1).max(500).describe('Words, "exact phrases", prefix*, AND/OR/NOT. Identifiers are found by their pieces: parseConfig by "config", snake_case by "case".'),
  project_key: ProjectKey.optional().describe('Only this project (projectKey from list_projects)'),
  provider: z.enum(PROVIDER_IDS).optional(),
  session_id: SessionId.optional().describe('Only this conversation (its subagents included)'),
  role: z.enum(['user', 'assistant']).optional().describe('user with kind text: what the person wrote, with what the harness wrote in their name (see genuine_user_turn)'),
  kind: z.enum(SEARCH_KINDS).optional().describe('text, thinking, tool_use (commands and tool inputs) or tool_result (tool output)'),
  genuine_user_turn: z
    .boolean()
    .optional()
    .describe("true: only the person's own words, never slash-command echoes, hook output, task notifications, compaction summaries or a subagent's prompt (which role user with kind text include)"),
  from: isoDate.optional(),
  to: isoDate.optional(),
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

const Part = z.strictObject({
  kind: z.string(),
  text: z.string().nullable(),
  summary: z.string().nullable(),
  toolName: z.string().nullable(),
  isError: z.boolean(),
  partId: z.string(),
  /** The person's own words (search_transcripts' genuine_user_turn); false for everything else. */
  genuineUserTurn: z.boolean(),
  /** User text the agent's app wrote in the person's name, said for what it is ("Command /clear"); null otherwise. */
  harness: z.string().nullable(),
});

export const GetSessionOutput = z.strictObject({
  session: z.strictObject({
    sessionId: z.string(),
    title: z.string().nullable(),
    firstRequest: z.string().nullable(),
    projectKey: z.string().nullable(),
    projectName: z.string().nullable(),
    provider: z.string(),
    /** The app that wrote it, as people call it ("Claude Desktop", "Codex CLI"). */
    app: z.string(),
    agentType: z.string().nullable(),
    startedAt: z.string().nullable(),
    lastAt: z.string().nullable(),
    messages: z.number().int(),
  }),
  messages: z.array(z.strictObject({ role: z.string().nullable(), at: z.string().nullable(), parts: z.array(Part) })),
  subagents: z.array(z.strictObject({ sessionId: z.string(), agentType: z.string().nullable(), messages: z.number().int() })),
  cursor: z.string().optional(),
  before: z.string().optional(),
});

const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());

function bounded(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  const end = wholeAt(text, max);
  return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}

/** The contract's dates are epoch ms from 1970 to its last date: a wider range searches everything in it. */
const LAST_MS = 8_640_000_000_000;
const epochMs = (date: string) => Math.min(LAST_MS, Math.max(0, Date.parse(date)));

function searchParams(input: z.infer<typeof SearchTranscriptsInput>): Params<'Search.Query'> {
  return {
    query: input.query,
    limit: input.limit ?? 10,
    ...(input.project_key !== undefined ? { projectKey: input.project_key } : {}),
    ...(input.provider !== undefined ? { provider: input.provider } : {}),
    ...(input.session_id !== undefined ? { sessionId: input.session_id } : {}),
    ...(input.role !== undefined ? { role: input.role } : {}),
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.genuine_user_turn !== undefined ? { genuineUserTurn: input.genuine_user_turn } : {}),
    ...(input.from !== undefined ? { from: epochMs(input.from) } : {}),
    ...(input.to !== undefined ? { to: epochMs(input.to) } : {}),
    ...(input.sort !== undefined ? { sort: input.sort } : {}),
    ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
    redact: true,
  };
}

/**
 * The owner redacts before it cuts (`redact: true`); the table here runs again over what arrives, as a
 * second guard: an agent may forward what it reads to a remote model.
 */
function searchOutput(result: Result<'Search.Query'>, redact: (text: string) => string): z.infer<typeof SearchTranscriptsOutput> {
  const notes = [result.fallback?.message, result.indexing ? `Earlier history is still being indexed (${result.indexing.indexedParts} of ${countOf(result.indexing.totalParts, 'part')}).` : undefined].filter(Boolean);
  return {
    hits: result.hits.map((h) => ({ sessionId: h.sessionId, partId: h.partId, projectKey: h.projectKey, at: iso(h.ts), role: h.role, kind: h.kind, genuineUserTurn: h.genuineUserTurn, toolName: h.toolName, snippet: redact(h.snippet) })),
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

function sessionOutput(result: Result<'Sessions.Get'>, redact: (text: string) => string): z.infer<typeof GetSessionOutput> {
  const s = result.session;
  const parts = result.messages.reduce((n, m) => n + m.parts.length, 0);
  // Every part keeps some text: the page's budget is shared out, never spent on the first parts alone.
  const cap = Math.max(200, Math.min(PART_CHARS, Math.floor(PAGE_CHARS / Math.max(parts, 1))));
  // A subagent's user turns are the main agent's prompts, not text the app wrote (see harnessLine).
  const inSubagent = s.parentKind === 'subagent';
  return {
    session: {
      sessionId: s.sessionId,
      title: s.title === null ? null : redact(s.title),
      firstRequest: s.firstRequest === null ? null : redact(s.firstRequest),
      projectKey: s.projectKey,
      projectName: s.projectName,
      provider: s.provider,
      app: s.app,
      agentType: s.agentType,
      startedAt: iso(s.startedAt),
      lastAt: iso(s.lastAt),
      messages: s.messages,
    },
    messages: result.messages.map((m) => ({
      role: m.role,
      at: iso(m.ts),
      parts: m.parts.map((p) => {
        const harness = harnessLine(p, m.role, inSubagent, s.app);
        return {
          partId: p.partId,
          kind: p.kind,
          text: bounded(p.text === null ? null : redact(p.text), cap),
          summary: p.summary === null ? null : redact(p.summary),
          toolName: p.toolName,
          isError: p.isError,
          genuineUserTurn: p.genuineUserTurn,
          harness: harness === undefined ? null : redact(harness),
        };
      }),
    })),
    subagents: result.subagents.map((sub) => ({ sessionId: sub.session.sessionId, agentType: sub.session.agentType, messages: sub.session.messages })),
    ...(result.cursor ? { cursor: result.cursor } : {}),
    ...(result.before ? { before: result.before } : {}),
  };
}

function searchText(out: z.infer<typeof SearchTranscriptsOutput>): string {
  if (out.hits.length === 0) return out.note ? `No matches. ${out.note}` : 'No matches.';
  const titles = new Map(out.sessions.map((s) => [s.sessionId, s.title ?? s.firstRequest ?? '(untitled)']));
  const lines = out.hits.map((h) => `[${h.sessionId}] ${titles.get(h.sessionId) ?? ''} — ${h.at ?? ''} ${h.role ?? ''} ${h.kind}${h.toolName ? ` ${h.toolName}` : ''}: ${h.snippet}`);
  if (out.note) lines.unshift(out.note);
  if (out.cursor) lines.push(`More results: call again with cursor "${out.cursor}".`);
  return lines.join('\n');
}

/** User text the app wrote in the person's name: marked so before its text, never read as theirs. */
function harnessText(p: z.infer<typeof Part>): string {
  return `[${p.harness ?? ''} — written by the agent's app, not the person]\n${p.text ?? ''}`;
}

function sessionText(out: z.infer<typeof GetSessionOutput>): string {
  const lines = [`${out.session.title ?? out.session.firstRequest ?? '(untitled)'} (${out.session.sessionId}, ${countOf(out.session.messages, 'message')})`];
  for (const m of out.messages) {
    lines.push(`— ${m.role ?? 'message'} ${m.at ?? ''}`);
    for (const p of m.parts) lines.push(p.harness !== null ? harnessText(p) : p.kind === 'text' ? (p.text ?? '') : `[${p.kind}] ${p.summary ?? ''}${p.kind === 'tool_result' || p.kind === 'tool_use' ? `\n${p.text ?? ''}` : ''}`);
  }
  if (out.cursor) lines.push(`Later messages: call again with cursor "${out.cursor}".`);
  if (out.before) lines.push(`Earlier messages: call again with cursor "${out.before}".`);
  return lines.join('\n');
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
        'Full-text search over every conversation Steward has captured from coding agents (Claude Code, Claude Desktop, OpenClaw): ranked hits with the session id, a short snippet, role, kind and time. ' +
        'Narrow with project_key, provider, session_id, role, kind (tool_use finds commands, tool_result their output) and from/to dates. ' +
        'Read a hit in context with get_session (session_id, part_id). Secrets in snippets are redacted; no filesystem path of Steward or of a transcript file is returned.',
      inputSchema: SearchTranscriptsInput,
      outputSchema: SearchTranscriptsOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (input) =>
      withClient(async (client) => {
        const out = searchOutput(await client.call('Search.Query', searchParams(input)), redact);
        return { content: [{ type: 'text' as const, text: searchText(out) }], structuredContent: out };
      }),
  );
  server.registerTool(
    'get_session',
    {
      title: 'Read a past agent conversation',
      description:
        'The messages of one captured conversation in order, a page at a time: user and assistant turns, thinking, tool calls (with a one-line summary) and their results, each part’s text capped. ' +
        'User text the agent’s app wrote in the person’s name (slash-command echoes and output, hook output, compaction summaries) has `harness` set and `genuineUserTurn` false; the person’s own words have `genuineUserTurn` true. ' +
        'Pass part_id (from search_transcripts) to open the page around a hit; use cursor/before from a result to page. Secrets are redacted; no filesystem path is returned.',
      inputSchema: GetSessionInput,
      outputSchema: GetSessionOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (input) =>
      withClient(async (client) => {
        const result = await client.call('Sessions.Get', {
          sessionId: input.session_id,
          limit: input.limit ?? 20,
          ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
          ...(input.part_id !== undefined ? { partId: input.part_id } : {}),
          redact: true,
        });
        const out = sessionOutput(result, redact);
        return { content: [{ type: 'text' as const, text: sessionText(out) }], structuredContent: out };
      }),
  );
}
