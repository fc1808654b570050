import { createHash } from 'node:crypto';
import { PROVIDERS } from '../../../api/constants/index.js';
import { basename, dirname, join } from 'node:path';
import { bound, metaJson, parseTs, TEXT_CAP } from '../../bounds.js';
import { readCompressedLines } from '../../compressed.js';
import { countMalformed, countRecordError, countSkip, readCompleteLines, resumeOffset } from '../../lines.js';
import { asObject, asString, parseLine, Projection, type Json } from '../../projection.js';
import { Scan } from '../../scan.js';
import { PART_FLAGS, type DiscoveryResult, type LineStats, type PartRow, type ReadOptions, type SessionRow, type TranscriptBatch, type TranscriptFile, type TranscriptProvider } from '../../types.js';
import { bashBlocks, contentBlocks, routedFrom, withoutEnvelope, type Block } from './blocks.js';
import type { EntryContext, Header } from './entry.js';
import { readAgentStore } from './store-reader.js';
import { discoverStores, STORE_SOURCE } from './stores.js';

/** Live, archived (`.reset.*`, `.deleted.*`, `.full.bak`) and migrated (Doctor's `….imported-<ms>[.<n>]`) transcripts. */
const LIVE_OR_ARCHIVE = /\.jsonl(\.reset\..+|\.deleted\..+|\.full\.bak|\.imported-\d+(\.\d+)?)?$/;
/** Folders of an agent that hold JSONL: its live sessions, and where Doctor moved what it imported into SQLite. */
const JSONL_FOLDERS = new Set(['sessions', 'session-sqlite-import-archive']);
const IN_PROGRESS = /\.(tmp|lock|partial)$/;
/**
 * Every role a pi/OpenClaw `message` entry carries: pi-ai's three, and pi-coding-agent's own (a `!`
 * command, an extension's message, named `hookMessage` before session v3, and the summaries).
 */
