import { createHash } from 'node:crypto';
import { PROVIDERS } from '../../../api/constants/index.js';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { base64Image, bound, boundJson, boundResult, imageFacts, metaJson, parseTs, resultImagesMeta, TEXT_CAP, TOOL_RESULT_CAP, type ResultImage } from '../../bounds.js';
import { countSkip, recountNotATranscript } from '../../lines.js';
import { asObject, asString, type Projection, type Json } from '../../projection.js';
import { PART_FLAGS, type LineStats, type PartRow, type SessionRow, type TranscriptFile } from '../../types.js';
import { userWords } from './genuine.js';

/** The one project of Claude Desktop (Cowork) sessions whose sidecar names no folder: not a folder itself. */
export const DESKTOP_PROJECT = 'Claude Desktop';

/**
 * Line types that carry no conversation content, counted `meta_only`: every type besides `user` and
 * `assistant` that Claude Code's session storage declares (2.1.26x, with `task-summary` and
 * `speculation-accept` from earlier versions). Titles and per-session latches (mode, color, the agent's
 * name and setting), worktree and cwd moves, snapshots, costs, queue and progress events, PR, bridge
 * and fork links; a context-collapse or content-replacement record restates messages the file holds.
 * Any other type is counted `unknown_type`: something newer that this parser does not read yet.
 */
const META_TYPES = new Set([
  'summary',
  'custom-title',
  'ai-title',
  'agent-name',
  'agent-color',
  'agent-setting',
  'last-prompt',
  'task-summary',
  'tag',
  'attachment',
  'system',
  'progress',
  'queue-operation',
  'mode',
  'permission-mode',
  'atis-latch',
  'isolation-latch',
  'worktree-state',
  'relocated',
  'continued-in',
  'ended-by-model',
  'history-suppression',
  'file-history-snapshot',
  'file-history-delta',
  'attribution-snapshot',
  'content-replacement',
  'cost-state',
  'speculation-accept',
  'marble-origami-commit',
  'marble-origami-reset',
  'marble-origami-snapshot',
  'pr-link',
  'bridge-session',
  'fork-context-ref',
  'frame-link',
  'observer-ref',
  'artifact-autoreact-ledger',
  'artifact-comment-monitor',
]);
const TASK_TOOLS = new Set(['Task', 'Agent']);
/** Open Task/Agent calls kept across reads; a call whose result never comes ages out. */
const MAX_OPEN_TASKS = 256;
const AGENT_ID_IN_TEXT = /agentId: ([A-Za-z0-9_-]{1,64})/;
/** The model Claude Code names on the messages it writes itself (API errors, "No response requested."). */
const SYNTHETIC_MODEL = '<synthetic>';
/** How far below `subagents/` a subagent transcript may sit (`subagents/workflows/<id>/agent-….jsonl`). */
const SUBAGENT_NESTING = 3;
/** Worktree projects kept across reads: only of the sessions a file is named for (its own, a Cowork one), so a bound to spare. */
const MAX_ORIGINS = 8;
/**
 * Content keys of lines without a uuid kept across reads, with how often each came. Two lines share a
 * key only when written at the same moment, so a twin is never far before its copy: this bound is ample.
 */
const MAX_SEEN = 256;
/**
 * Sessions whose first line a file showed, kept across reads: the file's own and those it holds copies
 * of (a fork of a fork copies each conversation it descends from), so a bound to spare.
 */
const MAX_BEGUN = 64;
/** A cwd in a worktree Claude Code made (`--worktree`, a background job): `<repo>/.claude/worktrees/<name>[/…]`. */
const CLAUDE_WORKTREE = /^(.*?[^\\/])[\\/]\.claude[\\/]worktrees[\\/][^\\/]+(?:[\\/].*)?$/;

/** What a later read of the same file needs to go on where this one stopped. */
export interface ClaudeState {
  /** Open Task/Agent calls: tool_use id → the subagent type it asked for. */
  tasks: Array<[string, string]>;
  /** The session a subagent transcript's lines went to: a read with no new line still knows it. */
  agentSession?: string;
  /**
   * The project of a session of this file that ran in a worktree (see worktreeOrigin): a later read,
   * whose lines neither repeat the `worktree-state` line nor need to keep the worktree's cwd, still knows it.
   */
  origins?: Array<[string, string]>;
  /** How often each content key of a line without a uuid came so far (see lineKey). */
  seen?: Array<[string, number]>;
  /** Set while no line read so far has any of Claude Code's shapes (see claudeShaped): the file is no transcript. */
  notATranscript?: true;
  /** The last line with a uuid, not a subagent's: its uuid and session (see followOn). */
  last?: [string, string];
  /** The sessions whose first line the reads so far met (see followOn). */
  begun?: string[];
  /** Session → the message another file holds that its first line follows (SessionRow.followsMessage). */
  follows?: Array<[string, string]>;
}

