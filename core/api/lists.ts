/**
 * The domain's word lists, declared once. Schemas, config, the CLI's choices and the panel's labels
 * all derive from these; a room never spells one of them out again.
 */

/** Transcript providers are declared in providers.ts (ids, labels, kinds of root). */
/** The sweeper's curators (spec 001): the offline default, and the remote ones a user may choose. */
export const CURATOR_KINDS = ['offline', 'anthropic', 'openai-compatible'] as const;
export type CuratorKind = (typeof CURATOR_KINDS)[number];
export const REMOTE_CURATORS = ['anthropic', 'openai-compatible'] as const satisfies readonly CuratorKind[];
export type RemoteCurator = (typeof REMOTE_CURATORS)[number];

/** Where text goes when a provider is used (spec 004): this process, this machine's network, a remote service. */
export const DATA_BOUNDARIES = ['local_process', 'local_network', 'remote', 'unknown'] as const;
export type DataBoundary = (typeof DATA_BOUNDARIES)[number];

/** How much Steward writes to its log file: every line (info), warnings and errors, or errors only. */
export const LOG_LEVELS = ['info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Agents whose session start Steward can feed the project's notes (a hook in the agent's settings). */
export const CONTEXT_AGENTS = ['claude'] as const;
export type ContextAgent = (typeof CONTEXT_AGENTS)[number];

/** Repository-cache collections (spec 004). */
export const COLLECTIONS = ['issues', 'issue-comments', 'wiki', 'pulls', 'pr-comments'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** The forges a repository cache syncs from (spec 004; issue 13). */
export const FORGE_KINDS = ['github', 'gitea', 'gitcode'] as const;
export type ForgeKind = (typeof FORGE_KINDS)[number];

/** Maintenance stages and their lanes (spec 004): sync has a head and a tail lane, RAG an index lane. */
export const STAGES = ['sync', 'rag'] as const;
export type StageName = (typeof STAGES)[number];
export const LANES = ['head', 'tail', 'index'] as const;
export type Lane = (typeof LANES)[number];
export const SYNC_MODES = ['off', 'head', 'head-and-backfill'] as const;
export const RAG_MODES = ['off', 'maintain'] as const;

/**
 * What a setup plan would do, by class (spec 004): read and check only, write Steward's own
 * configuration, start or install a local service, download something large, send repository text
 * to an embedding provider, queue maintenance jobs.
 */
export const EFFECT_CLASSES = ['inspect', 'local_config_write', 'local_service_change', 'large_download', 'provider_data_transfer', 'job_enqueue'] as const;
export type EffectClass = (typeof EFFECT_CLASSES)[number];

/** The statuses of a setup plan and of its apply (spec 004): work in hand, a person needed, or blocked. */
export const SETUP_STATUSES = ['ready', 'refreshing', 'indexing', 'backfilling', 'confirmation_required', 'blocked'] as const;
export type SetupStatus = (typeof SETUP_STATUSES)[number];

/**
 * Embedding providers of a RAG profile (spec 004): `hash` is the built-in deterministic embedder,
 * `local` an ONNX model folder run in process, `none` words only.
 */
export const EMBEDDING_PROVIDERS = ['none', 'hash', 'local', 'ollama', 'openai-compatible'] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];
/** The boundaries an embedding request can cross, narrowest first; a person confirms one of these, never `unknown`. */
export const EMBEDDING_BOUNDARIES = ['local_process', 'local_network', 'remote'] as const satisfies readonly DataBoundary[];
export type EmbeddingBoundary = (typeof EMBEDDING_BOUNDARIES)[number];

/**
 * Why a complete transcript line yielded no part (spec 000: nothing is dropped silently). Counted
 * per reason in tick and backfill results, telemetry and the panel:
 * - `no_id`: a message that cannot be keyed (an OpenClaw entry before any session header);
 * - `unknown_type`: a line or entry type (or message role) this parser does not project;
 * - `meta_only`: bookkeeping or session metadata (snapshots, progress, titles, model changes, the header);
 * - `too_large`: above `sweep.max_line_bytes` (a whole-document transcript, Gemini's legacy chat, above
 *   its own larger bound); `malformed`: not a JSON object;
 * - `outside_window`: older than the retention window; `empty`: a blank line or a message with no content;
 * - `duplicate`: a message the agent recorded again, under a new id (Gemini CLI after a compression or a
 *   tool-output masking) or its own with nothing new (a Gemini re-emission that only adds token counts),
 *   already stored;
 * - `differing_copy`: a message line another file holds under the same id (Claude Code's `uuid`, which a
 *   resumed or forked session copies into its new file) with different words: the version of the
 *   conversation's own file (else the one stored first) is kept, the other counted here; a copy with the
 *   same words is the same message, stored once and not counted;
 * - `not_a_transcript`: a JSON line of a file none of whose lines has any shape of its agent's (notes a person
 *   or a tool left under a transcript's name): the file is read and counted so, never a failure.
 */
export const SKIP_REASONS = ['no_id', 'unknown_type', 'meta_only', 'too_large', 'malformed', 'outside_window', 'empty', 'duplicate', 'differing_copy', 'not_a_transcript'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Where a session's title came from, lowest precedence first: a title from a later source replaces
 * one from an earlier source, never the reverse (a user's rename beats an agent's summary). Claude
 * Code's `agent-name` is the name it shows for the session (a background job's, given when it starts;
 * `/rename` writes it beside `custom-title`): chosen for the session, so above the title it guesses
 * from the conversation (`ai-title`), and below the user's own rename.
 */
export const TITLE_SOURCES = ['sidecar', 'summary', 'ai-title', 'agent-name', 'custom-title'] as const;
export type TitleSource = (typeof TITLE_SOURCES)[number];

/**
 * What a search can be narrowed to (history): a part's kind, each indexed as its own field, so "only what
 * I said" (role user, kind text) and "only commands" (kind tool_use) are filters rather than guesses.
 */
export const SEARCH_KINDS = ['text', 'thinking', 'tool_use', 'tool_result'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
/**
 * The roles a search narrows to, the same for every agent: `user` what was said in the person's turn
 * (never a tool's output, though Claude Code writes that inside a user message), `assistant`, `system`
 * (Codex's agent messages, Gemini's notices, OpenClaw's summaries) and `tool`, every agent's tool output
 * (kind tool_result), whatever role its agent stored it under (Claude Code's user, Codex's and Gemini's
 * tool, OpenClaw's toolResult, which a search still takes as `tool`). The CLI and the MCP tool offer
 * these; a role typed wrong would otherwise match nothing and read as "No matches.".
 */
export const PART_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type PartRole = (typeof PART_ROLES)[number];

/** The stored roles every part of which is a tool's output: Codex's and Gemini's `tool`, OpenClaw's `toolResult`. */
export const TOOL_OUTPUT_ROLES = ['tool', 'toolResult'] as const;

/** Whether a role filter asks for tool output: `tool`, or `toolResult`, OpenClaw's name for it. */
export function asksToolOutput(role: string): boolean {
  return (TOOL_OUTPUT_ROLES as readonly string[]).includes(role);
}

/**
 * The role a part is found and shown under (PART_ROLES): a tool's output is `tool` whichever role its
 * agent stored it under, and so is every part OpenClaw stored as a toolResult (an image a tool returned
 * is no tool_result part, but is no less the tool's output).
 */
export function partRoleOf(kind: string, storedRole: string | null): string | null {
  return kind === 'tool_result' || (storedRole !== null && asksToolOutput(storedRole)) ? 'tool' : storedRole;
}
/** Relevance ranks by BM25; newest walks matches from the most recent line backwards. */
export const SEARCH_SORTS = ['relevance', 'newest'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
/** What can be forgotten: one conversation (with its subagents), or a whole project. */
export const FORGET_KINDS = ['session', 'project'] as const;
export type ForgetKind = (typeof FORGET_KINDS)[number];