const ROLES = new Set(['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'hookMessage', 'branchSummary', 'compactionSummary']);
/** Entry types that carry no conversation content (OpenClaw's `leaf` moves a tree's tip): counted `meta_only`. */
const META_TYPES = new Set(['model_change', 'thinking_level_change', 'custom', 'label', 'session_info', 'session_init', 'mode_change', 'ttsr_injection', 'reset', 'leaf']);

/**
 * 2: v1 entries (no id) keyed by line index, content keys against id rewrites, compaction and
 * branch summaries, assistant errors, `branchedFrom`/`parentSession` parents, models, flags and
 * first requests; lines without parts are counted by reason.
 * 3: `!` commands, extensions' messages (`custom_message`, roles `custom`/`hookMessage`) and summary
 * roles become parts; a user message OpenClaw routed from elsewhere is not the person's; a tool
 * result's image names its call; `input_text`/`output_text` are text; first requests lose the
 * channel envelope.
 * 4: v1 entries an agent's store holds (Doctor imported the v1 file row by row) are keyed by their
 * line in that file, as the file's own are, instead of being counted `no_id`.
 * 5: a tool result (and a `!` command's output) over its cap keeps its end as well as its start
 * (boundResult); read again, stored results cut short gain their ends.
 */
export const OPENCLAW_PARSER_VERSION = 5;

/** Live transcripts plus archives and migrated copies; never files being written. */
export function isOpenClawTranscript(name: string): boolean {
  return LIVE_OR_ARCHIVE.test(name) && !IN_PROGRESS.test(name);
}

/** What a later read of the same JSONL file needs: its header, and the index of the next line. */
interface OpenClawState {
  header: Header | null;
  line: number;
}

function isState(value: unknown): value is OpenClawState {
  const state = asObject(value);
  return state !== undefined && typeof state.line === 'number' && (state.header === null || typeof asObject(state.header)?.id === 'string');
}

/**
 * What an entry says, whatever id it carries: pi rewrites a v1 file as v3 with random ids when it
 * next loads it, keeping each entry's timestamp and message; this key finds the entry stored before.
 */
function contentKey(entry: Json, role: string, body: unknown): string {
  const json = JSON.stringify(body ?? null) ?? '';
  return createHash('sha256').update(String(entry.timestamp ?? '')).update('\0').update(role).update('\0').update(json).digest('hex').slice(0, 32);
}

/** What an entry says before it has an id: its parts' role and blocks, and what its content key hashes. */
interface Said {
  role: string;
  blocks: Block[];
  /** PART_FLAGS every part carries. */
  flags: number;
  /** The person's own words: a non-blank text part is a genuine user turn. */
  person: boolean;
  /** The key's role and body: unchanged for the roles parser 2 keyed, so its stored keys still match. */
  keyRole: string;
  keyBody: unknown;
  /** Facts every part carries in its meta. */
  extra: Record<string, unknown>;
  model?: string;
}

/** A user, assistant or tool result message; a user message OpenClaw routed from elsewhere is not the person's. */
function conversational(role: string, message: Json): Said {
  const blocks = contentBlocks(message.content, role, message);
  // An assistant turn that failed says so in `errorMessage`, often with no content at all.
  if (role === 'assistant' && message.stopReason === 'error' && asString(message.errorMessage)) {
    const b = bound(message.errorMessage as string, TEXT_CAP);
    blocks.push({ kind: 'error', text: b.text, meta: { stopReason: 'error', truncated: b.truncated } });
  }
  const model = role === 'assistant' ? asString(message.model)?.slice(0, 200) : undefined;
  const routed = role === 'user' ? routedFrom(message) : undefined;
  return { role, blocks, flags: routed ? PART_FLAGS.meta : 0, person: role === 'user' && !routed, keyRole: role, keyBody: message.content, extra: { model, ...routed }, model };
}

/**
 * What an extension put into the model's context (a `custom_message` entry, or a message of role
 * `custom`, `hookMessage` before session v3): the model reads it as the user's, the person never wrote it.
 */
function injected(holder: Json): Said {
  const extra = { customType: asString(holder.customType)?.slice(0, 64), display: holder.display === false ? false : undefined };
  return { role: 'user', blocks: contentBlocks(holder.content, 'user', holder), flags: PART_FLAGS.meta, person: false, keyRole: 'custom', keyBody: holder.content ?? null, extra };
}

/** A compaction or branch summary (an entry, or a message of role `compactionSummary`/`branchSummary`): what the agent kept. */
function summary(kind: 'compaction' | 'branch_summary', holder: Json): Said {
  const text = asString(holder.summary);
  const tokensBefore = typeof holder.tokensBefore === 'number' ? holder.tokensBefore : undefined;
  const b = text === undefined ? undefined : bound(text, TEXT_CAP);
  const blocks: Block[] = b ? [{ kind, text: b.text, meta: { truncated: b.truncated, tokensBefore } }] : [];
  return { role: 'system', blocks, flags: kind === 'compaction' ? PART_FLAGS.compactSummary : 0, person: false, keyRole: kind, keyBody: text, extra: {} };
}

function said(role: string, message: Json): Said {
  if (role === 'bashExecution') {
    return { role: 'user', blocks: bashBlocks(message), flags: 0, person: false, keyRole: role, keyBody: [message.command ?? null, message.output ?? null], extra: {} };
  }
  if (role === 'custom' || role === 'hookMessage') return injected(message);
  if (role === 'compactionSummary') return summary('compaction', message);
  if (role === 'branchSummary') return summary('branch_summary', message);
  return conversational(role, message);
}

/** `…/<ts>_<id>.jsonl`, `<id>.jsonl.reset.<ts>` or a bare id → the session id it names. */
export function sessionIdOfRef(ref: string): string {
  const name = ref.split(/[\\/]/).pop() ?? ref;
  const stem = name.replace(/\.jsonl(\..*)?$/, '');
  const underscore = stem.lastIndexOf('_');
  return underscore >= 0 && /^\d{4}-\d{2}-\d{2}T/.test(stem) ? stem.slice(underscore + 1) : stem;
}

/** The agent a parent reference lives under (`agents/<id>/sessions/…`), else the child's own. */
function agentOfRef(ref: string, agentId: string): string {
  return /[\\/]agents[\\/]([^\\/]+)[\\/]sessions[\\/]/.exec(ref)?.[1] ?? agentId;
}

function headerOf(line: Json): Header | undefined {
  const id = asString(line.id);
  if (!id) return undefined;
  const parent = asString(line.parentSession) ?? asString(line.branchedFrom) ?? null;
  return { id, cwd: asString(line.cwd) ?? null, parent, model: asString(line.modelId)?.slice(0, 200) ?? null };
}

/** Projects the entries of one session as they come (JSONL lines, or a store's event rows) into parts. */
class EntryProjection {
  readonly #context: EntryContext;
  readonly #projection: Projection;
  readonly #options: ReadOptions;
  readonly #stats: LineStats;

  constructor(context: EntryContext, projection: Projection, options: ReadOptions, stats: LineStats) {
    this.#context = context;
    this.#projection = projection;
    this.#options = options;
    this.#stats = stats;
  }

  get #header(): Header {
    return this.#context.header!;
  }

  get #sessionId(): string {
    return `oc:${this.#context.agentId}:${this.#header.id}`;
  }

  /**
   * One parsed entry; `index` is its line in a JSONL file (the identity of a v1 entry, which has no id).
   * Every layout's entries come through here (a JSONL line, a compressed archive's, a store row): one too
   * deep to read is counted, not the file or store failed.
   */
  entry(line: Json, index: number | undefined): void {
    try {
      this.#entry(line, index);
    } catch (error) {
      countRecordError(this.#stats, error);
    }
  }

  #entry(line: Json, index: number | undefined): void {
    if (line.type === 'session') {
      const header = headerOf(line);
      if (header) this.#context.header = header;
      return countSkip(this.#stats, header ? 'meta_only' : 'no_id');
    }
    // Entry ids are unique only within their session; without a header nothing can be keyed.
    if (!this.#context.header) return countSkip(this.#stats, 'no_id');
    const type = line.type;
    if (type === 'message') return this.#message(line, index);
    if (type === 'custom_message') return this.#emit(line, index, injected(line), undefined);
    if (type === 'compaction' || type === 'branch_summary') return this.#emit(line, index, summary(type, line), undefined);
    if (typeof type !== 'string' || !META_TYPES.has(type)) return countSkip(this.#stats, 'unknown_type');
    countSkip(this.#stats, 'meta_only');
    const session = this.#session();
    if (type === 'session_info' && asString(line.name)) this.#projection.title(session, line.name as string, 'custom-title');
    else if (type === 'model_change') session.model = (asString(line.modelId) ?? asString(line.model))?.slice(0, 200) ?? session.model;
  }

  #session(): SessionRow {
    const session = this.#projection.session(this.#sessionId);
    const header = this.#header;
    if (session.cwd === null) session.cwd = header.cwd;
    if (session.model === null) session.model = header.model ?? null;
    if (header.parent) {
      session.parentSessionId = `oc:${agentOfRef(header.parent, this.#context.agentId)}:${sessionIdOfRef(header.parent)}`;
      session.parentKind = 'branch';
    }
    return session;
  }

  /** An entry's id; a v1 entry has none, and its place in the file is its identity. */
  #entryId(line: Json, index: number | undefined): string | undefined {
    return asString(line.id) ?? (index === undefined ? undefined : `l${index}`);
  }

  #inWindow(ts: number | null): boolean {
    const start = this.#options.windowStartMs;
    return start === null || ts === null || ts >= start;
  }

  #part(entryId: string, index: number, role: string | null, block: Block, ts: number | null, flags: number, key: string, extra: Record<string, unknown> = {}): PartRow {
    return {
      partId: `oc:${this.#context.agentId}:${this.#header.id}:${entryId}:${index}`,
      sessionId: this.#sessionId,
      provider: 'openclaw',
      role,
      kind: block.kind,
      ts,
      text: block.text,
      meta: metaJson({ ...block.meta, ...extra }),
      flags,
      contentKey: `${key}:${index}`,
    };
  }

  #message(line: Json, index: number | undefined): void {
    const message = asObject(line.message);
    const role = asString(message?.role);
    if (!message || !role) return countSkip(this.#stats, 'empty');
    if (!ROLES.has(role)) return countSkip(this.#stats, 'unknown_type');
    this.#emit(line, index, said(role, message), message.timestamp);
  }

  /** An entry's parts, once it has an id and falls inside the window; `fallbackTs` is the message's own epoch. */
  #emit(line: Json, index: number | undefined, what: Said, fallbackTs: unknown): void {
    const entryId = this.#entryId(line, index);
    if (!entryId) return countSkip(this.#stats, 'no_id');
    const ts = parseTs(line.timestamp) ?? parseTs(fallbackTs);
    if (!this.#inWindow(ts)) return countSkip(this.#stats, 'outside_window');
    const session = this.#session();
    if (what.model) session.model = what.model;
    if (what.blocks.length === 0) return countSkip(this.#stats, 'empty');
    const key = contentKey(line, what.keyRole, what.keyBody);
    const genuine = (block: Block) => what.person && block.kind === 'text' && (block.text ?? '').trim() !== '';
    // Every row of the entry is built before any is added: one that throws (too deep) leaves the entry counted, nothing of it stored.
    const parts = what.blocks.map((block, i) => this.#part(entryId, i, what.role, block, ts, what.flags | (genuine(block) ? PART_FLAGS.genuineUserTurn : 0), key, what.extra));
    what.blocks.forEach((block, i) => {
      if (genuine(block)) this.#projection.request(session, withoutEnvelope(block.text!));
      this.#projection.add(parts[i]!, session);
    });
  }
}

/** One complete JSONL line (null: above the cap, already counted): blank and unparsable lines are counted here. */
function takeLine(text: string | null, index: number, entries: EntryProjection, stats: LineStats): void {
  if (text === null) return;
  if (text.length === 0) return countSkip(stats, 'empty');
  const line = parseLine(text);
  if (!line) return countMalformed(stats);
  entries.entry(line, index);
}

export class OpenClawProvider implements TranscriptProvider {
  readonly id = 'openclaw' as const;
  readonly parserVersion = OPENCLAW_PARSER_VERSION;
  readonly #roots: readonly string[];

  constructor(roots: readonly string[]) {
    this.#roots = roots;
  }

  async discover(signal?: AbortSignal): Promise<DiscoveryResult> {
    const scan = new Scan(signal);
    const rules = { acceptFile: (name: string, depth: number) => depth === 2 && isOpenClawTranscript(name), acceptDir: (name: string, depth: number) => depth === 1 || (depth === 2 && JSONL_FOLDERS.has(name)), maxDepth: 2, source: PROVIDERS.openclaw.roots.roots.source };
    for (const root of this.#roots) {
      await scan.walk(join(root, 'agents'), rules);
      await discoverStores(scan, root);
    }
    return scan.result();
  }

  async *read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    // An agent's SQLite store holds the same entries as the JSONL did, as rows.
    if (file.source === STORE_SOURCE) return yield* readAgentStore(file, options, stats, this);
    // agents/<agentId>/sessions/<file>: the agent id namespaces the header id, which may collide across agents.
    const agentId = basename(dirname(dirname(file.path)));
    // An archived sibling may be zstd-compressed (`….jsonl.deleted.<ts>.zst`): the same lines, never appended to.
    if (file.path.endsWith('.zst')) return yield* this.#readCompressed(file, agentId, options, stats);
    // Line indices key v1 entries: a read resumes only where the index it stopped at is known.
    const saved = isState(options.resume?.state) ? options.resume.state : undefined;
    const start = saved ? await resumeOffset(file.path, options.resume, file.size, stats) : 0;
    const state = start > 0 ? saved : undefined;
    const context: EntryContext = { agentId, header: state?.header ?? undefined };
    const projection = new Projection('openclaw', file.source);
    const entries = new EntryProjection(context, projection, options, stats);
    let line = state?.line ?? 0;
    const lines = readCompleteLines(file.path, { maxLineBytes: options.maxLineBytes, start, end: file.size, ...(start > 0 && options.resume ? { headHash: options.resume.headHash } : {}) }, stats);
    for await (const chunk of lines) {
      for (const text of chunk.lines) {
        takeLine(text, line, entries, stats);
        line += 1;
        if (projection.pending >= options.batchParts) yield projection.take(false);
      }
    }
    if (stats.checkpoint) stats.checkpoint.state = { header: context.header ?? null, line } satisfies OpenClawState;
    yield projection.take(true);
  }

  /** A compressed archive is read whole; its checkpoint only says it was (it is skipped while unchanged). */
  async *#readCompressed(file: TranscriptFile, agentId: string, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const context: EntryContext = { agentId, header: undefined };
    const projection = new Projection('openclaw', file.source);
    const entries = new EntryProjection(context, projection, options, stats);
    let line = 0;
    for await (const group of readCompressedLines(file.path, options, stats)) {
      for (const text of group) {
        takeLine(text, line, entries, stats);
        line += 1;
        if (projection.pending >= options.batchParts) yield projection.take(false);
      }
    }
    stats.checkpoint = { offset: file.size, headHash: '', tailHash: '', state: null };
    yield projection.take(true);
  }

  /**
   * One entry of a session, whichever layout held it: a JSONL line, or an event row of an agent's store.
   * `index`: its line in the session's JSONL file, where a store row can say (a v1 entry's identity).
   */
  projectEntry(line: Json, context: EntryContext, projection: Projection, options: ReadOptions, stats: LineStats, index?: number): void {
    new EntryProjection(context, projection, options, stats).entry(line, index);
  }
}
