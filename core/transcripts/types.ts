import type { ProviderId, RootKey, SkipReason, TitleSource } from '../api/index.js';
import type { CodeCount } from '../log/index.js';

/**
 * Facts kept on a part, as bits of `PartRow.flags`. `genuineUserTurn` is decided once, at parse time:
 * the user's own words, not a slash-command echo, caveat, hook output, task notification, skill
 * expansion, compaction summary or a subagent's prompt. Whoever needs the rule reads the flag.
 */
export const PART_FLAGS = { meta: 1, compactSummary: 2, sidechain: 4, genuineUserTurn: 8 } as const;

/**
 * A message is one or more parts, its content blocks, and every provider ends a part id with
 * `:{block}`. Where a provider numbers its blocks, the part of block 0 stands for its message, and
 * this says so from the id alone. Gemini names its blocks (`c0`, `th0`, `tu-…`, see namedBlock) and a
 * message gains blocks as Gemini rewrites its file: the first of them stored stands for it, so the
 * writer asks whether a part of `messageOf(id)` was stored before (Sink; the search index's counts
 * apply the same rule in SQL: STARTS_MESSAGE_SQL).
 */
export function startsMessage(partId: string): boolean {
  return partId.endsWith(':0');
}

/**
 * The role OpenClaw (pi) stores a tool's result under, whatever its blocks: an image a tool returned
 * (a screenshot) is an `image` part of it, so its kind alone does not say it is a tool's.
 */
export const TOOL_RESULT_ROLE = 'toolResult';

/**
 * Whether a message counts as one, told by the part that stands for it (startsMessage): a person
 * reads a tool's result folded under its call, not as a message of its own, so a message that part
 * is a tool result of (Claude's user line of results, Codex's function call output, Gemini's function
 * response), or that OpenClaw stored as a toolResult (TOOL_RESULT_ROLE: one that holds only an image
 * stands as an image), is not counted, unless the person's own words share it (`personSpeaks`: a part
 * of the message has the genuineUserTurn flag; asked only of a tool result). Every count of messages
 * applies this rule: the sink's as parts land, and the search index's per session in SQL
 * (COUNTS_AS_MESSAGE_SQL, its twin).
 */
export function countsAsMessage(standing: { kind: string; role: string | null }, personSpeaks: () => boolean): boolean {
  return (standing.kind !== 'tool_result' && standing.role !== TOOL_RESULT_ROLE) || personSpeaks();
}

/** Whether a part id's block is a name (Gemini's), not a number. */
export function namedBlock(partId: string): boolean {
  const first = partId.charCodeAt(partId.lastIndexOf(':') + 1);
  return !(first >= 48 && first <= 57);
}

/** A part id without its block, up to and with the last `:`: the ids of a message's parts share it. */
export function messageOf(partId: string): string {
  return partId.slice(0, partId.lastIndexOf(':') + 1);
}

/** One content block of one message, already bounded. */
export interface PartRow {
  partId: string;
  sessionId: string;
  provider: ProviderId;
  role: string | null;
  kind: string;
  /** UTC epoch milliseconds of the line, when it had one. */
  ts: number | null;
  text: string | null;
  /** Small JSON object (tool name, truncation/hash facts, image metadata); never a payload. */
  meta: string | null;
  /** PART_FLAGS bits. */
  flags: number;
  /**
   * What the entry says, independent of its id (OpenClaw: timestamp, role and a content hash, with the
   * block index): a file rewritten with new ids does not store the same entry twice. Null elsewhere.
   */
  contentKey: string | null;
}

/** What one file says about one session; the sink merges these into `sessions`. */
export interface SessionRow {
  sessionId: string;
  provider: ProviderId;
  /** 'code' (a Claude Code root), 'desktop' (a Claude Desktop sandbox home) or 'openclaw'. */
  source: string;
  cwd: string | null;
  parentSessionId: string | null;
  agentType: string | null;
  /** 'sidecar' (authoritative) or 'task' (the parent's Task/Agent call): a sidecar's type wins. */
  agentTypeSource: 'sidecar' | 'task' | null;
  title: string | null;
  titleSource: TitleSource | null;
  /**
   * The folder the session's project is, whatever the lines' cwd says (Cowork: the folder the user
   * selected, else the one Claude Desktop project). Null: the project is the session's cwd, or, from a
   * file that is not the session's own (see ownFile), the one the cache holds.
   */
  projectCwd: string | null;
  /**
   * The file is the session's own (Claude: ownsSession), so what it says of the project stands, a
   * null projectCwd included: a session an older parser moved by lines copied into another file goes
   * back when its own file is read again. False from a file that only holds copies of its lines, and
   * from providers whose copies never said a project.
   */
  ownFile: boolean;
  /** 'subagent' (a Task/Agent transcript) or 'branch' (a session branched from another); null without a parent. */
  parentKind: 'subagent' | 'branch' | null;
  /** The parent's transcript is gone: the session stays top-level unless the cache already holds the parent. */
  parentMissing: boolean;
  /**
   * The message another file holds that the session's first line follows, as its parts' id prefix
   * (Claude: `cc:{parentUuid}:`, a continuation that copied nothing, #8524): the sink makes the session
   * holding it the parent, as a branch, unless the session has one (Sink: one seek of the part_id key).
   */
  followsMessage: string | null;
  /** The model of the latest assistant message read. */
  model: string | null;
  /** The first genuine user words of the session, bounded: a name for an untitled session. */
  firstRequest: string | null;
  firstTs: number | null;
  lastTs: number | null;
  /** The file only described this session (a title, a model): it updates a row the cache holds, never creates one. */
  updateOnly: boolean;
}

