import { commandLine, commandText, CUT_GAP, outputLinesWords, partFold, patchedFiles, readToolResult, resultImagesLine, toolArgumentKeys, wholeAt, type CutKept, type SessionMessage, type SessionPart, type ToolResultReading } from '../api/index.js';
import type { OrderedPart } from '../gateway/index.js';
import { countsAsMessage, startsMessage } from '../transcripts/index.js';

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
 * The argument a person recognises a call by: the command, the file, the pattern, the address, by
 * every agent's names for them (the one list the sweeper's digest reads too).
 */
const ARGUMENT_KEYS = toolArgumentKeys();
const COMMAND_ARGUMENTS = new Set(toolArgumentKeys('command'));

/** A command given as its argv (Codex's `shell`: `["bash", "-lc", "npm test"]`) reads as the line typed (core/api's rule). */
function argumentText(value: unknown): string | null {
  return Array.isArray(value) ? commandText(value) : str(value);
}

/** A to-do list's call (Claude Code's TodoWrite) says how far the list is, not its first item's words. */
function todoSummary(todos: unknown[]): string {
  const status = (t: unknown) => (t !== null && typeof t === 'object' ? (t as Json).status : undefined);
  const done = todos.filter((t) => status(t) === 'completed').length;
  return `${todos.length} to-do${todos.length === 1 ? '' : 's'}, ${done} done`;
}

/** A tool call's one line from its stored input (the viewer's fold, a search hit's heading). */
export function toolCallLine(name: string | null, text: string | null): string {
  return toolUseSummary(name, callInput(text), text);
}

/** A complete `"key": "string"` pair; a key or string inside another string has escaped quotes and never matches. */
const STRING_PAIR = /"([A-Za-z_]+)"\s*:\s*("(?:[^"\\]|\\.)*")/g;
/** The string the cut fell in, when it is a key's value: its start, without a lone backslash the cut left. */
const CUT_PAIR = /"([A-Za-z_]+)"\s*:\s*("(?:[^"\\]|\\.)*)\\?$/;

/**
 * A call's input as stored: its JSON, or, when capture kept only the start of a long input (a Write of
 * a big file, cut at 8 KiB mid-string, so no longer JSON), the whole string arguments before the cut.
 * Agents write the file, command or pattern first, so the line still names what the call touched.
 */
function callInput(text: string | null): Json {
  const input = parseObject(text);
  if (text === null || Object.keys(input).length > 0 || !text.startsWith('{')) return input;
  const head: Json = {};
  for (const [, key, literal] of text.matchAll(STRING_PAIR)) {
    if (key === undefined || literal === undefined || key in head || !ARGUMENT_KEYS.includes(key)) continue;
    try {
      head[key] = JSON.parse(literal) as unknown;
    } catch {
      // An escape the regex let through that JSON refuses: that argument is left out.
    }
  }
  // No whole argument before the cut (a long command): the one the cut fell in, as far as it goes.
  const [, key, start] = CUT_PAIR.exec(text) ?? [];
  if (Object.keys(head).length === 0 && key !== undefined && start !== undefined && ARGUMENT_KEYS.includes(key)) {
    try {
      head[key] = JSON.parse(`${start}"`) as unknown;
    } catch {
      // Cut inside an escape (\u00): left out.
    }
  }
  return head;
}

/** The argument a call's one line says, and its key (undefined for a patch, a to-do list, or none). */
function lineArgument(input: Json, raw: string | null): { key: string | undefined; text: string | null } {
  const key = ARGUMENT_KEYS.find((k) => argumentText(input[k]) !== null);
  if (key === undefined) return { key, text: patchWords(patchOf(input, raw)) };
  const value = input[key];
  // Codex's older shell form runs the patch as an argv (`["apply_patch", "*** Begin Patch…"]`): its files, not its text.
  if (Array.isArray(value) && PATCH_COMMANDS.has(String(value[0])) && typeof value[1] === 'string') {
    const files = patchWords(value[1]);
    if (files !== null) return { key: undefined, text: `${String(value[0])} ${files}` };
  }
  return { key, text: argumentText(value) };
}