const isPairs = (value: unknown): value is Array<[string, string]> =>
  Array.isArray(value) && value.every((t) => Array.isArray(t) && t.length === 2 && typeof t[0] === 'string' && typeof t[1] === 'string');

const isCounts = (value: unknown): value is Array<[string, number]> =>
  Array.isArray(value) && value.every((t) => Array.isArray(t) && t.length === 2 && typeof t[0] === 'string' && typeof t[1] === 'number');

export function isClaudeState(value: unknown): value is ClaudeState {
  const state = asObject(value);
  const agentSession = state?.agentSession;
  return (
    isPairs(state?.tasks) &&
    (agentSession === undefined || typeof agentSession === 'string') &&
    (state.origins === undefined || isPairs(state.origins)) &&
    (state.seen === undefined || isCounts(state.seen)) &&
    (state.notATranscript === undefined || state.notATranscript === true) &&
    (state.last === undefined || isPairs([state.last])) &&
    (state.begun === undefined || (Array.isArray(state.begun) && state.begun.every((id) => typeof id === 'string'))) &&
    (state.follows === undefined || isPairs(state.follows))
  );
}

export interface FileContext {
  file: TranscriptFile;
  /** From the file name when the file is a subagent transcript (both layouts). */
  fileAgentId: string | undefined;
  /** The session of lines that carry no `sessionId`: the file's base name (a subagent's: its parent folder's). */
  fileSessionId: string;
  /** A subagent transcript in the `<sessionId>/subagents/` layout (its parent is known from the path). */
  inSubagents: boolean;
  agentType: string | null;
  /** The session of a subagent transcript's lines: from an earlier read, else from the `subagents/` path. */
  agentSession: string | undefined;
  coworkSessionId: string | undefined;
  coworkTitle: string | null;
  coworkModel: string | null;
  /** Cowork: the folder the user selected, else the one Claude Desktop project; said only of the sessions the file owns (ownsSession). */
  projectCwd: string | null;
  /** Session → the folder its worktree came from, for the sessions this file owns that ran in one (see worktreeOrigin). */
  origins: Map<string, string>;
  windowStartMs: number | null;
  tasks: Map<string, string>;
  /** Content key of a line without a uuid → how often it came in this file so far (see lineKey). */
  seen: Map<string, number>;
  /** The last line with a uuid, not a subagent's: its uuid and session (see followOn). */
  lastUuid: string | undefined;
  lastSession: string | undefined;
  /** Sessions whose first line this file showed (see followOn). */
  begun: Set<string>;
  /** Session → the message another file holds that its first line follows (see followOn). */
  follows: Map<string, string>;
  /** Whether the parent's transcript is on disk (asked once per parent). */
  parentExists: (sessionId: string) => boolean;
  /**
   * Whether a line of this file had one of Claude Code's shapes (claudeShaped). A read going on from a
   * checkpoint follows lines already read: of a transcript, unless its state says they were none.
   */
  shaped: boolean;
}

export interface FileFacts {
  agentType: string | null;
  cowork: { cliSessionId?: string | undefined; title?: string | undefined; model?: string | undefined; userSelectedFolders?: string[] | undefined } | undefined;
}

export function agentIdOf(path: string): string | undefined {
  // Asked of every file a walk finds: a path that holds no `agent-` is none, without taking its name apart.
  if (!path.includes('agent-')) return undefined;
  const match = /^agent-(.+)\.jsonl$/.exec(basename(path));
  return match?.[1];
}

/** The `subagents` folder a subagent transcript sits in, directly or in a workflow's folder below it. */
function subagentsDir(path: string): string | undefined {
  let dir = dirname(path);
  for (let i = 0; i < SUBAGENT_NESTING; i += 1, dir = dirname(dir)) if (basename(dir) === 'subagents') return dir;
  return undefined;
}

