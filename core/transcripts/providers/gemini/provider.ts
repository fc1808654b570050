import { constants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { PROVIDERS, type SkipReason } from '../../../api/constants/index.js';
import { basename, join, sep } from 'node:path';
import { metaJson, parseTs } from '../../bounds.js';
import { countMalformed, countRecordError, countSkip, MalformedFile, readCompleteLines, recountNotATranscript, withoutBom } from '../../lines.js';
import { asObject, asString, parseLine, Projection, type Json } from '../../projection.js';
import { Scan } from '../../scan.js';
import { PART_FLAGS, type DiscoveryResult, type LineStats, type PartRow, type ReadOptions, type SessionRow, type TranscriptBatch, type TranscriptFile, type TranscriptProvider } from '../../types.js';
import { RecordedHistory, turnSignature } from './history.js';
import { isCompressionAck, messageBlocks, type GeminiBlock } from './messages.js';
import { ProjectPaths } from './projects.js';
import { unknownFolderProject } from './folders.js';

/**
 * 1: the first parser of chats. 2: the session context, hook context, referenced files' contents and
 * compression summaries Gemini records in user turns are not the user's words; a tool response
 * recorded as a user turn is not stored beside the call's own result. 3: turns Gemini records again
 * under new ids (a compression, a tool-output masking) are not stored again; a chat whose folder
 * Gemini registered nowhere joins the "Gemini CLI" project instead of one named after the Gemini folder.
 * 4: a subagent's prompts are side-chain parts, never the person's words (read again, stored ones are
 * rewritten so); a legacy chat above `sweep.max_line_bytes` is read, up to its own bound (`documentCap`).
 * 5: a legacy chat that does not parse (cut short, damaged) is a file that could not be read
 * (`malformed`), named to the person, no longer one unreadable line of a chat said to be up to date;
 * an empty one is an empty line. Read again, one an older parser checkpointed so gets named.
 * 6: a chat whose folder Gemini registered nowhere has the project of its own Gemini folder ("Gemini
 * CLI project 1a2b3c4d (folder unknown)"), which the owner resolves to a folder another agent's
 * sessions made known (KnownFolders), not the one "Gemini CLI" project every such chat shared; a
 * chat's own file says its project (ownFile), so one registered later moves on its next read; the
 * reply Gemini writes after a compression summary ("Got it. Thanks for the additional context!") is
 * no message (`meta_only`). Read again, chats in "Gemini CLI" move to their folder's project.
 * 7: a JSONL message re-emitted under its id keeps its last version (a block whose words changed is
 * rewritten, not kept as first read); the turns a `$rewindTo` dropped carry `rewound: true` in their
 * meta (kept, never deleted). Read again, stored parts take their last version and the mark.
 * 8: the images a tool returned (`inlineData` inside a function response or beside it) are kept as
 * their count and each one's type and size (meta `images`, `imageFacts`), no longer dropped, and a
 * result of only images is stored; read again, stored results gain them. An image beside a response
 * is shown once: as its own part of the user turn that sent the response back, when one holds it,
 * else in the entry's result. And a call in a record's content is named as its `toolCalls` entry
 * names it (`tu-{callId}`; one the model sent without an id by its rank among the content's calls,
 * `tu-c{n}`, which its entry then takes too), not by its place among the parts; an entry written after
 * a copy of its call was stored (the call in the content, the response sent back as a user turn)
 * takes the copy's part instead of adding a second call, and an entry is the id-less content call at
 * its place naming the same tool (so a legacy chat, read only as its latest version, stores it once
 * too). Gateway step 33 renamed the calls parser 7 stored from a content under `c{i}` to these names
 * first, so the read again finds them stored; one it could not rename (its name stored already, or an
 * id-less call's rank unknown) stays beside the new one (nothing is deleted).
 * 9: a function response over its cap keeps its end as well as its start (boundResult); read again,
 * stored results cut short gain their ends.
 */
export const GEMINI_PARSER_VERSION = 9;

/**
 * The bound on a legacy chat, one JSON document read whole: it is no line but the whole chat, so the
 * line cap would lose every message of it, after every rewrite. 64 MiB (agentsview's line cap), or
 * `sweep.max_line_bytes` when that is larger: the read holds the document several times over at once
 * (its bytes, its text, its parsed tree), a few hundred MB for 64 MiB, which the reader can afford
 * where a bound in the GB could not. Never above V8's longest string, which its text could not be.
 * A chat above it is counted `too_large`.
 */
export const GEMINI_DOCUMENT_BYTES = 64 * 1024 * 1024;

export function documentCap(maxLineBytes: number): number {
  return Math.min(Math.max(maxLineBytes, GEMINI_DOCUMENT_BYTES), constants.MAX_STRING_LENGTH);
}

/**
 * The project of a chat whose folder Gemini CLI registered nowhere and that sits in no Gemini project
 * folder either: a name, not a folder (like "Claude Desktop"). A chat in one has its folder's own
 * project (unknownFolderProject).
 */
export const GEMINI_PROJECT = 'Gemini CLI';

/** `tmp/<project>/chats/session-*.json[l]`, and a subagent's `chats/<parentSessionId>/<sessionId>.jsonl`. */
const MAIN_CHAT = /^session-.+\.jsonl?$/;
const rules = {
  acceptFile: (name: string, depth: number) => (depth === 2 ? MAIN_CHAT.test(name) : depth === 3 && name.endsWith('.jsonl')),
  acceptDir: (name: string, depth: number) => depth === 1 || (depth === 2 && name === 'chats') || depth === 3,
  maxDepth: 3,
  source: PROVIDERS.gemini.roots.roots.source,
};

/** Where a chat file sits: its Gemini root, its project folder's id, and the parent a subagent's folder names. */
export interface ChatPlace {
  geminiRoot: string;
  projectId: string;
  parentSessionId: string | null;
}

export function chatPlace(path: string): ChatPlace | undefined {
  const parts = path.split(sep);
  const chats = parts.lastIndexOf('chats');
  if (chats < 3 || parts[chats - 2] !== 'tmp') return undefined;
  const nested = parts.length - chats === 3;
  return { geminiRoot: parts.slice(0, chats - 2).join(sep) || sep, projectId: parts[chats - 1]!, parentSessionId: nested ? parts[chats + 1]! : null };
}

interface ChatContext {
  place: ChatPlace | undefined;
  /** Only these messages' parts are kept (a replay for rewinds an earlier batch missed, see `lateRewound`). */
  only?: ReadonlySet<string>;
  /** The project path Gemini registered for this folder, when it did. */
  registeredCwd: string | undefined;
  options: ReadOptions;
  stats: LineStats;
}

/**
 * One chat file, legacy (one JSON document rewritten per turn) or current (JSONL: a header, message
 * records re-emitted as they grow, `$set` patches, `$rewindTo` markers). A part is keyed by the
 * session, the message id and the block's fixed key, and a message's last version wins (upsert by
 * id, as Gemini CLI loads it): a re-emission adds the blocks that are new and rewrites those that
 * changed, in the batch still pending or again in a later one; one that changes nothing is not
 * emitted again. Turns a rewind dropped stay, marked `rewound` in their meta.
 */
/** A message's block whose row is built, not yet kept (ChatReader's `#block`, `#keep`). */
interface BlockRow {
  block: GeminiBlock;
  partId: string;
  /** The part's time: its message's, or the one of the copy an entry's block took the place of. */
  ts: number | null;
  model: string | undefined;
  digest: string;
  rewound: boolean;
  meta: string | null;
}

/** A line whose every record was counted on its own (a checkpoint of messages each too deep): no reason of its own. */
const COUNTED = 'counted';

class ChatReader {
  readonly projection = new Projection('gemini', PROVIDERS.gemini.roots.roots.source);
  #sessionId: string;
  #directories: string | undefined;
  /** Each part emitted in this read, with a digest of what it said (its rewind mark aside). */
  readonly #emitted = new Map<string, string>();
  /** The parts of the batch not yet taken: a later version is written into them, not emitted twice. */
  #pending = new Map<string, PartRow>();
  /** The part ids each message emitted, for a rewind to mark. */
  readonly #partsOf = new Map<string, string[]>();
  /** Messages a rewind dropped, and the parts emitted marked so. */
  readonly #rewound = new Set<string>();
  readonly #marked = new Set<string>();
  /** Rewound messages some of whose parts an earlier batch yielded unmarked. */
  readonly #late = new Set<string>();
  /**
   * Each call's use (`tool_use`) or result (`tool_result`) this read stored, by what names the call
   * (see `#callNames`): the part it went into, whether a `toolCalls` entry (the call's own record)
   * wrote it, and its time. A copy of a call an entry wrote (a response recorded again as a user turn,
   * the call a history given back puts in a model turn's content: `updateMessagesFromHistory`) is not
   * stored again; an entry written after a copy was stored takes the copy's part. The file is read
   * whole on every change, so every read meets the same records in the same order and names the same
   * parts.
   */
  readonly #calls = new Map<string, { partId: string; entry: boolean; ts: number | null }>();
  /**
   * Calls whose images beside their response (`[functionResponse, inlineData]`) a user turn that sent
   * the response back stored as its own parts: their entry's result counts only the images inside its
   * responses (`alone`), so each image is shown once, whichever of the two is read first.
   */
  readonly #besideHeld = new Set<string>();
  /** Each entry's result with images beside its responses, by call id, as last placed: told later that a user turn holds them. */
  readonly #besideResults = new Map<string, { placed: Placed; messageId: string }>();
  /** The message list as Gemini holds it, to know a turn it recorded again under a new id. */
  readonly #history = new RecordedHistory();
  readonly #ctx: ChatContext;
  /** The last history turn read was a compression summary: Gemini CLI's own reply to it may follow. */
  #afterSummary = false;
  /** Ids of the replies Gemini CLI wrote to a compression summary: their re-emissions are no message either. */
  readonly #acks = new Set<string>();
  /**
   * Whether a record had any shape of Gemini's: a message, a session header, a patch, a rewind, or a
   * legacy document with messages or a session. A file with none (notes left under a chat's name) is no
   * transcript: its records are counted `not_a_transcript`, a real chat's keep their reasons.
   */
  #shaped = false;

  constructor(file: TranscriptFile, ctx: ChatContext) {
    // Only a file whose records carry no sessionId at all is named by its file.
    this.#sessionId = basename(file.path).replace(/\.jsonl?$/, '');
    this.#ctx = ctx;
  }

  /** The conversation's own fields: the legacy document itself, the JSONL header, or a `$set` patch. */
  metadata(record: Json): void {
    const id = asString(record.sessionId);
    if (id && !this.projection.hasSession(this.#sessionId)) this.#sessionId = id;
    const directories = Array.isArray(record.directories) ? asString(record.directories[0]) : undefined;
    if (directories) this.#directories = directories;
    const summary = asString(record.summary);
    if (summary) this.projection.title(this.#session(), summary, 'summary');
  }

  get shaped(): boolean {
    return this.#shaped;
  }

  /** A legacy chat's own fields, counted as one line: a chat's bookkeeping, or of no kind known when it names neither messages nor a session. */
  document(document: Json): void {
    this.metadata(document);
    if (Array.isArray(document.messages) || typeof document.sessionId === 'string') this.#shaped = true;
    countSkip(this.#ctx.stats, this.#shaped ? 'meta_only' : 'unknown_type');
  }

  /** One JSONL line, counted once: it stored a part, or it is skipped for one reason. */
  record(line: Json): void {
    try {
      this.#count(this.#line(line));
    } catch (error) {
      countRecordError(this.#ctx.stats, error);
    }
  }

  /** One message of a legacy document, counted as a line of its own: one too deep to read is that message, not the chat. */
  documentMessage(message: Json): void {
    this.#shaped = true;
    try {
      this.#count(this.#message(message));
    } catch (error) {
      countRecordError(this.#ctx.stats, error);
    }
  }

  #count(reason: SkipReason | typeof COUNTED | undefined): void {
    if (reason !== undefined && reason !== COUNTED) countSkip(this.#ctx.stats, reason);
  }

  #line(line: Json): SkipReason | typeof COUNTED | undefined {
    const reason = this.#record(line);
    if (reason !== 'unknown_type' || typeof line.id === 'string') this.#shaped = true;
    return reason;
  }

  #record(line: Json): SkipReason | typeof COUNTED | undefined {
    if (typeof line.$rewindTo === 'string') {
      for (const id of this.#history.rewind(line.$rewindTo)) this.#markRewound(id);
      return 'meta_only';
    }
    const patch = asObject(line.$set);
    if (patch) {
      this.metadata(patch);
      // `$set.messages` is a checkpoint of the whole list: its records are messages like any other.
      return Array.isArray(patch.messages) ? this.#checkpoint(patch.messages.map((message) => asObject(message) ?? {})) : 'meta_only';
    }
    if (typeof line.id === 'string') return this.#message(line, this.#history.line(line, line.id));
    this.#history.interrupt();
    if (typeof line.sessionId === 'string') {
      this.metadata(line);
      return 'meta_only';
    }
    return 'unknown_type';
  }

  /**
   * A checkpoint is one line however many messages it holds: a line that stored a part when any of
   * them did; else `duplicate` when it repeats messages already stored (what a checkpoint mostly
   * does), else its first message's reason (`meta_only` for an empty list).
   */
  #checkpoint(messages: Json[]): SkipReason | typeof COUNTED | undefined {
    let deep = false;
    // One message too deep to read is that message counted, as a legacy chat's is: not the ones beside it.
    const count = (error: unknown) => {
      countRecordError(this.#ctx.stats, error);
      deep = true;
    };
    const unreadable = new Set<Json>();
    // Every message stays in the history's list, a deep one too: a `$rewindTo` may name it.
    const signatureOf = (message: Json): string | undefined => {
      try {
        return turnSignature(message);
      } catch (error) {
        count(error);
        unreadable.add(message);
        return undefined;
      }
    };
    const copies = this.#history.checkpoint(messages, signatureOf);
    const reasons: Array<SkipReason | undefined> = [];
    for (const message of messages) {
      if (unreadable.has(message)) continue;
      try {
        reasons.push(this.#message(message, copies.has(asString(message.id) ?? '')));
      } catch (error) {
        count(error);
      }
    }
    // Every message too deep: each is counted (above), and the line is not counted again for a reason of its own.
    if (deep && reasons.length === 0) return COUNTED;
    if (reasons.includes(undefined)) return undefined;
    return reasons.includes('duplicate') ? 'duplicate' : (reasons[0] ?? 'meta_only');
  }

  /**
   * One message record, uncounted: `undefined` when it stored a part, else why not. A `copy` (a turn
   * recorded again under a new id) repeats what is stored under its original's id.
   */
  #message(message: Json, copy = false): SkipReason | undefined {
    const { options } = this.#ctx;
    const messageId = asString(message.id);
    if (!messageId) return 'no_id';
    const all = messageBlocks(message);
    if (all === undefined) return 'unknown_type';
    if (this.#isAck(message, messageId, all)) return copy ? 'duplicate' : 'meta_only';
    const ts = parseTs(message.timestamp);
    const blocks = all.flatMap((block) => this.#place(block, messageId, ts) ?? []);
    // Its blocks count as emitted, so the copy's later re-emissions add only what it gained.
    if (copy) {
      for (const { block, partId } of blocks) this.#emitted.set(partId, blockDigest(block, block.role === 'assistant' ? asString(message.model) : undefined));
      return 'duplicate';
    }
    if (options.windowStartMs !== null && ts !== null && ts < options.windowStartMs) return 'outside_window';
    const session = this.#session();
    // A tool call or response whose call's own record holds it is one recorded again.
    if (blocks.length === 0) return all.length > 0 ? 'duplicate' : 'meta_only';
    // Recorded again after a rewind dropped it, the message is in the conversation again.
    if (this.#rewound.delete(messageId)) this.#late.delete(messageId);
    // Every block's row is built before any is kept: one that throws (too deep) leaves none of the message stored.
    const changed = blocks.map((placed) => this.#block(message, messageId, placed)).filter((row) => row !== undefined);
    for (const row of changed) this.#keep(row, messageId, session);
    this.#holdBeside(blocks, session);
    // A re-emission that changed no block (only its token counts, say) repeats what is stored.
    return changed.length > 0 ? undefined : 'duplicate';
  }

  /** One block of a message, built: when new, or when it says something else than the version emitted. Changes nothing. */
  #block(message: Json, messageId: string, { block, partId, ts }: Placed): BlockRow | undefined {
    const model = block.role === 'assistant' ? asString(message.model) : undefined;
    const digest = blockDigest(block, model);
    const rewound = this.#rewound.has(messageId);
    if (this.#emitted.get(partId) === digest && this.#marked.has(partId) === rewound) return undefined;
    return { block, partId, ts, model, digest, rewound, meta: metaJson({ ...block.meta, model, rewound: rewound || undefined }) };
  }

  /** A built block kept: recorded as emitted, and its part put. */
  #keep({ block, partId, ts, model, digest, rewound, meta }: BlockRow, messageId: string, session: SessionRow): void {
    if (!this.#emitted.has(partId)) {
      const parts = this.#partsOf.get(messageId);
      if (parts) parts.push(partId);
      else this.#partsOf.set(messageId, [partId]);
    }
    this.#emitted.set(partId, digest);
    if (rewound) this.#marked.add(partId);
    else this.#marked.delete(partId);
    if (model) session.model = model.slice(0, 200);
    // A subagent's chat holds the prompts the main agent wrote, never the person's words.
    const sidechain = session.parentKind === 'subagent';
    const genuine = block.role === 'user' && block.kind === 'text' && (block.text ?? '').trim() !== '' && !sidechain;
    if (genuine) this.projection.request(session, block.text!);
    const flags = (genuine ? PART_FLAGS.genuineUserTurn : 0) | (block.kind === 'compaction' ? PART_FLAGS.compactSummary : 0) | (sidechain ? PART_FLAGS.sidechain : 0);
    this.#put({ partId, sessionId: this.#sessionId, provider: 'gemini', role: block.role, kind: block.kind, ts, text: block.text, meta, flags, contentKey: null }, session, messageId);
  }

  /** A part's latest version: written into the pending one, else emitted (again, when a batch took the first). */
  #put(part: PartRow, session: SessionRow, messageId: string): void {
    const pending = this.#pending.get(part.partId);
    if (pending) {
      Object.assign(pending, part);
      return;
    }
    if (this.#ctx.only && !this.#ctx.only.has(messageId)) return;
    this.#pending.set(part.partId, part);
    this.projection.add(part, session);
  }

  /** A message a rewind dropped: its pending parts are marked now; ones a batch took are marked by a replay (`lateRewound`). */
  #markRewound(messageId: string): void {
    this.#rewound.add(messageId);
    for (const partId of this.#partsOf.get(messageId) ?? []) {
      this.#marked.add(partId);
      const pending = this.#pending.get(partId);
      if (!pending) this.#late.add(messageId);
      else pending.meta = metaJson({ ...(JSON.parse(pending.meta ?? '{}') as Record<string, unknown>), rewound: true });
    }
  }

  /** A batch of what was read so far; its parts are no longer pending. */
  take(): TranscriptBatch {
    this.#pending = new Map();
    return this.projection.take(false);
  }

  /** Rewound messages a batch already yielded unmarked (still rewound at the end of the read). */
  lateRewound(): ReadonlySet<string> {
    return this.#late;
  }

  /** Parts a replay emitted, to go with the final batch. */
  adopt(parts: readonly PartRow[]): void {
    const session = this.#session();
    for (const part of parts) this.projection.add(part, session);
  }

  /** Everything emitted and not taken (a replay's parts: it takes no batch). */
  pendingParts(): PartRow[] {
    return [...this.#pending.values()];
  }

  /**
   * Gemini CLI's own reply right after a compression summary: part of the compaction, with nothing
   * to say, so not stored (counted `meta_only`, as the context Gemini puts in user turns is). The same
   * words anywhere else are the model's.
   */
  #isAck(message: Json, messageId: string, blocks: GeminiBlock[]): boolean {
    const type = message.type;
    if (type !== 'user' && type !== 'gemini') return this.#acks.has(messageId);
    const ack = this.#acks.has(messageId) || (this.#afterSummary && isCompressionAck(message));
    if (ack) {
      this.#acks.add(messageId);
      this.#afterSummary = false;
    } else this.#afterSummary = type === 'user' && blocks.some((block) => block.kind === 'compaction');
    return ack;
  }

  /**
   * The part a block goes into, or undefined for a copy of a call an entry already wrote. A call's
   * entry written after a copy of it was stored takes the copy's part (and time): the fuller record
   * wins in place. Entries are not merged with one another (each record's own call stays).
   */
  #place(block: GeminiBlock, messageId: string, ts: number | null): Placed | undefined {
    const own: Placed = { block, partId: `gm:${this.#sessionId}:${messageId}:${block.key}`, ts };
    const names = callNames(block, messageId);
    if (names.length === 0) return own;
    const known = names.map((name) => this.#calls.get(name)).find((call) => call !== undefined);
    if (!block.entry) {
      if (known?.entry) return undefined;
      for (const name of names) if (!this.#calls.has(name)) this.#calls.set(name, { partId: own.partId, entry: false, ts });
      return own;
    }
    // A result whose images beside its responses a user turn holds counts only the ones inside them.
    const beside = block.alone && typeof block.meta.toolUseId === 'string' ? block.meta.toolUseId : undefined;
    const shown = beside !== undefined && this.#besideHeld.has(beside) ? { ...block, meta: block.alone! } : block;
    // Only a copy this read emitted has a part to take (not one outside the window, say).
    const placed = known && !known.entry && this.#emitted.has(known.partId) ? { block: shown, partId: known.partId, ts: known.ts } : { ...own, block: shown };
    if (beside !== undefined) this.#besideResults.set(beside, { placed, messageId });
    for (const name of names) {
      const call = this.#calls.get(name);
      if (!call || !call.entry) this.#calls.set(name, { partId: placed.partId, entry: true, ts: placed.ts });
    }
    return placed;
  }

  /**
   * A user turn's images beside a response, stored as its parts: the entry's result emitted before
   * with them counted is emitted again counting only the images inside its responses.
   */
  #holdBeside(blocks: Placed[], session: SessionRow): void {
    for (const { block } of blocks) {
      if (block.beside === undefined || this.#besideHeld.has(block.beside)) continue;
      this.#besideHeld.add(block.beside);
      const held = this.#besideResults.get(block.beside);
      if (!held?.placed.block.alone || !this.#emitted.has(held.placed.partId)) continue;
      const row = this.#block({}, held.messageId, { ...held.placed, block: { ...held.placed.block, meta: held.placed.block.alone } });
      if (row) this.#keep(row, held.messageId, session);
    }
  }

  /**
   * The final batch: a session Gemini registered no folder for (nor recorded directories) has its
   * Gemini folder's own project, which the owner resolves to a known folder when its hash is one's.
   */
  finish(): TranscriptBatch {
    if (this.projection.hasSession(this.#sessionId)) {
      const session = this.#session();
      session.cwd ??= this.#directories ?? null;
      // The project, not the cwd: a re-read moves a session stored under another project.
      const place = this.#ctx.place;
      if (session.cwd === null) session.projectCwd = place ? unknownFolderProject(place.projectId) : GEMINI_PROJECT;
    }
    return this.projection.take(true);
  }

  #session(): SessionRow {
    const fresh = !this.projection.hasSession(this.#sessionId);
    const session = this.projection.session(this.#sessionId);
    if (fresh) {
      // A chat file is its session's own: what it says of the project stands, a folder registered since included.
      session.ownFile = true;
      session.cwd = this.#ctx.registeredCwd ?? null;
      session.parentSessionId = this.#ctx.place?.parentSessionId ?? null;
      if (session.parentSessionId !== null) session.parentKind = 'subagent';
    }
    return session;
  }
}

/** A block and the part it goes into. */
interface Placed {
  block: GeminiBlock;
  partId: string;
  ts: number | null;
}

/**
 * What names a tool call's use or result across a chat's records: its id; and, for a use, its place in
 * its record with its tool's name (`{message} #{slot} {name}`), which is all that names a call the
 * model sent without an id, so the entry written at its place later is the same call. None for any
 * other block.
 */
function callNames(block: GeminiBlock, messageId: string): string[] {
  if (block.kind !== 'tool_use' && block.kind !== 'tool_result') return [];
  const id = block.meta.toolUseId;
  const names = typeof id === 'string' ? [`${block.kind} ${id}`] : [];
  const placeNames = block.kind === 'tool_use' && block.slot !== undefined && (block.entry || typeof id !== 'string');
  if (placeNames) names.push(`${messageId} #${block.slot} ${String(block.meta.name)}`);
  return names;
}

/** What a block says, its rewind mark aside: a re-emission that changed it is a new version. */
function blockDigest(block: GeminiBlock, model: string | undefined): string {
  return createHash('sha1').update(JSON.stringify([block.role, block.kind, block.text, block.meta, model])).digest('base64');
}

/** The document's text (without a BOM: withoutBom); above `maxBytes` it is counted (one line, `too_large`) and not read. */
async function readWholeFile(path: string, maxBytes: number, stats: LineStats): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      stats.lines += 1;
      stats.oversizeLines += 1;
      countSkip(stats, 'too_large');
      return undefined;
    }
    const bytes = await handle.readFile();
    // Counted as a line file's reads are: a tick's bytes read say what each whole rewrite cost.
    stats.bytesRead = (stats.bytesRead ?? 0) + bytes.length;
    return withoutBom(bytes.toString('utf8'));
  } finally {
    await handle.close();
  }
}

export class GeminiProvider implements TranscriptProvider {
  readonly id = 'gemini' as const;
  readonly parserVersion = GEMINI_PARSER_VERSION;
  readonly #roots: readonly string[];
  readonly #projects = new ProjectPaths();

  constructor(roots: readonly string[]) {
    this.#roots = roots;
  }

  async discover(signal?: AbortSignal): Promise<DiscoveryResult> {
    const scan = new Scan(signal);
    for (const root of this.#roots) await scan.walk(join(root, 'tmp'), rules);
    return scan.result();
  }

  async *read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const place = chatPlace(file.path);
    const registeredCwd = place ? await this.#projects.cwdOf(place.geminiRoot, place.projectId) : undefined;
    const reader = new ChatReader(file, { place, registeredCwd, options, stats });
    for await (const record of this.#records(file, options, stats)) {
      record(reader);
      if (reader.projection.pending >= options.batchParts) yield reader.take();
    }
    // Turns rewound after a batch took them are read again, only they, to be yielded marked.
    const late = reader.lateRewound();
    if (late.size > 0) reader.adopt(await this.#replay(file, { place, registeredCwd, options, only: late }, stats));
    // A chat is re-read whole when it changes (a legacy one is rewritten per turn; a current one's
    // records are re-emitted and reset): its checkpoint only lets an unchanged file be skipped after
    // a restart, and the message ids keep a re-read from adding what is stored.
    stats.checkpoint = { offset: 0, headHash: '', tailHash: '', state: null };
    if (!reader.shaped) recountNotATranscript(stats);
    yield reader.finish();
  }

  #records(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<(reader: ChatReader) => void> {
    return file.path.endsWith('.json') ? this.#document(file, options, stats) : this.#lines(file, options, stats);
  }

  /**
   * The parts of `only`'s messages as a whole read leaves them: the file read again by a reader that
   * keeps only those and takes no batch, so each part's last version is the one kept. Rare (a rewind
   * past a batch), and bounded by those messages; its lines are not counted again, its bytes are.
   */
  async #replay(file: TranscriptFile, ctx: Omit<ChatContext, 'stats'>, stats: LineStats): Promise<PartRow[]> {
    const scratch: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    const reader = new ChatReader(file, { ...ctx, stats: scratch });
    for await (const record of this.#records(file, ctx.options, scratch)) record(reader);
    stats.bytesRead = (stats.bytesRead ?? 0) + (scratch.bytesRead ?? 0);
    return reader.pendingParts();
  }

  /** The current format: one record a line. */
  async *#lines(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<(reader: ChatReader) => void> {
    for await (const { lines } of readCompleteLines(file.path, { maxLineBytes: options.maxLineBytes, end: file.size }, stats)) {
      for (const text of lines) {
        // An above-cap line (null) was counted as it was skipped.
        if (text === null) continue;
        if (text.length === 0) {
          countSkip(stats, 'empty');
          continue;
        }
        const line = parseLine(text);
        yield line ? (reader) => reader.record(line) : () => countMalformed(stats);
      }
    }
  }

  /** The legacy format: one document, rewritten whole on every turn, so it is always read whole. */
  async *#document(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<(reader: ChatReader) => void> {
    // A document is no line: `sweep.max_line_bytes` would lose a whole chat, after every rewrite.
    const text = await readWholeFile(file.path, documentCap(options.maxLineBytes), stats);
    if (text === undefined) return;
    const document = parseLine(text);
    if (!document) {
      // Nothing of a document that does not parse can be read: the file failed, not a line of it.
      if (text.trim() !== '') throw new MalformedFile();
      stats.lines += 1;
      return countSkip(stats, 'empty');
    }
    // Messages that are no list (an object, a string) are a chat of the wrong shape, not its bookkeeping: nothing of it reads.
    if (document.messages !== undefined && !Array.isArray(document.messages)) throw new MalformedFile();
    stats.lines += 1;
    // The document counts as a line (its messages as one each): its own fields are no part.
    yield (reader) => reader.document(document);
    const messages = Array.isArray(document.messages) ? document.messages : [];
    stats.lines += messages.length;
    for (const message of messages) yield (reader) => reader.documentMessage(asObject(message) ?? {});
  }
}