/** How Codex names its patch command when it runs it through the shell. */
const PATCH_COMMANDS = new Set(['apply_patch', 'applypatch']);

/**
 * A patch call's text (Codex's and OpenClaw's apply_patch): the free text of Codex's custom tool, or
 * the `input` (`patch`) argument of its function call. Only its head: a file line is near the top.
 */
function patchOf(input: Json, raw: string | null): string {
  const text = str(input.input) ?? str(input.patch) ?? (Object.keys(input).length === 0 ? raw : null);
  return text?.slice(0, 2_000) ?? '';
}

/** A patch by the files it touches: the first, and how many more ("src/a.ts and 2 more"); null when it names none. */
function patchWords(patch: string): string | null {
  const [first, ...more] = patchedFiles(patch);
  if (first === undefined) return null;
  return more.length === 0 ? first : `${first} and ${more.length} more`;
}

function toolUseSummary(name: string | null, input: Json, raw: string | null): string {
  const label = name ?? 'tool';
  if (Array.isArray(input.todos)) return `${label}: ${todoSummary(input.todos)}`;
  const { key, text: argument } = lineArgument(input, raw);
  if (!argument) return label;
  return `${label}: ${argumentLine(key, argument).line}`;
}

/** The most of an argument a call's one line shows (characters). */
const LINE_MAX = 140;

/**
 * An argument as a call's one line shows it, and whether that is all of it (callRest then leaves it
 * out): a command reads whole, its lines joined; any other argument by its first line; cut at LINE_MAX.
 * One rule for both, so the line and the words beside it cannot disagree about what was shown.
 */
function argumentLine(key: string | undefined, argument: string): { line: string; whole: boolean } {
  const command = COMMAND_ARGUMENTS.has(key ?? '');
  const all = command ? commandLine(argument) : argument.trim();
  const line = command ? clip(all, LINE_MAX) : firstLine(all, LINE_MAX);
  return { line, whole: line === all };
}

/** An argument's value as words: a string as it is, an argv as the line typed, a list or object by its values. */
function valueWords(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return commandText(value) ?? value.map(valueWords).filter((w) => w !== '').join(', ');
  if (value !== null && typeof value === 'object')
    return Object.entries(value as Json)
      .map(([k, v]) => `${k}: ${valueWords(v)}`)
      .join(', ');
  return '';
}

/**
 * What a tool call says besides its one line (toolCallLine), as words: each other argument as
 * `key: value`, never the call's JSON, so a search hit reads as the call once ("Bash: npm test", then
 * "description: Run the tests"). The argument the line shows whole is left out; empty when that is all.
 * A text the call's JSON could not be read from (a patch, an input cut at capture's cap) is as stored.
 */
export function callRest(text: string | null): string {
  if (text === null) return '';
  const input = parseObject(text);
  if (Object.keys(input).length === 0) return text;
  const { key, text: argument } = Array.isArray(input.todos) ? { key: undefined, text: null } : lineArgument(input, text);
  const shown = key !== undefined && argument !== null && argumentLine(key, argument).whole ? key : undefined;
  return Object.entries(input)
    .filter(([k]) => k !== shown)
    .map(([k, v]) => `${k}: ${valueWords(v)}`)
    .join(' · ');
}

/** How each agent words a tool result (its exit code, its output) is read once, in core/api/tool-results.ts. */
function readResult(provider: string, text: string, meta: Json): ToolResultReading {
  // An exit code capture kept beside the text (an OpenClaw `!` command's) is the command's own.
  return readToolResult(provider, text, meta.exitCode);
}

/**
 * The output a stored tool result wraps (Codex's JSON wrapper), null when the stored text reads as it
 * is: what the viewer and an export show as the result, and what a search's snippet is cut from.
 */
export function wrappedOutput(provider: string, text: string): string | null {
  return readResult(provider, text, {}).output;
}

type ResultImages = NonNullable<SessionPart['resultImages']>;

