import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { bound, boundJson, imageFacts, metaJson, parseTs, TEXT_CAP, TOOL_RESULT_CAP } from '../../bounds.js';
import { countSkip, readCompleteLines, resumeOffset } from '../../lines.js';
import { asObject, asString, parseLine, Projection, type Json } from '../../projection.js';
import { Scan } from '../../scan.js';
import { PART_FLAGS, type DiscoveryResult, type LineStats, type PartRow, type ReadOptions, type SessionRow, type TranscriptBatch, type TranscriptFile, type TranscriptProvider } from '../../types.js';

const LIVE_OR_ARCHIVE = /\.jsonl(\.reset\..+|\.deleted\..+|\.full\.bak)?$/;
const IN_PROGRESS = /\.(tmp|lock|partial)$/;
const ROLES = new Set(['user', 'assistant', 'toolResult']);
/** Entry types that carry no conversation content: counted `meta_only`. */
const META_TYPES = new Set(['model_change', 'thinking_level_change', 'custom', 'custom_message', 'label', 'session_info', 'session_init', 'mode_change', 'ttsr_injection', 'reset']);

/**
 * 2: v1 entries (no id) keyed by line index, content keys against id rewrites, compaction and
 * branch summaries, assistant errors, `branchedFrom`/`parentSession` parents, models, flags and
 * first requests; lines without parts are counted by reason.
 */
export const OPENCLAW_PARSER_VERSION = 2;

/** Live transcripts plus `.reset.*`, `.deleted.*` and `.full.bak` archives; never files being written. */
export function isOpenClawTranscript(name: string): boolean {
  return LIVE_OR_ARCHIVE.test(name) && !IN_PROGRESS.test(name);
}

interface Header {
  id: string;
  cwd: string | null;
  /** The session this one was branched from (`branchedFrom` in v1, `parentSession` later): a path or an id. */
  parent: string | null;
  model: string | null;
}

/** What a later read of the same file needs: its header, and the index of the next line. */
interface OpenClawState {
  header: Header | null;
  line: number;
}

function isState(value: unknown): value is OpenClawState {
  const state = asObject(value);
  return state !== undefined && typeof state.line === 'number' && (state.header === null || typeof asObject(state.header)?.id === 'string');
}

interface Block {
  kind: string;
  text: string | null;
  meta: Record<string, unknown>;
}

function blocks(content: unknown, role: string, message: Json): Block[] {
  if (typeof content === 'string') {
    const b = bound(content, role === 'toolResult' ? TOOL_RESULT_CAP : TEXT_CAP);
    return [{ kind: role === 'toolResult' ? 'tool_result' : 'text', text: b.text, meta: { truncated: b.truncated } }];
  }
  if (!Array.isArray(content)) return [];
  return content.map((raw): Block => {
    if (typeof raw === 'string') return blocks(raw, role, message)[0]!;
    const block = asObject(raw) ?? {};
    const type = asString(block.type) ?? 'unknown';
    if (type === 'text' && role === 'toolResult') {
      const b = bound(typeof block.text === 'string' ? block.text : '', TOOL_RESULT_CAP);
      return {
        kind: 'tool_result',
        text: b.text,
        meta: { toolUseId: asString(message.toolCallId), name: asString(message.toolName), isError: message.isError === true ? true : undefined, truncated: b.truncated },
      };
    }
    if (type === 'text' || type === 'thinking') {
      const b = bound(typeof block[type] === 'string' ? (block[type] as string) : '', TEXT_CAP);
      return { kind: type, text: b.text, meta: { truncated: b.truncated } };
    }
    if (type === 'toolCall') {
      const b = boundJson(block.arguments ?? null, TOOL_RESULT_CAP);
      return { kind: 'tool_use', text: b.text, meta: { name: asString(block.name), toolUseId: asString(block.id), truncated: b.truncated } };
    }
    if (type === 'image') return { kind: 'image', text: null, meta: imageFacts(block.mimeType, block.data) };
    const b = boundJson(block, TOOL_RESULT_CAP);
    return { kind: type.slice(0, 64), text: b.text, meta: { truncated: b.truncated } };
  });
}

