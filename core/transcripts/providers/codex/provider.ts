import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { PROVIDERS } from '../../../api/constants/index.js';
import { basename, join } from 'node:path';
import { metaJson, parseTs } from '../../bounds.js';
import { readCompressedLines } from '../../compressed.js';
import { countMalformed, countRecordError, countSkip, readCompleteLines, recountNotATranscript, resumeOffset, type LineChunk } from '../../lines.js';
import { asObject, asString, parseLine, Projection, type Json } from '../../projection.js';
import { Scan } from '../../scan.js';
import { PART_FLAGS, type DiscoveryResult, type LineStats, type ReadOptions, type SessionRow, type TranscriptBatch, type TranscriptFile, type TranscriptProvider } from '../../types.js';
import { compactedBlocks, environmentCwd, itemBlocks, type CodexBlock } from './items.js';
import { INDEX_SOURCE, readSessionIndex, SessionIndex } from './session-index.js';

/** A rollout, or one Codex compressed after it went cold (`rollout-*.jsonl.zst`). */
const ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;
const UUID_TAIL = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i;
/** Lines that describe the session or the UI rather than hold the conversation (`event_msg` mirrors `response_item`). */
const META_LINES = new Set(['session_meta', 'turn_context', 'world_state', 'event_msg', 'inter_agent_communication_metadata']);

/** `sessions/YYYY/MM/DD/rollout-*.jsonl` (and the oldest flat `sessions/rollout-*.jsonl`); `archived_sessions/` is flat. */
const rules = (maxDepth: number) => ({ acceptFile: (name: string) => ROLLOUT.test(name), acceptDir: (name: string) => /^\d+$/.test(name), maxDepth, source: PROVIDERS.codex.roots.roots.source });

/**
 * 1: the first parser of rollouts. 2: the session's model, from `turn_context`. 3: newer harness
 * context (skills, subagent and goal notes, plugin lists, warnings) is not the user's words; messages between agents are parts.
 * 4: a Windows cwd in its verbatim form (`\\?\C:\…`) keys the project of `C:\…` (read again, a session moves there).
 * 5: a plain string in a message's content array is text (the user's words, the session's first request), not an `unknown` block `{}`.
 * 6: a `session_meta` without an id still gives the session its cwd (and so its project) and where it came from.
 * 7: a shell output in text form (`Exit code: 1`, unified exec's `Process exited with code 1`) marks a failed call as JSON's did.
 * 8: a tool output's images (`input_image` items) are kept as their count and each one's type and size
 * (meta `images`, `imageFacts`), no longer dropped; read again, stored results gain them.
 * 9: a tool output over its cap keeps its end as well as its start (boundResult); read again, stored
 * outputs cut short gain their ends.
 */
export const CODEX_PARSER_VERSION = 9;

/** A session whose lines a fork replays: the one it names, and each one a copied `session_meta` names, from its start. */
interface Ancestor {
  id: string;
  start: number | null;
}

/** What a session's first meta says of it (see `describe`). */
type Described = Pick<SessionRow, 'cwd' | 'parentSessionId' | 'parentKind' | 'agentType' | 'agentTypeSource'>;

/** What a later read of an envelope-era rollout needs to go on at its checkpoint's offset. */
interface RolloutState {
  sessionId: string;
  named: boolean;
  metaTs: number | null;
  /** Both absent in checkpoints written before forks were told apart: no ancestor known. */
  ancestors?: Ancestor[];
  /** A fork read before its first turn had no part of its own, so its row was not written: a later read writes it whole. */
  described?: Described;
  /** Set while no line read so far had any shape of Codex's (see RolloutReader.shaped): the file is no transcript. */
  notATranscript?: true;
}

const isStart = (value: unknown): value is number | null => value === null || typeof value === 'number';
const isText = (value: unknown): value is string | null => value === null || typeof value === 'string';

function isAncestor(value: unknown): value is Ancestor {
  const ancestor = asObject(value);
  return ancestor !== undefined && typeof ancestor.id === 'string' && isStart(ancestor.start);
}

function isDescribed(value: unknown): value is Described {
  const d = asObject(value);
  return (
    d !== undefined &&
    [d.cwd, d.parentSessionId, d.agentType].every(isText) &&
    [null, 'subagent', 'branch'].includes(d.parentKind as string) &&
    [null, 'sidecar', 'task'].includes(d.agentTypeSource as string)
  );
}

function isRolloutState(value: unknown): value is RolloutState {
  const state = asObject(value);
  if (state === undefined || typeof state.sessionId !== 'string' || typeof state.named !== 'boolean' || !isStart(state.metaTs)) return false;
  const ancestors = state.ancestors === undefined || (Array.isArray(state.ancestors) && state.ancestors.every(isAncestor));
  const notATranscript = state.notATranscript === undefined || state.notATranscript === true;
  return ancestors && notATranscript && (state.described === undefined || isDescribed(state.described));
}