/**
 * A title for the session holding a message (Claude's `summary` line names its `leafUuid`, which may
 * live in another file); when no stored message has that id, it titles `fallbackSessionId`.
 */
export interface TitleClaim {
  /** Part ids of the leaf message start with this (`cc:{uuid}:`). */
  leafPartPrefix: string;
  fallbackSessionId: string;
  title: string;
  source: TitleSource;
}

export interface TranscriptBatch {
  parts: PartRow[];
  sessions: SessionRow[];
  /** Titles to resolve against the cache (final batch of a file only). */
  titleClaims?: TitleClaim[];
}

/** A discovered transcript file, deduplicated by (dev, ino). */
export interface TranscriptFile {
  path: string;
  dev: bigint;
  ino: bigint;
  size: number;
  mtimeMs: number;
  /**
   * The inode's change time, to the microsecond as `mtimeMs`: no one can set it back, so a file rewritten
   * to the same size with its mtime set back (utimes) still shows it changed. So does a chmod, a new
   * link or an xattr: a ctime that moved alone is verified against the checkpoint's hashes, not read whole.
   */
  ctimeMs: number;
  source: string;
  /** A sidecar that describes this transcript (Cowork `local_<uuid>.json`), read only when the file is read. */
  sidecar?: string;
  /**
   * The file only describes transcripts (Codex's session_index.jsonl, read on its own so a rename made
   * after a rollout was read lands without reading the rollout): read and checkpointed like one, but
   * no transcript in a run's counts.
   */
  describesOnly?: true;
}

/**
 * Where a read may resume: the byte offset through the last complete line consumed, hashes of the
 * file's head and of the bytes just before the offset (both are checked before resuming), and the
 * provider's own parser state at that offset (JSON). A whole-file or database provider keeps what it
 * needs in `state` and may ignore the offset.
 */
export interface ReadCheckpoint {
  offset: number;
  headHash: string;
  tailHash: string;
  state: unknown;
  /**
   * The file's lines the reads up to here left out as older than their window, given by a provider
   * that keeps that count in its own state (a store read on per session); the run counts it otherwise.
   * Null: not known (read on from a state written before the count was kept).
   */
  olderLeftOut?: number | null;
  /**
   * Every conversation the file holds, given by a provider whose read goes on per conversation and so
   * meets only those that changed (an OpenClaw store): what is not listed is no longer in the file,
   * though the file is there (FileCheckpoints.put marks it gone there).
   */
  holds?: string[];
  /**
   * Of `holds`, the conversations whose lines are in another file the store only names (an OpenClaw
   * cold archive under `sessions/cold/`), by that file's path: that file holds them, and its deletion
   * leaves Steward's rows their only copy (FileCheckpoints.put names it on their holds).
   */
  heldIn?: Record<string, string>;
}

/** Per-file line accounting; never paths or content. */
export interface LineStats {
  lines: number;
  failedLines: number;
  oversizeLines: number;
  /** Lines that yielded no part, by reason (see countSkip). */
  skipped?: Partial<Record<SkipReason, number>>;
  /** Transcript bytes read, checkpoint checks included. */
  bytesRead?: number;
  /** Where the next read may resume; set by a provider that supports checkpoints, once the file is read through. */
  checkpoint?: ReadCheckpoint;
  /**
   * The read went on from `ReadOptions.resume` instead of the file's start: its counts are of what
   * followed the checkpoint, and add to what the reads before it counted.
   */
  resumed?: boolean;
}

export interface ReadOptions {
  maxLineBytes: number;
  /** Lines older than this are outside the retention window and produce nothing; null = open window. */
  windowStartMs: number | null;
  batchParts: number;
  /** Resume from a checkpoint (scheduled runs); the provider re-reads from 0 when it no longer fits the file. */
  resume?: ReadCheckpoint;
}

export interface DiscoveryResult {
  files: TranscriptFile[];
  /** Entries that could not be listed or stat'ed. */
  failed: number;
  /** The failures above by error code (never a path). */
  errors?: CodeCount[];
  /** True when the run's signal stopped the walk: `files` is then only part of the tree. */
  cancelled?: boolean;
}

/** A transcript provider plugin. */
export interface TranscriptProvider {
  readonly id: ProviderId;
  /**
   * Bumped whenever the parser starts yielding something new from the same bytes (a field, a flag, an
   * id rule): a checkpoint written by another version is not trusted, so each file is read again once.
   */
  readonly parserVersion: number;
  /** Enumerates the roots on every call (new sandbox homes and files appear between runs); `signal` stops it. */
  discover(signal?: AbortSignal): Promise<DiscoveryResult>;
  /** Streams one file as batches; the stats object is filled as lines are consumed. */
  read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch>;
}

/** A provider's entry in the registry: where its roots are by default, and how it is built over them. */
export interface ProviderDefinition<P extends ProviderId = ProviderId> {
  id: P;
  /** The real default folders of each kind of root, from the user's environment. */
  defaultRoots(env: NodeJS.ProcessEnv): Record<RootKey<P>, string[]>;
  create(roots: Record<RootKey<P>, string[]>): TranscriptProvider;
  /**
   * Its part ids come from its own message ids, which a resumed or forked session copies into its new
   * file (Claude Code's `uuid`): a part id stored already is a copy of that message, and one in other
   * words is counted (`differing_copy`), never dropped silently. Other agents' ids repeat only in their
   * own file (a Gemini message written again as it grows, read as its provider decides).
   */
  copiesMessageIds?: true;
}