/**
 * A tool result's images as capture kept them (meta `imageFacts`: each one's type and decoded size),
 * in order; an entry of a shape capture never writes is left out rather than said as a wrong size.
 * Empty for a result stored before capture kept them: its `images` count is then all there is.
 */
function resultImagesOf(facts: unknown): ResultImages {
  if (!Array.isArray(facts)) return [];
  const images: ResultImages = [];
  for (const fact of facts) {
    if (fact === null || typeof fact !== 'object') continue;
    const { media_type: mediaType, bytes } = fact as Json;
    const size = num(bytes);
    if (size === null || size < 0 || !Number.isInteger(size)) continue;
    images.push({ mediaType: str(mediaType), bytes: size });
  }
  return images;
}

/**
 * `cutShort`: Steward kept only the output's start, so its lines are counted as a floor (outputLinesWords).
 * `images`: how many images it returned, and the facts kept of them; said in place of "no output"
 * when it returned no text (resultImagesLine: "2 images: PNG, 34 KB; JPEG, 1.2 MB").
 */
function toolResultSummary({ body, exitCode }: ToolResultReading, failed: boolean, cutShort: boolean, images: number, facts: ResultImages, kept: CutKept | undefined): string {
  const nothing = images > 0 ? resultImagesLine(images, facts) : 'no output';
  if (failed) return `${exitCode !== null ? `exit code ${exitCode}` : 'failed'}: ${firstLine(body, 120) || nothing}`;
  // The gap's own line, where the middle of a result cut at both ends was left out, is no line of it.
  const gap = kept !== undefined && body.includes(CUT_GAP) ? 1 : 0;
  const lines = body.split('\n').filter((l) => l.trim() !== '').length - gap;
  return lines === 0 ? nothing : `${outputLinesWords(lines, cutShort)}: ${firstLine(body, 120)}`;
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
  return taskNotice(head) ?? (firstLine(head.replace(TAG, ' '), 120) || firstLine(head, 120));
}

/** An element's text in a harness notice (`<status>completed</status>`), or null. */
function element(text: string, name: string): string | null {
  return new RegExp(String.raw`<${name}>([\s\S]*?)</${name}>`).exec(text)?.[1]?.trim() || null;
}

/**
 * A background task's notice (`<task-notification>`, queued while the agent was busy): what finished
 * and how, not its id, which is all its first line held. "Background task completed: npm test passed".
 */
function taskNotice(head: string): string | null {
  if (!/^\s*<task-notification>/.test(head)) return null;
  const status = element(head, 'status');
  const said = element(head, 'summary');
  const lead = `Background task${status ? ` ${status.replace(/_/g, ' ')}` : ''}`;
  return firstLine(said ? `${lead}: ${said}` : lead, 120);
}

/**
 * What a tool result cut at both ends kept of its start and its end (meta `truncated.head`, `.tail`,
 * bounds' boundResult); undefined for a prefix cut, which is all an older parser stored.
 */
function keptOf(truncated: unknown): CutKept | undefined {
  if (truncated === null || typeof truncated !== 'object') return undefined;
  const first = num((truncated as Json).head);
  const last = num((truncated as Json).tail);
  return first !== null && last !== null ? { first, last } : undefined;
}