export function fileContext(file: TranscriptFile, facts: FileFacts, windowStartMs: number | null, state: ClaudeState | undefined): FileContext {
  const fileAgentId = agentIdOf(file.path);
  const subagents = fileAgentId === undefined ? undefined : subagentsDir(file.path);
  const inSubagents = subagents !== undefined;
  // <project>/<sessionId>/subagents/[workflows/<id>/]agent-<id>.jsonl, or the older <project>/agent-<id>.jsonl.
  const projectDir = subagents ? dirname(dirname(subagents)) : dirname(file.path);
  const fileSessionId = subagents ? basename(dirname(subagents)) : basename(file.path, '.jsonl');
  const known = new Map<string, boolean>();
  const parentExists = (sessionId: string) => {
    let exists = known.get(sessionId);
    if (exists === undefined) known.set(sessionId, (exists = existsSync(join(projectDir, `${sessionId}.jsonl`))));
    return exists;
  };
  const folder = facts.cowork?.userSelectedFolders?.find((f) => f.trim() !== '');
  return {
    file,
    fileAgentId,
    fileSessionId,
    inSubagents,
    agentType: facts.agentType,
    agentSession: state?.agentSession ?? (inSubagents ? `${fileSessionId}:agent-${fileAgentId}` : undefined),
    coworkSessionId: facts.cowork?.cliSessionId,
    coworkTitle: facts.cowork?.title ?? null,
    coworkModel: facts.cowork?.model ?? null,
    projectCwd: file.source === PROVIDERS.claude.roots.desktop_roots.source ? (folder ?? DESKTOP_PROJECT) : null,
    origins: new Map(state?.origins ?? []),
    windowStartMs,
    tasks: new Map(state?.tasks ?? []),
    seen: new Map(state?.seen ?? []),
    lastUuid: state?.last?.[0],
    lastSession: state?.last?.[1],
    begun: new Set(state?.begun ?? []),
    follows: new Map(state?.follows ?? []),
    parentExists,
    shaped: state !== undefined && state.notATranscript !== true,
  };
}

export function stateOf(ctx: FileContext): ClaudeState {
  const state: ClaudeState = { tasks: [...ctx.tasks].slice(-MAX_OPEN_TASKS) };
  if (ctx.agentSession !== undefined) state.agentSession = ctx.agentSession;
  if (ctx.origins.size > 0) state.origins = [...ctx.origins].slice(-MAX_ORIGINS);
  if (ctx.seen.size > 0) state.seen = [...ctx.seen];
  if (!ctx.shaped) state.notATranscript = true;
  if (ctx.lastUuid !== undefined && ctx.lastSession !== undefined) state.last = [ctx.lastUuid, ctx.lastSession];
  if (ctx.begun.size > 0) state.begun = [...ctx.begun].slice(-MAX_BEGUN);
  if (ctx.follows.size > 0) state.follows = [...ctx.follows].slice(-MAX_BEGUN);
  return state;
}

/**
 * The one rule for which file says a session's project: only the session's own file. That is the file
 * named for the session its lines name (`lineSession`; a subagent's lines name its parent), as
 * `<sessionId>.jsonl` or a transcript under `<sessionId>/subagents/`; the file a subagent's own
 * transcript is (`agent-<agentId>.jsonl`, both layouts); or a file in the sandbox home whose Cowork
 * sidecar names that session. Lines copied from another session (a resume, a fork, a Cowork
 * continuation) keep that session's id and still add their parts, but they never move it. Its own file
 * decides, whichever file is read first: a copy says nothing, and the gateway's merge keeps what the
 * own file said.
 */
export function ownsSession(ctx: FileContext, lineSession: string, agentId?: string): boolean {
  return lineSession === ctx.fileSessionId || lineSession === ctx.coworkSessionId || (agentId !== undefined && agentId === ctx.fileAgentId);
}

/**
 * A session whose own file is not beside this one (a transcript saved under another name, or a copy
 * that outlived its session's file): what these lines say of its worktree is all there is, and it is
 * a fact of the lines, so the session lands where its own file would put it. Said never of a session
 * whose own file is there: that file decides (ownsSession), and a copy moves nothing.
 */
function ownFileAbsent(ctx: FileContext, lineSession: string, agentId?: string): boolean {
  return !ownsSession(ctx, lineSession, agentId) && !ctx.parentExists(lineSession);
}

/** An unowned session (ownFileAbsent) in a worktree of Claude Code's own: the repository, unless a `worktree-state` line said already. */
function adoptWorktree(session: SessionRow): void {
  session.projectCwd ??= claudeWorktreeRepo(session.cwd) ?? null;
}

/** The repository a cwd in a worktree of Claude Code's own lies in (`<repo>/.claude/worktrees/<name>[/…]`). */
export function claudeWorktreeRepo(cwd: string | null): string | undefined {
  return cwd === null ? undefined : CLAUDE_WORKTREE.exec(cwd)?.[1];
}

/**
 * A session that ran in a worktree belongs to the repository's project, not to a project of the
 * worktree's own: the folder its own file's `worktree-state` line named (`originalCwd`; a worktree a
 * hook made outside `.claude/` included), else the repository of a cwd under `.claude/worktrees/`.
 * Said only by what the transcript holds: a git worktree that no line names stays its own folder.
 * Kept (ctx.origins) once known, so a later read whose cwd moved out of the worktree keeps the project.
 */
function worktreeOrigin(session: SessionRow, ctx: FileContext): string | undefined {
  const known = ctx.origins.get(session.sessionId);
  if (known !== undefined) return known;
  const repo = claudeWorktreeRepo(session.cwd);
  // Kept for the file's own session only: the many subagents a parent's file tells of never push it out.
  const own = session.sessionId === ctx.fileSessionId || session.sessionId === ctx.coworkSessionId;
  if (repo !== undefined && own) ctx.origins.set(session.sessionId, repo);
  return repo;
}

