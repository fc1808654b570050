import { basename, dirname, join } from 'node:path';
import { bound, boundJson, imageFacts, metaJson, parseTs, TEXT_CAP, TOOL_RESULT_CAP } from '../../bounds.js';
import { readCompressedLines } from '../../compressed.js';
import { readCompleteLines } from '../../lines.js';
import { asObject, asString, parseLine, Projection, type Json } from '../../projection.js';
import { Scan } from '../../scan.js';
import { discoverStores, STORE_SOURCE } from './stores.js';
import { readAgentStore } from './store-reader.js';
import type { DiscoveryResult, LineStats, PartRow, ReadOptions, TranscriptBatch, TranscriptFile, TranscriptProvider } from '../../types.js';

/** Live, archived (`.reset.*`, `.deleted.*`, `.full.bak`) and migrated (Doctor's `….imported-<ms>[.<n>]`) transcripts. */
const LIVE_OR_ARCHIVE = /\.jsonl(\.reset\..+|\.deleted\..+|\.full\.bak|\.imported-\d+(\.\d+)?)?$/;
/** Folders of an agent that hold JSONL: its live sessions, and where Doctor moved what it imported into SQLite. */
const JSONL_FOLDERS = new Set(['sessions', 'session-sqlite-import-archive']);
const IN_PROGRESS = /\.(tmp|lock|partial)$/;
const ROLES = new Set(['user', 'assistant', 'toolResult']);

/** Live transcripts plus `.reset.*`, `.deleted.*` and `.full.bak` archives; never files being written. */
export function isOpenClawTranscript(name: string): boolean {
  return LIVE_OR_ARCHIVE.test(name) && !IN_PROGRESS.test(name);
}

function blocks(content: unknown, role: string, message: Json): Array<{ kind: string; text: string | null; meta: Record<string, unknown> }> {
  if (typeof content === 'string') {
    const b = bound(content, role === 'toolResult' ? TOOL_RESULT_CAP : TEXT_CAP);
    return [{ kind: role === 'toolResult' ? 'tool_result' : 'text', text: b.text, meta: { truncated: b.truncated } }];
  }
  if (!Array.isArray(content)) return [];
  return content.map((raw) => {
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

export interface Header {
  id: string;
  cwd: string | null;
}

/** One session's entries in reading order: the agent that wrote them, and their header once seen. */
export interface EntryContext {
  agentId: string;
  header: Header | undefined;
}

export class OpenClawProvider implements TranscriptProvider {
  readonly id = 'openclaw' as const;
  readonly #roots: readonly string[];

  constructor(roots: readonly string[]) {
    this.#roots = roots;
  }

  async discover(signal?: AbortSignal): Promise<DiscoveryResult> {
    const scan = new Scan(signal);
    const rules = { acceptFile: (name: string, depth: number) => depth === 2 && isOpenClawTranscript(name), acceptDir: (name: string, depth: number) => depth === 1 || (depth === 2 && JSONL_FOLDERS.has(name)), maxDepth: 2, source: 'openclaw' };
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
    const context: EntryContext = { agentId: basename(dirname(dirname(file.path))), header: undefined };
    const projection = new Projection('openclaw', file.source);
    // An archived sibling may be zstd-compressed (`….jsonl.deleted.<ts>.zst`): the same lines.
    const source = file.path.endsWith('.zst') ? readCompressedLines(file.path, options, stats) : readCompleteLines(file.path, options, stats);
    for await (const lines of source) {
      for (const text of lines) {
        if (text.length === 0) continue;
        const line = parseLine(text);
        if (!line) {
          stats.failedLines += 1;
          continue;
        }
        this.projectEntry(line, context, projection, options, stats);
        if (projection.pending >= options.batchParts) yield projection.take(false);
      }
    }
    yield projection.take(true);
  }

  /** One entry of a session, whichever layout held it: a JSONL line, or an event row of an agent's store. */
  projectEntry(line: Json, context: EntryContext, projection: Projection, options: ReadOptions, stats: LineStats): void {
    if (line.type === 'session') {
      const id = asString(line.id);
      if (id) context.header = { id, cwd: asString(line.cwd) ?? null };
      return;
    }
    const header = context.header;
    if (!header) {
      // Entries ids are unique only within their session; without a header they cannot be keyed.
      if (line.type === 'message') stats.failedLines += 1;
      return;
    }
    this.#project(line, context.agentId, header, projection, options);
  }

  #project(line: Json, agentId: string, header: Header, projection: Projection, options: ReadOptions): void {
    const sessionId = `oc:${agentId}:${header.id}`;
    if (line.type === 'session_info') {
      const name = asString(line.name);
      if (name) projection.session(sessionId).title = name.slice(0, 500);
      return;
    }
    if (line.type !== 'message') return;
    const entryId = asString(line.id);
    const message = asObject(line.message);
    const role = asString(message?.role);
    if (!entryId || !message || !role || !ROLES.has(role)) return;
    const ts = parseTs(line.timestamp) ?? parseTs(message.timestamp);
    if (options.windowStartMs !== null && ts !== null && ts < options.windowStartMs) return;
    const session = projection.session(sessionId);
    if (session.cwd === null) session.cwd = header.cwd;
    blocks(message.content, role, message).forEach((block, index) => {
      const part: PartRow = {
        partId: `oc:${agentId}:${header.id}:${entryId}:${index}`,
        sessionId,
        provider: 'openclaw',
        role,
        kind: block.kind,
        ts,
        text: block.text,
        meta: metaJson({ ...block.meta, model: role === 'assistant' ? asString(message.model) : undefined }),
      };
      projection.add(part, session);
    });
  }
}
