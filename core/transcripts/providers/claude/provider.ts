import type { BigIntStats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { bound, boundJson, imageFacts, metaJson, parseTs, TEXT_CAP, TOOL_RESULT_CAP } from '../../bounds.js';
import { readCompleteLines } from '../../lines.js';
import { asObject, asString, parseLine, Projection, type Json } from '../../projection.js';
import { Scan } from '../../scan.js';
import type { DiscoveryResult, LineStats, PartRow, ReadOptions, TranscriptBatch, TranscriptFile, TranscriptProvider } from '../../types.js';

export interface ClaudeRoots {
  /** Folders holding `projects/` (Claude Code, Desktop's Code tab). */
  roots: readonly string[];
  /** Claude Desktop user-data folders holding `local-agent-mode-sessions/`. */
  desktopRoots: readonly string[];
}

const SKIP_DIRS = new Set(['tool-results', 'memory', 'node_modules', '.git', 'outputs']);
const NO_PART_TYPES = ['"type":"file-history-snapshot"', '"type":"progress"', '"type":"queue-operation"'];

function isTranscriptName(name: string): boolean {
  return name.endsWith('.jsonl') && !name.startsWith('agent-acompact-') && name !== 'audit.jsonl' && name !== 'history.jsonl';
}

const transcriptRules = (source: string) => ({
  acceptFile: isTranscriptName,
  acceptDir: (name: string) => !SKIP_DIRS.has(name),
  maxDepth: 5,
  source,
});

const AgentMeta = z.looseObject({ agentType: z.string().max(200).optional() });
const CoworkMeta = z.looseObject({ cliSessionId: z.string().max(200).optional(), title: z.string().max(2_000).optional() });

async function readSmallJson<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    const info = await stat(path);
    if (info.size > 1024 * 1024) return undefined;
    const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function subdirs(scan: Scan, dir: string): Promise<Array<{ name: string; path: string; info: BigIntStats }>> {
  const out: Array<{ name: string; path: string; info: BigIntStats }> = [];
  for (const entry of await scan.list(dir)) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const path = join(dir, entry.name);
    try {
      const info = await stat(path, { bigint: true });
      if (info.isDirectory()) out.push({ name: entry.name, path, info });
    } catch {
      // A dangling link is nothing to enumerate.
    }
  }
  return out;
}

/** `<userData>/local-agent-mode-sessions/<org>/<workspace>/local_<uuid>/.claude/projects/…`, walked by its known shape only. */
async function discoverDesktop(scan: Scan, root: string): Promise<void> {
  const base = join(root, 'local-agent-mode-sessions');
  for (const org of await subdirs(scan, base)) {
    for (const workspace of await subdirs(scan, org.path)) {
      for (const home of await subdirs(scan, workspace.path)) {
        if (!home.name.startsWith('local_')) continue;
        const before = scan.files.length;
        await scan.walk(join(home.path, '.claude', 'projects'), transcriptRules('desktop'));
        const sidecar = join(workspace.path, `${home.name}.json`);
        for (const file of scan.files.slice(before)) file.sidecar = sidecar;
      }
    }
  }
}

interface FileContext {
  file: TranscriptFile;
  /** From the file name when the file is a subagent transcript (both layouts). */
  fileAgentId: string | undefined;
  agentType: string | null;
  coworkSessionId: string | undefined;
  coworkTitle: string | null;
  windowStartMs: number | null;
}

function blockParts(content: unknown, base: Omit<PartRow, 'kind' | 'text' | 'meta' | 'partId'>, uuid: string): PartRow[] {
  // An explicit literal (not a spread of `base`): this runs once per part of a cold import.
  const part = (index: number, kind: string, text: string | null, meta: Record<string, unknown>): PartRow => ({
    partId: `cc:${uuid}:${index}`,
    sessionId: base.sessionId,
    provider: base.provider,
    role: base.role,
    kind,
    ts: base.ts,
    text,
    meta: metaJson(meta),
  });
  if (typeof content === 'string') {
    const b = bound(content, TEXT_CAP);
    return [part(0, 'text', b.text, { truncated: b.truncated })];
  }
  if (!Array.isArray(content)) return [];
  return content.map((raw, index) => {
    const block = asObject(raw) ?? {};
    const type = asString(block.type) ?? 'unknown';
    if (type === 'text') {
      const b = bound(typeof block.text === 'string' ? block.text : '', TEXT_CAP);
      return part(index, 'text', b.text, { truncated: b.truncated });
    }
    if (type === 'thinking') {
      const b = bound(typeof block.thinking === 'string' ? block.thinking : '', TEXT_CAP);
      return part(index, 'thinking', b.text, { truncated: b.truncated });
    }
    if (type === 'tool_use') {
      const b = boundJson(block.input ?? null, TOOL_RESULT_CAP);
      return part(index, 'tool_use', b.text, { name: asString(block.name), toolUseId: asString(block.id), truncated: b.truncated });
    }
    if (type === 'tool_result') return part(index, 'tool_result', ...toolResult(block));
    if (type === 'image') {
      const source = asObject(block.source) ?? {};
      return part(index, 'image', null, imageFacts(source.media_type, source.data));
    }
    const b = boundJson(block, TOOL_RESULT_CAP);
    return part(index, type.slice(0, 64), b.text, { truncated: b.truncated });
  });
}