/**
 * What a session's own file says of its project: Cowork's folder, else (a Claude Code file) the
 * repository of the worktree it ran in, else that the project is the session's cwd, which undoes a move
 * an older parser made from a copy (ownFile).
 */
function ownProject(session: SessionRow, ctx: FileContext): void {
  session.ownFile = true;
  const project = ctx.projectCwd ?? worktreeOrigin(session, ctx);
  if (project !== undefined) session.projectCwd = project;
}

/**
 * A `worktree-state` line names the folder the session's worktree was made from (`originalCwd`); a
 * null `worktreeSession` (the session left its worktree) changes nothing. The session's own file says,
 * else this one when that file is not beside it (ownFileAbsent): the file's name never decides.
 */
function worktreeState(line: Json, ctx: FileContext, projection: Projection): void {
  const origin = asString(asObject(line.worktreeSession)?.originalCwd)?.trim();
  const lineSession = lineSessionOf(line) ?? ctx.fileSessionId;
  if (!origin) return;
  if (ownsSession(ctx, lineSession)) {
    ctx.origins.set(lineSession, origin);
    ownProject(projection.session(lineSession), ctx);
  } else if (ownFileAbsent(ctx, lineSession)) {
    // Not kept across reads: the cache keeps a project that a file not the session's own named.
    projection.session(lineSession).projectCwd = origin;
  }
}

interface MessageBase {
  sessionId: string;
  role: string;
  ts: number | null;
  /** `cc:{uuid}` for a line with a uuid; else an id from the line's content and byte offset. */
  idPrefix: string;
  /** A line without a uuid: what it says wherever it sits (see lineKey); its parts' keys add the block. */
  contentKey: string | null;
  flags: number;
  /** A user line that may hold the user's words (not meta, not a compaction summary, not a subagent's). */
  mayBeGenuine: boolean;
  /** A message Claude Code wrote for a failed API call: its text is an `error` part, not the assistant's words. */
  apiError: boolean;
}

interface Parts {
  rows: PartRow[];
  genuine: string | undefined;
}

function partRow(base: MessageBase, index: number, kind: string, text: string | null, meta: Record<string, unknown>, flags: number): PartRow {
  // An explicit literal (not a spread of `base`): this runs once per part of a cold import.
  return { partId: `${base.idPrefix}:${index}`, sessionId: base.sessionId, provider: 'claude', role: base.role, kind, ts: base.ts, text, meta: metaJson(meta), flags, contentKey: base.contentKey === null ? null : `${base.contentKey}:${index}` };
}

function textPart(base: MessageBase, index: number, text: string, out: Parts): PartRow {
  const words = base.mayBeGenuine ? userWords(text) : undefined;
  if (words !== undefined) out.genuine ??= words;
  const b = bound(text, TEXT_CAP);
  const flags = words !== undefined ? base.flags | PART_FLAGS.genuineUserTurn : base.flags;
  return partRow(base, index, base.apiError ? 'error' : 'text', b.text, { truncated: b.truncated }, flags);
}

/** One item of a tool_result's content array as text (an image is not text: toolResult keeps its facts). */
function resultItemText(item: unknown): string {
  // A plain string is text, as the Messages API reads it.
  if (typeof item === 'string') return item;
  const inner = asObject(item);
  if (inner?.type === 'text' && typeof inner.text === 'string') return inner.text;
  // ToolSearch answers with references to the tools it loaded (no text): their names are the result.
  if (inner?.type === 'tool_reference' && typeof inner.tool_name === 'string') return inner.tool_name;
  // A file given inline (a PDF a tool read: `document` with a base64 source) is said as its facts;
  // megabytes of base64 never reach the cache or the index.
  const source = asObject(inner?.source);
  if (source?.type === 'base64') {
    const facts = imageFacts(source.media_type, source.data);
    return `[${typeof inner?.type === 'string' ? inner.type : 'file'}${facts.media_type ? ` ${String(facts.media_type)}` : ''}, ${String(facts.bytes)} bytes]`;
  }
  // A block of a kind not known here is kept as its JSON, as a message's own unknown blocks are; the
  // result is bounded as a whole (its length and hash are the whole text's). Parsed JSON always stringifies.
  return JSON.stringify(item) ?? '';
}

function toolResult(block: Json): [string, Record<string, unknown>] {
  const content = block.content;
  let text: string;
  const images: ResultImage[] = [];
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const item of content) {
      const inner = asObject(item);
      // A screenshot's type and size, from its base64's length: never its data, never decoded.
      if (inner?.type === 'image') images.push(base64Image(asObject(inner.source)?.media_type, asObject(inner.source)?.data));
      else texts.push(resultItemText(item));
    }
    text = texts.join('\n');
  } else text = '';
  const b = boundResult(text);
  return [b.text, { toolUseId: asString(block.tool_use_id), isError: block.is_error === true ? true : undefined, ...resultImagesMeta(images), truncated: b.truncated }];
}