/** One stored part as a reader sees it, with the one line a folded view shows. */
/** `provider`: the conversation's, whose wording its tool results are read in. */
export function partView(part: OrderedPart, provider: string): SessionPart {
  const meta = parseObject(part.meta);
  const truncated = meta.truncated !== null && typeof meta.truncated === 'object' ? num((meta.truncated as Json).length) : null;
  const kept = truncated !== null ? keptOf(meta.truncated) : undefined;
  const toolName = str(meta.name);
  const result = part.kind === 'tool_result' ? readResult(provider, part.text ?? '', meta) : null;
  // A command that exited non-zero failed, whatever its agent's status said (Gemini's says success).
  const exitCode = result?.exitCode ?? null;
  const isError = meta.isError === true || (exitCode !== null && exitCode !== 0);
  const resultImages = result !== null ? resultImagesOf(meta.imageFacts) : [];
  // The count covers every image, those past capture's cap on facts too.
  const images = result !== null ? Math.max(num(meta.images) ?? 0, resultImages.length) : 0;
  let summary: string | null = null;
  let image: SessionPart['image'] = null;
  let slashCommand: string | null = null;
  // User text the person did not write (capture decided which, once) folds like a tool call.
  if (part.kind === 'text' && part.role === 'user' && !part.genuineUserTurn) {
    slashCommand = slashCommandOf(part.text ?? '');
    summary = harnessSummary(part.text ?? '', slashCommand);
  } else if (part.kind === 'tool_use') summary = toolUseSummary(toolName, callInput(part.text), part.text);
  else if (result) summary = toolResultSummary(result, isError, truncated !== null, images, resultImages, kept);
  else if (part.kind === 'thinking') summary = firstLine(part.text, 120) || partFold({ kind: 'thinking', summary: null, text: null }).summary;
  else if (part.kind === 'image') {
    image = { mediaType: str(meta.media_type), bytes: num(meta.bytes) ?? 0 };
    // Its type and size in part-words' words ("PNG, 12 KB"), as every surface says them.
    summary = partFold({ kind: 'image', summary: null, text: null, image }).summary;
  } else if (part.kind !== 'text') {
    // Every other kind's line is the one table's (a notice's first line, "Earlier conversation
    // summarized"), so no surface says a kind by its name.
    summary = partFold({ kind: part.kind, summary: null, text: part.text }).summary;
  }
  return {
    partId: part.partId,
    kind: part.kind,
    text: part.text,
    summary,
    toolName,
    toolUseId: str(meta.toolUseId),
    isError,
    truncatedFrom: truncated,
    ...(kept !== undefined ? { truncatedKept: kept } : {}),
    image,
    genuineUserTurn: part.genuineUserTurn,
    isCompactSummary: part.isCompactSummary,
    slashCommand,
    // Only where a result says them: every other part reads as before.
    ...(exitCode !== null ? { exitCode } : {}),
    ...(result !== null && result.output !== null ? { output: result.output } : {}),
    ...(images > 0 ? { images } : {}),
    ...(resultImages.length > 0 ? { resultImages } : {}),
    // Capture's mark on a turn the person rewound past (Gemini CLI): every other part reads as before.
    ...(meta.rewound === true ? { rewound: true as const } : {}),
  };
}

/** Consecutive parts of one message become that message, in order; `provider` is the conversation's. */
export function groupMessages(parts: readonly OrderedPart[], provider: string): SessionMessage[] {
  const messages: SessionMessage[] = [];
  let current: SessionMessage | undefined;
  for (const part of parts) {
    const id = messageIdOf(part.partId);
    if (current?.messageId !== id) {
      current = { messageId: id, role: part.role, ts: part.ts, parts: [] };
      messages.push(current);
    }
    current.parts.push(partView(part, provider));
  }
  return messages.map(withCountMark);
}

/**
 * The message marked `countsAsMessage: false` when the session's count leaves it out (a tool's result,
 * by countsAsMessage, told by the part that stands for it: block 0, else, for Gemini's named blocks,
 * its first part), unmarked otherwise: so the messages a reader is given add up to the count. Asked
 * again of a message joined from two reads (an export's chunks): its parts are whole only then.
 */
export function withCountMark({ countsAsMessage: _mark, ...message }: SessionMessage): SessionMessage {
  const { parts } = message;
  const standing = parts.find((p) => startsMessage(p.partId)) ?? parts[0];
  // A message's parts share its role (the role of its first part; OpenClaw stores one per entry).
  if (standing === undefined || countsAsMessage({ kind: standing.kind, role: message.role }, () => parts.some((p) => p.genuineUserTurn))) return message;
  // Before `parts`, so a reader of the JSON sees it with the message's own facts.
  const { parts: _parts, ...head } = message;
  return { ...head, countsAsMessage: false, parts };
}

/** A one-line stand-in for a title: the first thing asked, whitespace folded, bounded. */
export function oneLine(text: string, max = 200): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}