/**
 * What an entry says, whatever id it carries: pi rewrites a v1 file as v3 with random ids when it
 * next loads it, keeping each entry's timestamp and message; this key finds the entry stored before.
 */
function contentKey(entry: Json, role: string, body: unknown): string {
  const json = JSON.stringify(body ?? null) ?? '';
  return createHash('sha256').update(String(entry.timestamp ?? '')).update('\0').update(role).update('\0').update(json).digest('hex').slice(0, 32);
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

class FileParse {
  readonly #agentId: string;
  readonly #projection: Projection;
  readonly #options: ReadOptions;
  readonly #stats: LineStats;
  header: Header | null;
  line: number;

  constructor(agentId: string, projection: Projection, options: ReadOptions, stats: LineStats, state: OpenClawState | undefined) {
    this.#agentId = agentId;
    this.#projection = projection;
    this.#options = options;
    this.#stats = stats;
    this.header = state?.header ?? null;
    this.line = state?.line ?? 0;
  }

  get #sessionId(): string {
    return `oc:${this.#agentId}:${this.header!.id}`;
  }

  /** One complete line (null: above the cap, already counted); every line that yields no part is counted. */
  take(text: string | null): void {
    const index = this.line;
    this.line += 1;
    if (text === null) return;
    if (text.length === 0) return countSkip(this.#stats, 'empty');
    const line = parseLine(text);
    if (!line) {
      this.#stats.failedLines += 1;
      return countSkip(this.#stats, 'malformed');
    }
    if (line.type === 'session') {
      const header = headerOf(line);
      if (header) this.header = header;
      return countSkip(this.#stats, header ? 'meta_only' : 'no_id');
    }
    // Entry ids are unique only within their session; without a header nothing can be keyed.
    if (!this.header) return countSkip(this.#stats, 'no_id');
    this.#entry(line, index);
  }

  #session(): SessionRow {
    const session = this.#projection.session(this.#sessionId);
    const header = this.header!;
    if (session.cwd === null) session.cwd = header.cwd;
    if (session.model === null) session.model = header.model;
    if (header.parent) {
      session.parentSessionId = `oc:${agentOfRef(header.parent, this.#agentId)}:${sessionIdOfRef(header.parent)}`;
      session.parentKind = 'branch';
    }
    return session;
  }

  #entry(line: Json, index: number): void {
    const type = line.type;
    if (type === 'message') return this.#message(line, index);
    if (type === 'compaction' || type === 'branch_summary') return this.#summary(line, index, type === 'compaction' ? 'compaction' : 'branch_summary');
    if (typeof type !== 'string' || !META_TYPES.has(type)) return countSkip(this.#stats, 'unknown_type');
    countSkip(this.#stats, 'meta_only');
    const session = this.#session();
    if (type === 'session_info' && asString(line.name)) this.#projection.title(session, line.name as string, 'custom-title');
    else if (type === 'model_change') session.model = (asString(line.modelId) ?? asString(line.model))?.slice(0, 200) ?? session.model;
  }

  /** v1 entries carry no id: their place in the file is their identity. */
  #entryId(line: Json, index: number): string {
    return asString(line.id) ?? `l${index}`;
  }

  #inWindow(ts: number | null): boolean {
    const start = this.#options.windowStartMs;
    return start === null || ts === null || ts >= start;
  }

  #part(entryId: string, index: number, role: string | null, block: Block, ts: number | null, flags: number, key: string, extra: Record<string, unknown> = {}): PartRow {
    return {
      partId: `oc:${this.#agentId}:${this.header!.id}:${entryId}:${index}`,
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

  #message(line: Json, index: number): void {
    const message = asObject(line.message);
    const role = asString(message?.role);
    if (!message || !role) return countSkip(this.#stats, 'empty');
    if (!ROLES.has(role)) return countSkip(this.#stats, 'unknown_type');
    const ts = parseTs(line.timestamp) ?? parseTs(message.timestamp);
    if (!this.#inWindow(ts)) return countSkip(this.#stats, 'outside_window');
    const session = this.#session();
    const entryId = this.#entryId(line, index);
    const key = contentKey(line, role, message.content);
    const model = role === 'assistant' ? asString(message.model) : undefined;
    if (model) session.model = model.slice(0, 200);
    const list = blocks(message.content, role, message);
    // An assistant turn that failed says so in `errorMessage`, often with no content at all.
    if (role === 'assistant' && message.stopReason === 'error' && asString(message.errorMessage)) {
      const b = bound(message.errorMessage as string, TEXT_CAP);
      list.push({ kind: 'error', text: b.text, meta: { stopReason: 'error', truncated: b.truncated } });
    }
    if (list.length === 0) return countSkip(this.#stats, 'empty');
    list.forEach((block, i) => {
      const genuine = role === 'user' && block.kind === 'text' && (block.text ?? '').trim() !== '';
      if (genuine) this.#projection.request(session, block.text!);
      this.#projection.add(this.#part(entryId, i, role, block, ts, genuine ? PART_FLAGS.genuineUserTurn : 0, key, { model }), session);
    });
  }

  /** Compaction and branch summaries: what the agent kept of the conversation, as a part of its own. */
  #summary(line: Json, index: number, kind: 'compaction' | 'branch_summary'): void {
    const summary = asString(line.summary);
    if (!summary) return countSkip(this.#stats, 'empty');
    const ts = parseTs(line.timestamp);
    if (!this.#inWindow(ts)) return countSkip(this.#stats, 'outside_window');
    const session = this.#session();
    const b = bound(summary, TEXT_CAP);
    const tokensBefore = typeof line.tokensBefore === 'number' ? line.tokensBefore : undefined;
    const block: Block = { kind, text: b.text, meta: { truncated: b.truncated, tokensBefore } };
    this.#projection.add(this.#part(this.#entryId(line, index), 0, 'system', block, ts, kind === 'compaction' ? PART_FLAGS.compactSummary : 0, contentKey(line, kind, summary)), session);
  }
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
    const rules = { acceptFile: (name: string, depth: number) => depth === 2 && isOpenClawTranscript(name), acceptDir: (name: string, depth: number) => depth === 1 || (depth === 2 && name === 'sessions'), maxDepth: 2, source: 'openclaw' };
    for (const root of this.#roots) await scan.walk(join(root, 'agents'), rules);
    return scan.result();
  }

  async *read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    // agents/<agentId>/sessions/<file>: the agent id namespaces the header id, which may collide across agents.
    const agentId = basename(dirname(dirname(file.path)));
    // Line indices key v1 entries: a read resumes only where the index it stopped at is known.
    const saved = isState(options.resume?.state) ? options.resume.state : undefined;
    const start = saved ? await resumeOffset(file.path, options.resume, file.size, stats) : 0;
    const state = start > 0 ? saved : undefined;
    const projection = new Projection('openclaw', file.source);
    const parse = new FileParse(agentId, projection, options, stats, state);
    for await (const { lines } of readCompleteLines(file.path, { maxLineBytes: options.maxLineBytes, start, end: file.size, ...(start > 0 && options.resume ? { headHash: options.resume.headHash } : {}) }, stats)) {
      for (const text of lines) {
        parse.take(text);
        if (projection.pending >= options.batchParts) yield projection.take(false);
      }
    }
    if (stats.checkpoint) stats.checkpoint.state = { header: parse.header, line: parse.line } satisfies OpenClawState;
    yield projection.take(true);
  }
}