function blockPart(base: MessageBase, raw: unknown, index: number, out: Parts): PartRow {
  // A plain string inside a content array is text, as the Messages API reads it.
  if (typeof raw === 'string') return textPart(base, index, raw, out);
  const block = asObject(raw) ?? {};
  const type = asString(block.type) ?? 'unknown';
  if (type === 'text') return textPart(base, index, typeof block.text === 'string' ? block.text : '', out);
  if (type === 'thinking') {
    const b = bound(typeof block.thinking === 'string' ? block.thinking : '', TEXT_CAP);
    return partRow(base, index, 'thinking', b.text, { truncated: b.truncated }, base.flags);
  }
  // Its `data` is encrypted: there is nothing to read or search, only that the model thought.
  if (type === 'redacted_thinking') return partRow(base, index, 'thinking', null, { redacted: true }, base.flags);
  if (type === 'tool_use') {
    const b = boundJson(block.input ?? null, TOOL_RESULT_CAP);
    return partRow(base, index, 'tool_use', b.text, { name: asString(block.name), toolUseId: asString(block.id), truncated: b.truncated }, base.flags);
  }
  if (type === 'tool_result') return partRow(base, index, 'tool_result', ...toolResult(block), base.flags);
  if (type === 'image') {
    const source = asObject(block.source) ?? {};
    return partRow(base, index, 'image', null, imageFacts(source.media_type, source.data), base.flags);
  }
  // A file given inline in a message (a PDF the person attached: `document` with a base64 source) is
  // kept as its facts, as an image is; its base64 is not text to store or search.
  const source = asObject(block.source);
  if (source?.type === 'base64') return partRow(base, index, type.slice(0, 64), null, { ...imageFacts(source.media_type, source.data), title: asString(block.title)?.slice(0, 500) }, base.flags);
  const b = boundJson(block, TOOL_RESULT_CAP);
  return partRow(base, index, type.slice(0, 64), b.text, { truncated: b.truncated }, base.flags);
}

function contentParts(content: unknown, base: MessageBase): Parts {
  const out: Parts = { rows: [], genuine: undefined };
  if (typeof content === 'string') out.rows.push(textPart(base, 0, content, out));
  else if (Array.isArray(content)) for (let i = 0; i < content.length; i += 1) out.rows.push(blockPart(base, content[i], i, out));
  return out;
}

function flagsOf(line: Json, sidechain: boolean): number {
  let flags = 0;
  if (line.isMeta === true) flags |= PART_FLAGS.meta;
  if (line.isCompactSummary === true) flags |= PART_FLAGS.compactSummary;
  if (sidechain) flags |= PART_FLAGS.sidechain;
  return flags;
}

/**
 * What a message line without a uuid says, wherever it sits: its id comes from its byte offset, so a
 * rewrite that moves it (a summary line put at the top) gives it a new id, and this key finds the one
 * stored before (the materializer's content-key rule). The session, time, type and content, and how
 * often the same came before in the file: a prompt typed twice, even as the same bytes, is two messages.
 * Only for a line with a time: two lines share a key only when written in the same millisecond.
 */
function lineKey(sessionId: string, said: LineMessage, ctx: FileContext): string {
  const content = JSON.stringify(said.message.content ?? null) ?? '';
  const hash = createHash('sha256').update(sessionId).update('\0').update(String(said.ts)).update('\0').update(said.type).update('\0').update(content).digest('hex').slice(0, 16);
  const before = ctx.seen.get(hash) ?? 0;
  // The most recent last, so the bound forgets the keys met longest ago.
  ctx.seen.delete(hash);
  ctx.seen.set(hash, before + 1);
  if (ctx.seen.size > MAX_SEEN) ctx.seen.delete(ctx.seen.keys().next().value!);
  return `${hash}.${before}`;
}

/** A message line without a uuid: an id from its session, its bytes and where it starts in the file. */
function derivedPrefix(sessionId: string, text: string, offset: number): string {
  const hash = createHash('sha256').update(sessionId).update('\n').update(text).digest('hex').slice(0, 16);
  return `cc:${sessionId}@${offset}.${hash}`;
}

/** The subagent a Task/Agent result names: `toolUseResult.agentId`, else `agentId: …` in the result text. */
function resultAgentId(line: Json, block: Json): string | undefined {
  const fromResult = asString(asObject(line.toolUseResult)?.agentId);
  if (fromResult) return fromResult;
  const content = block.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => (typeof asObject(c)?.text === 'string' ? (asObject(c)!.text as string) : '')).join('\n') : '';
  return AGENT_ID_IN_TEXT.exec(text)?.[1];
}

