import { z } from 'zod';
import { EpochMs } from './dates.js';
import { StewardError } from './errors.js';
import { ProjectKey, SessionId } from './ids.js';
import { SEARCH_PROVIDERS } from './registry.js';
import { type Audience, COMPACTION_FOLD, COMPACTION_SPEAKER, foldLine, isSummaryMessage, kindLabel, MAIN_AGENT, roleWord, TOOL_OUTPUT } from './part-words.js';
import { harnessKind, hitVoice, voiceOf } from './reading.js';
import { countOf } from './words.js';

const count = z.number().int().nonnegative();

/** A subagent's prompts are the main agent's words; a branch's are the person's, as in its parent. */
export const ParentKind = z.enum(['subagent', 'branch']).nullable();
export type ParentKind = z.infer<typeof ParentKind>;

/** A conversation as a list shows it: counts and labels, never a path. */
export const SessionSummary = z.strictObject({
  sessionId: z.string(),
  projectKey: z.string().nullable(),
  provider: z.string(),
  /** The app that wrote it, as people call it ("Claude Code", "Claude Desktop", "Codex CLI"): see appName. */
  app: z.string(),
  title: z.string().nullable(),
  agentType: z.string().nullable(),
  startedAt: z.number().int().nullable(),
  lastAt: z.number().int().nullable(),
  /**
   * Messages (user and assistant turns), not parts; a tool's result is not one (it is read folded under
   * its call): Sessions.Get and the JSON export mark those `countsAsMessage: false`.
   */
  messages: count,
  parentSessionId: z.string().nullable(),
  /** What the parent is to it: a subagent it started, or a conversation it branched (forked) from. */
  parentKind: ParentKind,
  projectName: z.string().nullable(),
  /** The first thing the person asked, bounded; a title stand-in when the session has none. */
  firstRequest: z.string().nullable(),
  /** The model that answered, when the transcript names it. */
  model: z.string().nullable(),
  durationMs: count.nullable(),
  toolCalls: count,
  subagents: count,
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** One content block of a message, bounded as stored; images are facts, never bytes. */
export const SessionPart = z.strictObject({
  partId: z.string(),
  kind: z.string(),
  text: z.string().nullable(),
  /**
   * One line a folded view shows: the tool and its command or file, a result's outcome, a thought's
   * start; for any other kind, part-words.ts's line (a notice's first line, a compaction's "Earlier
   * conversation summarized"), never the kind's name, except for a kind that table does not know.
   */
  summary: z.string().nullable(),
  toolName: z.string().nullable(),
  toolUseId: z.string().nullable(),
  /** A tool result that failed: its agent marked it so, or its command exited with a code other than 0. */
  isError: z.boolean(),
  /** The stored text was cut from a text of this many characters: its start (a prefix), or its start and end (`truncatedKept`). */
  truncatedFrom: count.nullable(),
  /**
   * A tool result cut at both ends: the characters kept of its start and of its end, which `text`
   * holds with CUT_GAP (a line of its own) between them, where the middle was left out. Absent for a
   * prefix cut (every other text, and results stored by older parsers).
   */
  truncatedKept: z.strictObject({ first: count, last: count }).optional(),
  image: z.strictObject({ mediaType: z.string().nullable(), bytes: count }).nullable(),
  /**
   * The person's own words, as capture decided once when it parsed the line (`genuine_user_turn`, the
   * same flag as Search's `genuineUserTurn`). False for user text the agent's harness wrote in their
   * name (a slash command's echo and output, a caveat, hook output, a task notification, a skill
   * expansion, a compaction summary), for a Claude subagent's prompt, and for every other part. A
   * user-role text part without it has a `summary`: the one line a folded view shows of it.
   */
  genuineUserTurn: z.boolean(),
  /** The summary the harness wrote, in the user's role, to continue a compacted conversation. */
  isCompactSummary: z.boolean(),
  /** The slash command ("/clear") a harness-written user text echoes; null otherwise. */
  slashCommand: z.string().nullable(),
  /**
   * A tool result's exit code, where the result says one: Claude Code's "Exit code N", Codex's
   * `metadata.exit_code` (or its "Exit code: N" / "Process exited with code N" header), Gemini CLI's
   * "Exit Code: N", OpenClaw's "(Command exited with code N)" or its recorded `exitCode`. Absent
   * otherwise. A code other than 0 makes `isError` true, whatever the agent's own status said.
   */
  exitCode: z.number().int().optional(),
  /**
   * A tool result's output as a reader reads it, where the stored `text` wraps it (Codex's shell
   * output is the JSON `{"output", "metadata"}` it sent the model): the output with its own line
   * breaks, only its start when the stored text was cut. Absent when `text` reads as it is.
   */
  output: z.string().optional(),
  /**
   * How many images a tool result returned (a browser tool's screenshot): capture counts them and
   * keeps none of their bytes. Absent when it returned none.
   */
  images: count.optional(),
  /**
   * Each image a tool result returned, in order, by its type and decoded size (the first 32; `images`
   * counts them all). Absent when it returned none, and for a result stored before capture kept them
   * (it has only `images`).
   */
  resultImages: z.array(z.strictObject({ mediaType: z.string().nullable(), bytes: count })).optional(),
  /**
   * The person rewound the conversation to before this part's turn (Gemini CLI's rewind): the agent
   * went on without it, and Steward keeps it, marked. Absent otherwise (see REWOUND_LINE, rewoundMarks).
   */
  rewound: z.literal(true).optional(),
  /**
   * Where the secrets are in `text`: sorted [start, end) offsets of the characters the secrets module
   * would redact, by its own rule, so a reader shown them as written can mark each. Only on a read with
   * `markSecrets` and not `redact`, on every part then (empty where there are none).
   */
  secrets: z.array(z.tuple([count, count])).optional(),
});
export type SessionPart = z.infer<typeof SessionPart>;

/**
 * What a user-role text part the person did not write is, in one line, for the CLI, the exports and
 * MCP: "Command /clear", a compaction's "Summary · Earlier conversation summarized" (part-words.ts,
 * as the panel folds it), or the session's `app` and the text's first line. Undefined for the words
 * of the turn's author (the rule is reading.ts's harnessKind).
 */
export function harnessLine(part: Pick<SessionPart, 'kind' | 'summary' | 'genuineUserTurn' | 'isCompactSummary' | 'slashCommand'>, role: string | null, inSubagent: boolean, app: string): string | undefined {
  const kind = harnessKind(part, role, inSubagent);
  if (kind === 'summary') return foldLine(COMPACTION_FOLD);
  if (kind === 'command') return `Command ${part.summary ?? part.slashCommand}`;
  return kind === 'app' ? `${app}: ${part.summary ?? ''}` : undefined;
}

/**
 * Who a message is from (reading.ts's voiceOf), as the CLI, MCP and exports say it; a compaction
 * summary's is part-words' one neutral speaker, whichever role its agent stored it under.
 */
export function messageSpeaker(message: { role: string | null; parts: ReadonlyArray<Pick<SessionPart, 'kind' | 'genuineUserTurn' | 'isCompactSummary' | 'slashCommand'>> }, inSubagent: boolean, app: string, audience: Audience = 'person'): string {
  if (isSummaryMessage(message.parts)) return COMPACTION_SPEAKER;
  const voice = voiceOf(message, inSubagent);
  // An agent reads search_transcripts' hits too: the same output is said the same there (hitSpeaker).
  if (voice === 'tool') return audience === 'agent' ? TOOL_OUTPUT : 'Tool result';
  if (voice === 'app') return app;
  if (voice === 'main-agent') return MAIN_AGENT;
  return roleWord(message.role, audience);
}

/**
 * Who wrote a search hit's text (reading.ts's hitVoice), in messageSpeaker's words: a compaction
 * summary's neutral speaker, the app, the main agent; else the role as stored, which is how a search line says it.
 */
export function hitSpeaker(hit: { role: string | null; kind: string; genuineUserTurn: boolean; isCompactSummary: boolean }, inSubagent: boolean, app: string, audience: Audience = 'person'): string {
  const voice = hitVoice(hit, inSubagent);
  if (voice === 'summary') return COMPACTION_SPEAKER;
  if (voice === 'tool') return TOOL_OUTPUT;
  if (voice === 'app') return app;
  if (voice === 'main-agent') return MAIN_AGENT;
  return roleWord(hit.role, audience);
}

/**
 * A search hit as a line of a printed transcript says what it is (the panel's hitLabel, in a printed
 * transcript's words): who wrote it, then what kind of part it is in part-words' words, with its one
 * line (a command, a file) or its tool's name; a text part says only who.
 */
export function hitLine(hit: { role: string | null; kind: string; genuineUserTurn: boolean; isCompactSummary: boolean; summary: string | null; toolName: string | null }, inSubagent: boolean, app: string): string {
  return hitLineFrom(hitSpeaker(hit, inSubagent, app), hit);
}

/**
 * hitLine from who a hit is from as hitSpeaker said it (an agent's words are not a person's): a tool
 * output's speaker says what it is, so its line is who, then the call it answers.
 */
export function hitLineFrom(who: string, hit: { kind: string; summary: string | null; toolName: string | null }): string {
  // A summary's speaker says what it is: "Conversation summary · Summary" would say it twice.
  if (hit.kind === 'text' || who === COMPACTION_SPEAKER) return who;
  const kind = hit.kind === 'tool_result' ? undefined : (kindLabel(hit.kind) ?? hit.kind);
  const detail = hit.summary ?? hit.toolName;
  return [kind ? `${who} · ${kind}` : who, detail].filter(Boolean).join(' ');
}

export const SessionMessage = z.strictObject({
  messageId: z.string(),
  role: z.string().nullable(),
  ts: z.number().int().nullable(),
  /**
   * False on a message the session's `messages` count leaves out: a tool's result, read folded under
   * its call, unless the person's own words share its message (the one rule, countsAsMessage in
   * core/transcripts). Absent on every message the count includes, so the unmarked ones add up to it.
   */
  countsAsMessage: z.literal(false).optional(),
  parts: z.array(SessionPart),
});
export type SessionMessage = z.infer<typeof SessionMessage>;

/** A subagent's conversation, nested after the message that started it. */
export const SessionSubagent = z.strictObject({
  session: SessionSummary,
  /** The message (on this page or another) whose tool call started it; null when none could be told. */
  startedBy: z.string().nullable(),
  /**
   * Started by no call (`startedBy` null): the message (on this page or another) it started after, where
   * it is listed, under no call; null when no message came before it. Absent from older answers.
   */
  startedAfter: z.string().nullable().optional(),
});
export type SessionSubagent = z.infer<typeof SessionSubagent>;

export const SessionExport = z.strictObject({
  filename: z.string(),
  mediaType: z.enum(['text/markdown', 'application/json']),
  /** The whole document, or its first piece when `next` is not null. */
  content: z.string(),
  /** False only when raw output was asked for. */
  redacted: z.boolean(),
  /**
   * A long document comes in pieces of about a million characters, so no single answer holds the
   * owner for long: pass this to `Sessions.ExportNext` for the next piece until it is null.
   */
  next: z.string().nullable(),
});
export type SessionExport = z.infer<typeof SessionExport>;

/** The next piece of a long export; append `content` to what came before. */
export const SessionExportPiece = z.strictObject({ content: z.string(), next: z.string().nullable() });
export type SessionExportPiece = z.infer<typeof SessionExportPiece>;

/**
 * What a `not_found` of Sessions.Get or Sessions.Export did not find, in its details' `missing`: no
 * conversation is stored under the id, or the part asked for is not in the one that is. Callers
 * branch on it, never on the message's words.
 */
export const SESSION_MISSING = ['conversation', 'part'] as const;
export type SessionMissing = (typeof SESSION_MISSING)[number];

/**
 * The `not_found` of a conversation or a part not stored, saying which in its details. `heldBy`: the
 * subagent conversation that holds the part asked for under its parent (a search of a parent gives its
 * subagents' hits too), for a caller to name or open it there (partHolderOf).
 */
export const missingError = (missing: SessionMissing, message: string, heldBy?: string): StewardError =>
  new StewardError('not_found', message, { missing, ...(heldBy !== undefined ? { heldBy } : {}) });

/** The subagent conversation a part-`not_found` says holds the part (missingError's `heldBy`); undefined for any other error. */
export function partHolderOf(error: unknown): string | undefined {
  if (missingOf(error) !== 'part') return undefined;
  const heldBy = (error as StewardError).details?.heldBy;
  return typeof heldBy === 'string' ? heldBy : undefined;
}

/** What a `not_found` says it did not find (see SESSION_MISSING); undefined for any other error, or one that does not say. */
export function missingOf(error: unknown): SessionMissing | undefined {
  if (!(error instanceof StewardError && error.code === 'not_found')) return undefined;
  const missing = error.details?.missing;
  return SESSION_MISSING.find((m) => m === missing);
}

/**
 * What a page of a conversation holds, in the units its `limit` counts (entries: messages and the tool
 * results the conversation's count leaves out, countsAsMessage false), said beside that count where
 * the two differ: one rule for get_session and `steward sessions show`. `last`: the page opened at the
 * end with earlier messages before it; `limit`: the caller's name for the bound (`limit`, `--limit`).
 * Undefined where there is nothing to say (a page of messages alone, not the last).
 */
export function pageCountWords(page: { entries: number; toolResults: number; messages: number; last: boolean; limit: string }): string | undefined {
  const { entries, toolResults, last } = page;
  if (toolResults === 0) return last ? `The last ${entries} of ${countOf(page.messages, 'message')}.` : undefined;
  const held = `${countOf(entries, 'entry', 'entries')}: ${countOf(entries - toolResults, 'message')} and ${countOf(toolResults, 'tool result')}`;
  return `${last ? `The last ${held}` : `This page holds ${held}`} (${page.limit} counts both).`;
}

/** Reading captured conversations (history). */
export const sessionsMethods = {
  /** Conversations (top-level sessions), most recently active first. */
  'Sessions.List': {
    params: z
      .strictObject({
        projectKey: ProjectKey.optional(),
        /** A provider (`claude`: Claude Code and Claude Desktop), or an app of one: `claude-desktop` (SEARCH_APPS), as a search takes it. */
        provider: z.enum(SEARCH_PROVIDERS).optional(),
        /** Conversations with a message (or one of their subagents') in this range of epoch ms (inclusive), as a search of them finds it. */
        from: EpochMs.optional(),
        to: EpochMs.optional(),
        limit: z.number().int().min(1).max(200).optional(),
        cursor: z.string().max(500).optional(),
        /**
         * true: titles and first requests redacted with the secrets module, each first request before it is
         * cut (the panel and the CLI ask for this; a cursor serves either way).
         */
        redact: z.boolean().optional(),
      })
      .refine((p) => p.from === undefined || p.to === undefined || p.from <= p.to, { message: 'from must not be after to' }),
    result: z.strictObject({ sessions: z.array(SessionSummary), cursor: z.string().optional() }),
  },
  /**
   * A conversation's messages in order with their parts, a page at a time. `not_found` says in its
   * details what was not found (`missing`: the conversation or the part, see SESSION_MISSING), and for
   * a part one of its subagents holds, which one (`heldBy`, see partHolderOf).
   */
  'Sessions.Get': {
    params: z.strictObject({
      sessionId: SessionId,
      /** Messages per page (default 200). */
      limit: z.number().int().min(1).max(1_000).optional(),
      /** From `cursor` (later messages) or `before` (earlier messages) of a previous page. */
      cursor: z.string().max(500).optional(),
      /** Open the page around this part (a search hit) instead of at the start: it holds the hit and, as `limit` leaves room, up to 5 messages before it. */
      partId: z.string().min(1).max(400).optional(),
      /**
       * 'end': open at the conversation's end, its last `limit` messages (with `before`, never `cursor`):
       * its latest work, without paging through what came before. Not with `cursor` or `partId`.
       */
      at: z.literal('end').optional(),
      /** true: every text redacted with the secrets module before summaries and first requests are cut from it. */
      redact: z.boolean().optional(),
      /** true, read as written (no `redact`): each part says where its secrets are (`secrets`), in the same answer. */
      markSecrets: z.boolean().optional(),
    })
      .refine((p) => p.at === undefined || p.cursor === undefined, { message: 'at and cursor cannot be combined' })
      .refine((p) => p.at === undefined || p.partId === undefined, { message: 'at and partId cannot be combined' }),
    result: z.strictObject({
      session: SessionSummary,
      messages: z.array(SessionMessage),
      subagents: z.array(SessionSubagent),
      /** Later messages follow: pass it as `cursor`. */
      cursor: z.string().optional(),
      /** Earlier messages precede this page: pass it as `cursor`. */
      before: z.string().optional(),
    }),
  },
  /** The whole conversation as Markdown or JSON, secrets redacted unless `raw`. */
  'Sessions.Export': {
    params: z.strictObject({ sessionId: SessionId, format: z.enum(['markdown', 'json']).optional(), raw: z.boolean().optional() }),
    result: SessionExport,
  },
  /** The next piece of a long export (`next` of the previous answer); an export left for a minute is closed. */
  'Sessions.ExportNext': {
    params: z.strictObject({ next: z.string().min(1).max(100) }),
    result: SessionExportPiece,
  },
} as const;
