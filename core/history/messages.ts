import { wholeAt, type SessionMessage, type SessionPart } from '../api/index.js';
import type { OrderedPart } from '../gateway/index.js';

type Json = Record<string, unknown>;

function parseObject(text: string | null): Json {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
  } catch {
    return {};
  }
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** `cc:{uuid}:{block}` and `oc:…:{entryId}:{block}`: a message is the part id without its block index. */
export function messageIdOf(partId: string): string {
  const at = partId.lastIndexOf(':');
  return at > 0 ? partId.slice(0, at) : partId;
}

/** At most `max` characters, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, wholeAt(text, max - 1))}…` : text;
}

function firstLine(text: string | null, max: number): string {
  const line = (text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  return clip(line.trim(), max);
}

/**
 * The argument a person recognises a call by: the command, the file, the pattern, the address. A
 * search's pattern comes before the folder it searched (Grep and Glob take both).
 */
const TOOL_ARGUMENTS = ['command', 'cmd', 'file_path', 'pattern', 'path', 'notebook_path', 'url', 'query', 'description', 'prompt'];

/** A command given as its argv (Codex's `shell`: `["bash", "-lc", "npm test"]`) reads as the line typed. */
function argumentText(value: unknown): string | null {
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    const argv = value as string[];
    return argv.length === 3 && /^(?:ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!) ? argv[2]! : argv.join(' ');
  }
  return str(value);
}

/** A to-do list's call (Claude Code's TodoWrite) says how far the list is, not its first item's words. */
function todoSummary(todos: unknown[]): string {
  const status = (t: unknown) => (t !== null && typeof t === 'object' ? (t as Json).status : undefined);
  const done = todos.filter((t) => status(t) === 'completed').length;
  return `${todos.length} to-do${todos.length === 1 ? '' : 's'}, ${done} done`;
}

/** A patch given as text (Codex's apply_patch) is recognised by the first file it touches. */
const PATCHED_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m;

/** A tool call's one line from its stored input (the viewer's fold, a search hit's heading). */
export function toolCallLine(name: string | null, text: string | null): string {
  return toolUseSummary(name, parseObject(text), text);
}

function toolUseSummary(name: string | null, input: Json, raw: string | null): string {
  const label = name ?? 'tool';
  if (Array.isArray(input.todos)) return `${label}: ${todoSummary(input.todos)}`;
  const argument = TOOL_ARGUMENTS.map((key) => argumentText(input[key])).find((value) => value !== null) ?? PATCHED_FILE.exec(raw?.slice(0, 2_000) ?? '')?.[1];
  return argument ? `${label}: ${firstLine(argument, 140)}` : label;
}

/** Claude Code writes a failed command's result as "Exit code N" (or "Error: Exit code N") first. */
function exitCodeOf(text: string | null): number | null {
  const match = /^(?:Error: )?Exit code (\d+)/m.exec(text?.slice(0, 200) ?? '');
  return match ? Number(match[1]) : null;
}

function toolResultSummary(text: string | null, isError: boolean): string {
  const lines = (text ?? '').split('\n').filter((l) => l.trim() !== '').length;
  const exit = exitCodeOf(text);
  // After "Exit code N" the first line that says why.
  const why = exit !== null ? firstLine((text ?? '').replace(/^(?:Error: )?Exit code \d+\s*/, ''), 120) : firstLine(text, 120);
  if (isError) return `${exit !== null ? `exit code ${exit}` : 'failed'}: ${why || 'no output'}`;
  return lines === 0 ? 'no output' : `${lines} line${lines === 1 ? '' : 's'}: ${firstLine(text, 120)}`;
}

/** A slash command's echo opens with these elements, in either order (`<command-message>` first in newer versions). */
const COMMAND_ECHO = /^\s*<command-(?:name|message|args)>/;
const COMMAND_NAME = /<command-name>\s*([^<\n]{1,200}?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([^<]{0,2000})<\/command-args>/;
const TAG = /<\/?[a-z][\w-]*>/g;

/** The command a harness-written echo of a slash command names ("/clear"), with or without its slash. */
function slashCommandOf(text: string): string | null {
  if (!COMMAND_ECHO.test(text)) return null;
  const name = COMMAND_NAME.exec(text)?.[1];
  if (!name) return null;
  return name.startsWith('/') ? name : `/${name}`;
}

/**
 * The one line a fold shows of user text the harness wrote: the command and its arguments for an
 * echo, else the first line with the harness's tags taken out (a command's output, a hook's line).
 */
function harnessSummary(text: string, command: string | null): string {
  if (command !== null) {
    const args = firstLine(COMMAND_ARGS.exec(text)?.[1] ?? null, 120);
    return args ? `${command} ${args}` : command;
  }
  // The first line is all a fold shows: a long text (a compaction summary) is not scanned whole.
  const head = text.slice(0, 2_000);
  return firstLine(head.replace(TAG, ' '), 120) || firstLine(head, 120);
}

/** One stored part as a reader sees it, with the one line a folded view shows. */
export function partView(part: OrderedPart): SessionPart {
  const meta = parseObject(part.meta);
  const truncated = meta.truncated !== null && typeof meta.truncated === 'object' ? num((meta.truncated as Json).length) : null;
  const isError = meta.isError === true;
  const toolName = str(meta.name);
  let summary: string | null = null;
  let image: SessionPart['image'] = null;
  let slashCommand: string | null = null;
  // User text the person did not write (capture decided which, once) folds like a tool call.
  if (part.kind === 'text' && part.role === 'user' && !part.genuineUserTurn) {
    slashCommand = slashCommandOf(part.text ?? '');
    summary = harnessSummary(part.text ?? '', slashCommand);
  } else if (part.kind === 'tool_use') summary = toolUseSummary(toolName, parseObject(part.text), part.text);
  else if (part.kind === 'tool_result') summary = toolResultSummary(part.text, isError);
  else if (part.kind === 'thinking') summary = firstLine(part.text, 120) || 'thinking';
  else if (part.kind === 'image') {
    image = { mediaType: str(meta.media_type), bytes: num(meta.bytes) ?? 0 };
    summary = `image${image.mediaType ? ` (${image.mediaType})` : ''}, ${image.bytes} bytes`;
  } else if (part.kind !== 'text') summary = part.kind;
  return {
    partId: part.partId,
    kind: part.kind,
    text: part.text,
    summary,
    toolName,
    toolUseId: str(meta.toolUseId),
    isError,
    truncatedFrom: truncated,
    image,
    genuineUserTurn: part.genuineUserTurn,
    isCompactSummary: part.isCompactSummary,
    slashCommand,
  };
}

/** Consecutive parts of one message become that message, in order. */
export function groupMessages(parts: readonly OrderedPart[]): SessionMessage[] {
  const messages: SessionMessage[] = [];
  let current: SessionMessage | undefined;
  for (const part of parts) {
    const id = messageIdOf(part.partId);
    if (current?.messageId !== id) {
      current = { messageId: id, role: part.role, ts: part.ts, parts: [] };
      messages.push(current);
    }
    current.parts.push(partView(part));
  }
  return messages;
}

/** A one-line stand-in for a title: the first thing asked, whitespace folded, bounded. */
export function oneLine(text: string, max = 200): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}