/** Task/Agent calls open a subagent; their result names it, and the subagent's session learns its type. */
function trackTasks(line: Json, content: unknown, lineSession: string, ctx: FileContext, projection: Projection): void {
  // Only an assistant line opens a call, and only a user line with a call open can close one.
  if (!Array.isArray(content) || (line.type === 'user' && ctx.tasks.size === 0)) return;
  for (const raw of content) {
    const block = asObject(raw);
    if (!block) continue;
    if (block.type === 'tool_use' && TASK_TOOLS.has(block.name as string)) {
      const id = asString(block.id);
      const type = asString(asObject(block.input)?.subagent_type);
      if (id && type) {
        ctx.tasks.delete(id);
        ctx.tasks.set(id, type.slice(0, 200));
        if (ctx.tasks.size > MAX_OPEN_TASKS) ctx.tasks.delete(ctx.tasks.keys().next().value!);
      }
    } else if (block.type === 'tool_result') {
      const id = asString(block.tool_use_id);
      const type = id ? ctx.tasks.get(id) : undefined;
      const agentId = type ? resultAgentId(line, block) : undefined;
      if (!id || !type || !agentId) continue;
      ctx.tasks.delete(id);
      const child = projection.session(`${lineSession}:agent-${agentId}`);
      child.parentSessionId = lineSession;
      child.parentKind = 'subagent';
      if (child.agentTypeSource !== 'sidecar') {
        child.agentType = type;
        child.agentTypeSource = 'task';
      }
      // Its cwd first: a subagent that ran in a worktree belongs to the repository's project (ownProject).
      if (child.cwd === null) child.cwd = asString(line.cwd) ?? null;
      if (ownsSession(ctx, lineSession)) ownProject(child, ctx);
      else if (ownFileAbsent(ctx, lineSession)) adoptWorktree(child);
      // Vouched without a time: the result's is the main agent's, not the subagent's. Its span comes
      // only from its own lines (its transcript, or sidechain lines here), whichever file is read first.
      projection.vouch(child, null);
    }
  }
}

function describeSession(session: SessionRow, line: Json, agentId: string | undefined, lineSession: string, ctx: FileContext, projection: Projection): void {
  if (session.cwd === null) session.cwd = asString(line.cwd) ?? null;
  if (ownsSession(ctx, lineSession, agentId)) ownProject(session, ctx);
  else if (ownFileAbsent(ctx, lineSession, agentId)) adoptWorktree(session);
  if (agentId) {
    if (ctx.fileAgentId !== undefined) ctx.agentSession = session.sessionId;
    session.parentSessionId = lineSession;
    session.parentKind = 'subagent';
    session.parentMissing = !ctx.parentExists(lineSession);
    if (ctx.agentType) {
      session.agentType = ctx.agentType;
      session.agentTypeSource = 'sidecar';
    }
  } else if (ctx.follows.size > 0) {
    // A claim an earlier read made rides on every row of the session until the sink links it (followOn).
    session.followsMessage ??= ctx.follows.get(lineSession) ?? null;
  }
  if (session.sessionId === ctx.coworkSessionId) {
    if (ctx.coworkTitle) projection.title(session, ctx.coworkTitle, 'sidecar');
    if (ctx.coworkModel && session.model === null) session.model = ctx.coworkModel;
  }
}

/**
 * The Cowork sidecar's title and project for the session its transcript holds, whether or not this
 * read has a line for it (update-only then: a session the cache does not hold is not created).
 */
export function describeCowork(ctx: FileContext, projection: Projection): void {
  const id = ctx.coworkSessionId;
  if (id === undefined || ctx.fileAgentId !== undefined || ctx.fileSessionId !== id) return;
  const session = projection.session(id);
  ownProject(session, ctx);
  if (ctx.coworkTitle) projection.title(session, ctx.coworkTitle, 'sidecar');
}

/**
 * A subagent sidecar's type for the session its transcript holds, whether or not this read has a line
 * for it: the sidecar may be written after the transcript (update-only then, as for Cowork).
 */
export function describeAgent(ctx: FileContext, projection: Projection): void {
  if (ctx.agentType === null || ctx.agentSession === undefined) return;
  const session = projection.session(ctx.agentSession);
  session.agentType = ctx.agentType;
  session.agentTypeSource = 'sidecar';
}

/** What a line says as a message: a user or assistant line, or a prompt the user queued while the agent worked. */
interface LineMessage {
  type: 'user' | 'assistant';
  message: Json;
  ts: number | null;
  /** Nothing on the line says someone other than the person wrote it (a peer session, a notification). */
  fromPerson: boolean;
}

/** 2.1 names who a user row came from: `origin.kind` (human, peer, task-notification…) and `promptSource`. */
function fromPerson(origin: unknown, promptSource: unknown): boolean {
  const kind = asString(asObject(origin)?.kind);
  return (kind === undefined || kind === 'human') && promptSource !== 'system';
}