function toolResult(block: Json): [string, Record<string, unknown>] {
  const content = block.content;
  let text: string;
  let images = 0;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const item of content) {
      const inner = asObject(item);
      if (inner?.type === 'text' && typeof inner.text === 'string') texts.push(inner.text);
      else if (inner?.type === 'image') images += 1;
    }
    text = texts.join('\n');
  } else text = '';
  const b = bound(text, TOOL_RESULT_CAP);
  return [b.text, { toolUseId: asString(block.tool_use_id), isError: block.is_error === true ? true : undefined, images: images || undefined, truncated: b.truncated }];
}

function projectLine(line: Json, ctx: FileContext, projection: Projection): void {
  const type = line.type;
  if (type === 'custom-title') {
    const sessionId = asString(line.sessionId);
    const title = asString(line.customTitle);
    if (sessionId && title) projection.session(sessionId).title = title.slice(0, 500);
    return;
  }
  if (type !== 'user' && type !== 'assistant') return;
  const uuid = asString(line.uuid);
  const lineSession = asString(line.sessionId);
  if (!uuid || !lineSession) return;
  const ts = parseTs(line.timestamp);
  if (ctx.windowStartMs !== null && ts !== null && ts < ctx.windowStartMs) return;
  const agentId = line.isSidechain === true || ctx.fileAgentId ? (asString(line.agentId) ?? ctx.fileAgentId) : undefined;
  const sessionId = agentId ? `${lineSession}:agent-${agentId}` : lineSession;
  const session = projection.session(sessionId);
  if (session.cwd === null) session.cwd = asString(line.cwd) ?? null;
  if (agentId) {
    session.parentSessionId = lineSession;
    if (ctx.agentType) session.agentType = ctx.agentType;
  }
  if (ctx.coworkTitle && sessionId === ctx.coworkSessionId && session.title === null) session.title = ctx.coworkTitle;
  const message = asObject(line.message) ?? {};
  const role = asString(message.role) ?? type;
  for (const part of blockParts(message.content, { sessionId, provider: 'claude', role, ts }, uuid)) projection.add(part, session);
}

function agentIdOf(path: string): string | undefined {
  const match = /^agent-(.+)\.jsonl$/.exec(basename(path));
  return match?.[1];
}

async function fileContext(file: TranscriptFile, windowStartMs: number | null): Promise<FileContext> {
  const fileAgentId = agentIdOf(file.path);
  // Sidecars are read only for a transcript that is being read: an unchanged tick reads none.
  const agentMeta = fileAgentId ? await readSmallJson(join(dirname(file.path), `agent-${fileAgentId}.meta.json`), AgentMeta) : undefined;
  const cowork = file.sidecar ? await readSmallJson(file.sidecar, CoworkMeta) : undefined;
  return {
    file,
    fileAgentId,
    agentType: agentMeta?.agentType?.slice(0, 200) ?? null,
    coworkSessionId: cowork?.cliSessionId,
    coworkTitle: cowork?.title?.slice(0, 500) ?? null,
    windowStartMs,
  };
}

function mightHaveParts(line: string): boolean {
  const head = line.slice(0, 80);
  return !NO_PART_TYPES.some((t) => head.includes(t));
}

export class ClaudeProvider implements TranscriptProvider {
  readonly id = 'claude' as const;
  readonly #roots: ClaudeRoots;

  constructor(roots: ClaudeRoots) {
    this.#roots = roots;
  }

  async discover(signal?: AbortSignal): Promise<DiscoveryResult> {
    const scan = new Scan(signal);
    for (const root of this.#roots.roots) await scan.walk(join(root, 'projects'), transcriptRules('code'));
    for (const root of this.#roots.desktopRoots) await discoverDesktop(scan, root);
    return scan.result();
  }

  async *read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const ctx = await fileContext(file, options.windowStartMs);
    const projection = new Projection('claude', file.source);
    for await (const lines of readCompleteLines(file.path, options, stats)) {
      for (const text of lines) {
        if (text.length === 0 || !mightHaveParts(text)) continue;
        const line = parseLine(text);
        if (!line) {
          stats.failedLines += 1;
          continue;
        }
        projectLine(line, ctx, projection);
        if (projection.pending >= options.batchParts) yield projection.take(false);
      }
    }
    yield projection.take(true);
  }
}