/** The session a file holds when no line names one: the UUID at the end of its rollout name, else its base name. */
export function sessionIdFromName(path: string): string {
  return UUID_TAIL.exec(basename(path))?.[1] ?? basename(path).replace(/\.jsonl(\.zst)?$/, '');
}

/** What the session's first `session_meta` says about where it came from. */
function describe(session: SessionRow, meta: Json): void {
  session.cwd ??= asString(meta.cwd) ?? null;
  const source = asObject(meta.source);
  const subagent = source?.subagent;
  const spawn = asObject(asObject(subagent)?.thread_spawn);
  const forkedFrom = asString(meta.forked_from_id);
  const spawnedBy = asString(meta.parent_thread_id) ?? asString(spawn?.parent_thread_id);
  if (session.parentSessionId === null && (forkedFrom ?? spawnedBy)) {
    // A fork is a conversation of its own that names where it came from; a spawned thread is a subagent.
    session.parentSessionId = forkedFrom ?? spawnedBy!;
    session.parentKind = forkedFrom ? 'branch' : 'subagent';
  }
  const agentType = (asString(meta.agent_role) ?? asString(spawn?.agent_role) ?? asString(subagent) ?? asString(meta.agent_nickname))?.slice(0, 200);
  if (session.agentType === null && agentType) {
    session.agentType = agentType;
    session.agentTypeSource = 'sidecar';
  }
}

/**
 * One rollout file. Lines carry no ids, so a part is keyed by a hash of its line's bytes: the path
 * never enters the key, so a rollout moved to `archived_sessions/`, compressed, or reached by another
 * root adds nothing, and a fork's byte-for-byte replay of its parent's lines collapses onto the
 * parent's parts. A line with its own timestamp is unique by its bytes alone, and its key depends on
 * no earlier line (a read that starts mid-file keys it the same way); the oldest rollouts have no
 * timestamps, so their keys are scoped by the session and count repeats of the same bytes.
 *
 * The key names no session, so the session a line belongs to must not depend on which file is read
 * first (the gateway keeps the first row of a part id): a line in a fork or spawned thread stamped
 * before that session began was written by an ancestor, and is that ancestor's part in either file.
 */
class RolloutReader {
  readonly projection = new Projection('codex', PROVIDERS.codex.roots.roots.source);
  /** The file's own session: its first `session_meta`, else its name. */
  #sessionId: string;
  #named = false;
  /** The bare era has no per-line timestamps: its lines take the session's start. */
  #metaTs: number | null = null;
  readonly #seen = new Map<string, number>();
  readonly #options: ReadOptions;
  readonly #stats: LineStats;

  /** A bare-era item was keyed: its keys count repeats from the file's start, so no read may start mid-file. */
  #bareSeen = false;
  /** Empty unless the file's session names a parent: then the parent first, and every session a copied meta names. */
  #ancestors: Ancestor[];
  /**
   * Whether a line had any shape of Codex's: an envelope (a type and a payload, whatever the type), or a
   * bare-era meta, state marker or item. A file none of whose lines had (notes left under a rollout's
   * name) is no transcript. A read going on from a checkpoint follows lines already read: of a
   * transcript, unless its state says they were none.
   */
  #shaped: boolean;