/**
 * A prompt typed while the agent was busy reaches the model inside the running turn, and Claude Code
 * writes it only as a `queued_command` attachment (no user line follows): the user's words all the same.
 */
function queuedPrompt(line: Json): LineMessage | undefined {
  const attachment = asObject(line.attachment);
  const prompt = attachment?.prompt;
  if (attachment?.type !== 'queued_command' || (typeof prompt !== 'string' && !Array.isArray(prompt))) return undefined;
  const mode = attachment.commandMode;
  return {
    type: 'user',
    message: { role: 'user', content: prompt },
    ts: parseTs(line.timestamp) ?? parseTs(attachment.timestamp),
    fromPerson: (mode === undefined || mode === 'prompt') && fromPerson(attachment.origin, line.promptSource),
  };
}

function projectMessage(line: Json, said: LineMessage, text: string, offset: number, ctx: FileContext, projection: Projection, stats: LineStats): void {
  const { type, message, ts } = said;
  if (ctx.windowStartMs !== null && ts !== null && ts < ctx.windowStartMs) return countSkip(stats, 'outside_window');
  const ownSession = lineSessionOf(line);
  const lineSession = ownSession ?? ctx.fileSessionId;
  // A flat agent file whose lines name no session has no known parent: it is a session of its own.
  const agentSource = ownSession || ctx.inSubagents ? ctx.fileAgentId : undefined;
  const agentId = line.isSidechain === true || agentSource ? (lineAgentOf(line) ?? agentSource) : undefined;
  const sessionId = agentId ? `${lineSession}:agent-${agentId}` : lineSession;
  const session = projection.session(sessionId);
  describeSession(session, line, agentId, lineSession, ctx, projection);
  const model = asString(message.model);
  // An API error or "No response requested." is not a model's answer: the session keeps the model it had.
  if (type === 'assistant' && model !== undefined && model !== SYNTHETIC_MODEL) session.model = model.slice(0, 200);
  const sidechain = agentId !== undefined || line.isSidechain === true;
  const flags = flagsOf(line, sidechain);
  const uuid = asString(line.uuid);
  const base: MessageBase = {
    sessionId,
    role: asString(message.role) ?? type,
    ts,
    idPrefix: uuid ? `cc:${uuid}` : derivedPrefix(sessionId, text, offset),
    // A line with no time keeps its offset's id alone: the bounded count could forget a twin far before it,
    // and a key matching that twin would keep the second from being stored at all (a rewrite may double it instead).
    contentKey: uuid || said.ts === null ? null : lineKey(sessionId, said, ctx),
    flags,
    mayBeGenuine: type === 'user' && flags === 0 && line.isVisibleInTranscriptOnly !== true && said.fromPerson,
    apiError: type === 'assistant' && line.isApiErrorMessage === true,
  };
  const parts = contentParts(message.content, base);
  if (parts.rows.length === 0) return countSkip(stats, 'empty');
  for (const part of parts.rows) projection.add(part, session);
  if (parts.genuine !== undefined) projection.request(session, parts.genuine);
  trackTasks(line, message.content, lineSession, ctx, projection);
}

/**
 * The longest session id a line may name: the contract reads ids of at most 300 characters (a
 * subagent's adds `:agent-<id>` to its parent's), and Claude Code's are 36.
 */
const MAX_LINE_SESSION_ID = 200;

/**
 * The session a line names, when it can be one: a string of at most MAX_LINE_SESSION_ID characters
 * that does not hold `:agent-` (the mark of a subagent's id, which a line must not forge to file itself
 * under another conversation). Any other value reads as naming none: the line is the file's own
 * session's, as a line without `sessionId` is. Stored otherwise, a 10 KB id could be listed and searched
 * but never shown, exported or forgotten.
 */
function lineSessionOf(line: Json): string | undefined {
  const id = asString(line.sessionId);
  return id !== undefined && id.length <= MAX_LINE_SESSION_ID && !id.includes(':agent-') ? id : undefined;
}

/** A line's `agentId` when it can name a subagent (Claude Code's are 7 to 17 characters): short, no `:`. */
function lineAgentOf(line: Json): string | undefined {
  const id = asString(line.agentId);
  return id !== undefined && id.length <= 64 && !id.includes(':') ? id : undefined;
}

/** The session a metadata line names (`sessionId`), else the file's own. */
function namedSession(line: Json, ctx: FileContext, projection: Projection): SessionRow {
  return projection.session(lineSessionOf(line) ?? ctx.fileSessionId);
}

/**
 * A conversation continued in a new one (`--resume`, `--continue`, `--fork-session`, a Desktop
 * continuation) starts with a line whose `parentUuid` is a line of the one it continued: its parent,
 * a branch (a conversation of its own). Claude Code copies that conversation's lines into the new
 * file first, keeping their uuid and session, so the line followed is the one just before, of another
 * session; a version that copied nothing (#8524) names a message only the original's file holds: the
 * session then claims the one holding it (followsMessage), which the sink resolves, whichever file is
 * read first. A subagent's lines never say (their parent is the session that started them), nor does
 * a session that has a parent already, or a line that follows one of its own session.
 */
function followOn(line: Json, ctx: FileContext, projection: Projection): void {
  const uuid = asString(line.uuid);
  if (uuid === undefined || line.isSidechain === true || ctx.fileAgentId !== undefined) return;
  const lineSession = lineSessionOf(line) ?? ctx.fileSessionId;
  const beforeUuid = ctx.lastUuid;
  const beforeSession = ctx.lastSession;
  ctx.lastUuid = uuid;
  ctx.lastSession = lineSession;
  if (ctx.begun.has(lineSession)) return;
  ctx.begun.add(lineSession);
  if (ctx.begun.size > MAX_BEGUN) ctx.begun.delete(ctx.begun.values().next().value!);
  const followed = asString(line.parentUuid);
  if (followed === undefined) return;
  const session = projection.session(lineSession);
  if (session.parentSessionId !== null) return;
  if (beforeUuid === followed) {
    if (beforeSession === lineSession) return;
    session.parentSessionId = beforeSession!;
    session.parentKind = 'branch';
    return;
  }
  session.followsMessage = `cc:${followed}:`;
  ctx.follows.set(lineSession, session.followsMessage);
  if (ctx.follows.size > MAX_BEGUN) ctx.follows.delete(ctx.follows.keys().next().value!);
}

/** Projects one parsed line; every line that yields no part is counted with its reason. */
export function projectLine(line: Json, text: string, offset: number, ctx: FileContext, projection: Projection, stats: LineStats): void {
  followOn(line, ctx, projection);
  const type = line.type;
  if (type === 'user' || type === 'assistant') {
    const said: LineMessage = { type, message: asObject(line.message) ?? {}, ts: parseTs(line.timestamp), fromPerson: fromPerson(line.origin, line.promptSource) };
    return projectMessage(line, said, text, offset, ctx, projection, stats);
  }
  const queued = type === 'attachment' ? queuedPrompt(line) : undefined;
  if (queued) return projectMessage(line, queued, text, offset, ctx, projection, stats);
  if (typeof type !== 'string' || !META_TYPES.has(type)) return countSkip(stats, 'unknown_type');
  countSkip(stats, 'meta_only');
  if (type === 'custom-title' && asString(line.customTitle)) projection.title(namedSession(line, ctx, projection), line.customTitle as string, 'custom-title');
  else if (type === 'ai-title' && asString(line.aiTitle)) projection.title(namedSession(line, ctx, projection), line.aiTitle as string, 'ai-title');
  else if (type === 'agent-name' && asString(line.agentName)) projection.title(namedSession(line, ctx, projection), line.agentName as string, 'agent-name');
  else if (type === 'worktree-state') worktreeState(line, ctx, projection);
  else if (type === 'summary' && asString(line.summary)) {
    const leaf = asString(line.leafUuid);
    const fallbackSessionId = lineSessionOf(line) ?? ctx.fileSessionId;
    if (leaf) projection.claim({ leafPartPrefix: `cc:${leaf}:`, fallbackSessionId, title: line.summary as string, source: 'summary' });
    else projection.title(projection.session(fallbackSessionId), line.summary as string, 'summary');
  }
}

/**
 * Whether a parsed line has any shape of Claude Code's: a type it writes, a message, a uuid or a
 * session. A line type newer than this parser still comes with a uuid or a session, so it is a
 * transcript's line of a kind not imported (`unknown_type`); a file none of whose JSON lines has any of
 * these (notes a person or a tool left in a project folder) is no transcript (`not_a_transcript`).
 */
export function claudeShaped(line: Json): boolean {
  const type = line.type;
  if (type === 'user' || type === 'assistant' || (typeof type === 'string' && META_TYPES.has(type))) return true;
  return typeof line.uuid === 'string' || typeof line.sessionId === 'string' || asObject(line.message) !== undefined;
}

/**
 * At the end of a file's read: when none of its lines had Claude Code's shapes, the lines of unknown
 * kind it counted are lines of a file that is no transcript, said so rather than as a kind not imported.
 */
export function countNotATranscript(ctx: FileContext, stats: LineStats): void {
  if (!ctx.shaped) recountNotATranscript(stats);
}

/** Lines whose type is known from their first bytes to hold no part are counted without being parsed. */
const NO_PART_HEADS = ['"type":"file-history-snapshot"', '"type":"progress"', '"type":"queue-operation"'];

export function headSaysNoPart(line: string): boolean {
  const head = line.slice(0, 80);
  return NO_PART_HEADS.some((t) => head.includes(t));
}