  constructor(file: TranscriptFile, options: ReadOptions, stats: LineStats, state: RolloutState | undefined) {
    this.#sessionId = state?.sessionId ?? sessionIdFromName(file.path);
    this.#named = state?.named ?? false;
    this.#metaTs = state?.metaTs ?? null;
    this.#ancestors = state?.ancestors ?? [];
    if (state?.described) Object.assign(this.#session(), state.described);
    this.#shaped = state !== undefined && state.notATranscript !== true;
    this.#options = options;
    this.#stats = stats;
  }

  get sessionId(): string {
    return this.#sessionId;
  }

  get shaped(): boolean {
    return this.#shaped;
  }

  /** Where a later read may go on, or undefined when only a read from the start keys its lines the same. */
  state(): RolloutState | undefined {
    if (this.#bareSeen) return undefined;
    const state: RolloutState = { sessionId: this.#sessionId, named: this.#named, metaTs: this.#metaTs };
    if (!this.#shaped) state.notATranscript = true;
    if (this.#ancestors.length === 0) return state;
    const { cwd, parentSessionId, parentKind, agentType, agentTypeSource } = this.#session();
    return { ...state, ancestors: this.#ancestors, described: { cwd, parentSessionId, parentKind, agentType, agentTypeSource } };
  }

  line(text: string): void {
    const line = parseLine(text);
    if (!line) return countMalformed(this.#stats);
    try {
      const payload = asObject(line.payload);
      if (typeof line.type === 'string' && payload) return this.#envelope(text, line.type, payload, parseTs(line.timestamp));
      this.#bare(text, line);
    } catch (error) {
      countRecordError(this.#stats, error);
    }
  }

  #envelope(text: string, type: string, payload: Json, ts: number | null): void {
    this.#shaped = true;
    if (type === 'session_meta') this.#meta(payload, ts);
    if (type === 'turn_context') this.#turn(payload);
    if (META_LINES.has(type)) return countSkip(this.#stats, 'meta_only');
    if (type === 'compacted') return this.#emit(this.#lineKey(text, false), compactedBlocks(payload), ts);
    if (type !== 'response_item') return countSkip(this.#stats, 'unknown_type');
    this.#item(text, payload, ts, false);
  }

  /** Rollouts before the envelope: a bare meta line, bare items, and `{"record_type":"state"}` markers. */
  #bare(text: string, line: Json): void {
    if (line.record_type !== undefined) {
      this.#shaped = true;
      return countSkip(this.#stats, 'meta_only');
    }
    if (line.type === undefined && asString(line.id) && line.timestamp !== undefined) {
      this.#shaped = true;
      this.#meta(line, parseTs(line.timestamp));
      return countSkip(this.#stats, 'meta_only');
    }
    const cwd = environmentCwd(line);
    if (cwd) this.#session().cwd ??= cwd;
    this.#item(text, line, parseTs(line.timestamp) ?? this.#metaTs, true);
  }

  #meta(meta: Json, ts: number | null): void {
    const id = asString(meta.id) ?? asString(meta.session_id);
    // Line 1 names the file's session; a later meta is a fork's copy of its parent's.
    if (this.#named) return id ? this.#copiedMeta(id, meta, ts) : undefined;
    this.#named = true;
    // A meta without an id still describes the session: it keeps the id of the file's name.
    if (id && !this.projection.hasSession(this.#sessionId)) this.#sessionId = id;
    this.#metaTs = parseTs(meta.timestamp) ?? ts;
    const session = this.#session();
    describe(session, meta);
    if (session.parentSessionId !== null) this.#ancestors = [{ id: session.parentSessionId, start: null }];
  }

  /** An ancestor's own meta, replayed: when that session began, and what it says of that session. */
  #copiedMeta(id: string, meta: Json, ts: number | null): void {
    if (this.#ancestors.length === 0 || id === this.#sessionId) return;
    const start = parseTs(meta.timestamp) ?? ts;
    const known = this.#ancestors.find((a) => a.id === id);
    if (known) known.start ??= start;
    else this.#ancestors.push({ id, start });
    describe(this.projection.session(id), meta);
  }

  /**
   * The session a line belongs to. A fork's lines stamped before it began are copies: each is the
   * ancestor's that had begun last when it was written (a fork of a fork replays both ancestors),
   * else the parent's. Lines without a timestamp, and every line of a session with no parent, are the file's own.
   */
  #owner(ts: number | null): string {
    if (this.#ancestors.length === 0 || ts === null || this.#metaTs === null || ts >= this.#metaTs) return this.#sessionId;
    let owner: Ancestor | undefined;
    for (const a of this.#ancestors) if (a.start !== null && a.start <= ts && (owner?.start ?? -Infinity) < a.start) owner = a;
    return (owner ?? this.#ancestors[0]!).id;
  }

  /** Each turn names its cwd and model: the first cwd stays, the latest model is the session's. */
  #turn(context: Json): void {
    const session = this.#session();
    session.cwd ??= asString(context.cwd) ?? null;
    session.model = asString(context.model)?.slice(0, 200) ?? session.model;
  }

  #item(text: string, item: Json, ts: number | null, bare: boolean): void {
    const blocks = itemBlocks(item);
    if (blocks === undefined) return countSkip(this.#stats, 'unknown_type');
    this.#shaped = true;
    // Keyed only when it yields parts: the repeat count covers the lines that are stored.
    if (blocks.length === 0) return countSkip(this.#stats, 'meta_only');
    this.#emit(this.#lineKey(text, bare), blocks, ts);
  }

  #session(): SessionRow {
    return this.projection.session(this.#sessionId);
  }

  #emit(key: string, blocks: CodexBlock[], ts: number | null): void {
    if (blocks.length === 0) return countSkip(this.#stats, 'meta_only');
    if (this.#options.windowStartMs !== null && ts !== null && ts < this.#options.windowStartMs) return countSkip(this.#stats, 'outside_window');
    const session = this.projection.session(this.#owner(ts));
    // Harness context was dropped with the block (see items.ts): a user's text that is left is their
    // words, except in a spawned subagent's thread, whose prompts the main agent wrote.
    const sidechain = session.parentKind === 'subagent';
    const genuine = (block: CodexBlock) => block.role === 'user' && block.kind === 'text' && (block.text ?? '').trim() !== '' && !sidechain;
    // Every row of the line is built before any is added: one that throws (too deep) leaves the line counted, nothing of it stored.
    const parts = blocks.map((block) => {
      const flags = (genuine(block) ? PART_FLAGS.genuineUserTurn : 0) | (block.kind === 'compaction' ? PART_FLAGS.compactSummary : 0) | (sidechain ? PART_FLAGS.sidechain : 0);
      return { partId: `cx:${key}:${block.index}`, sessionId: session.sessionId, provider: 'codex' as const, role: block.role, kind: block.kind, ts, text: block.text, meta: metaJson(block.meta), flags, contentKey: null };
    });
    blocks.forEach((block, i) => {
      if (genuine(block)) this.projection.request(session, block.text!);
      this.projection.add(parts[i]!, session);
    });
  }

  /** `{hash}` for a timestamped line; `{session}:{hash}`, and `.{n}` for its n-th repeat, for a bare one. */
  #lineKey(text: string, bare: boolean): string {
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 24);
    if (!bare) return hash;
    this.#bareSeen = true;
    const key = `${this.#sessionId}:${hash}`;
    const n = this.#seen.get(key) ?? 0;
    this.#seen.set(key, n + 1);
    return n === 0 ? key : `${key}.${n}`;
  }
}

/** The complete lines of a plain file, above-cap lines (already counted) left out. */
async function* linesOf(chunks: AsyncGenerator<LineChunk>): AsyncGenerator<string[]> {
  for await (const chunk of chunks) yield chunk.lines.filter((line): line is string => line !== null);
}

/** The lines of a compressed rollout, above-cap lines (already counted) left out. */
async function* withinCap(groups: AsyncGenerator<Array<string | null>>): AsyncGenerator<string[]> {
  for await (const group of groups) yield group.filter((line): line is string => line !== null);
}

export class CodexProvider implements TranscriptProvider {
  readonly id = 'codex' as const;
  readonly parserVersion = CODEX_PARSER_VERSION;
  readonly #roots: readonly string[];
  readonly #titles = new SessionIndex();

  constructor(roots: readonly string[]) {
    this.#roots = roots;
  }

  async discover(signal?: AbortSignal): Promise<DiscoveryResult> {
    const scan = new Scan(signal);
    for (const root of this.#roots) {
      const before = scan.files.length;
      await scan.walk(join(root, 'sessions'), rules(3));
      await scan.walk(join(root, 'archived_sessions'), rules(0));
      // Thread names live beside the rollouts: read with a rollout, and on their own when they change.
      const index = join(root, 'session_index.jsonl');
      for (const file of scan.files.slice(before)) file.sidecar = index;
      const info = await stat(index, { bigint: true }).catch(() => undefined);
      if (info?.isFile()) scan.addFile(index, info, INDEX_SOURCE, undefined, true);
    }
    return scan.result();
  }

  async *read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    if (file.source === INDEX_SOURCE) return yield* readSessionIndex(file, options, stats);
    // A cold-compressed rollout holds the same lines, so the same part ids as before it was compressed.
    const compressed = file.path.endsWith('.zst');
    const saved = !compressed && isRolloutState(options.resume?.state) ? options.resume.state : undefined;
    const start = saved ? await resumeOffset(file.path, options.resume, file.size, stats) : 0;
    const reader = new RolloutReader(file, options, stats, start > 0 ? saved : undefined);
    const source = compressed
      ? withinCap(readCompressedLines(file.path, options, stats))
      : linesOf(readCompleteLines(file.path, { maxLineBytes: options.maxLineBytes, start, end: file.size, ...(start > 0 && options.resume ? { headHash: options.resume.headHash } : {}) }, stats));
    for await (const lines of source) {
      for (const text of lines) {
        if (text.length === 0) countSkip(stats, 'empty');
        else reader.line(text);
        if (reader.projection.pending >= options.batchParts) yield reader.projection.take(false);
      }
    }
    if (!reader.shaped) recountNotATranscript(stats);
    const title = file.sidecar ? await this.#titles.title(file.sidecar, reader.sessionId) : undefined;
    if (title && reader.projection.hasSession(reader.sessionId)) reader.projection.title(reader.projection.session(reader.sessionId), title, 'sidecar');
    // A compressed rollout is never appended to: its checkpoint only says it was read whole.
    if (compressed) stats.checkpoint = { offset: file.size, headHash: '', tailHash: '', state: null };
    else if (stats.checkpoint) {
      const state = reader.state();
      // A bare-era rollout resumes from 0: its repeat counts start at the file's first line.
      stats.checkpoint = state ? { ...stats.checkpoint, state } : { ...stats.checkpoint, offset: 0, state: null };
    }
    yield reader.projection.take(true);
  }
}
