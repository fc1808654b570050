import { base64Image, bound, boundJson, boundResult, imageFacts, parseTs, resultImagesMeta, TEXT_CAP, TOOL_RESULT_CAP, type ResultImage } from '../../bounds.js';
import { asObject, asString, type Json } from '../../projection.js';

/** One block of a Gemini message record, keyed within the message by a name that never changes. */
export interface GeminiBlock {
  /**
   * `c{i}` content part, `th{i}` thought, `tu-{callId}` tool call (from `toolCalls` or a content
   * `functionCall`: the same call, the same part), `tr-{callId}` its result; a call without an id is
   * named by its place among the record's calls (`tu-i{n}` an entry's, `tu-c{n}` a content call's,
   * and the entry's of that content call: asContentCall).
   */
  key: string;
  role: string;
  kind: string;
  text: string | null;
  meta: Record<string, unknown>;
  /** A `toolCalls` entry's block: the call's own record, fuller than any copy of it in a content. */
  entry?: true;
  /** A call's place among the record's calls (an entry's index, a content `functionCall`'s rank). */
  slot?: number;
  /** An image a tool returned beside its function response (`[functionResponse, inlineData]`): that response's call id. */
  beside?: string;
  /**
   * An entry's result with images beside its responses: its meta counting only the ones inside them,
   * for when a user turn that sent the response back holds the ones beside as its own parts.
   */
  alone?: Record<string, unknown>;
}

const ROLES: Record<string, string> = { user: 'user', gemini: 'assistant', info: 'system', warning: 'system', error: 'system' };
/** A tool result is final once the call settled; an executing call's result is not stored yet. */
const SETTLED = new Set(['success', 'error', 'cancelled']);
/**
 * Context Gemini CLI sends as user text: the session's environment (the first turn of the history
 * since mid 2026, recorded with it) and a hook's additional context (appended to the prompt). Gemini
 * itself does not count them as the user's (gemini-cli `isIgnoredUserContent`).
 */
const INJECTED = /^\s*<(?:session_context|hook_context)>/;
/** The summary chat compression puts in place of the history before it, as a user turn (gemini-cli `chatCompressionService`). */
const COMPRESSION_SUMMARY = /^\s*<state_snapshot>/;

/**
 * The model turn Gemini CLI writes itself after a compression summary (gemini-cli
 * `chatCompressionService`: the new history is the summary as a user turn, then this reply): the
 * harness's words, not the model's, so no message of the conversation.
 */
const COMPRESSION_ACK = 'Got it. Thanks for the additional context!';

/** A model record that says only the reply Gemini CLI writes after a compression summary. */
export function isCompressionAck(message: Json): boolean {
  if (message.type !== 'gemini' || (Array.isArray(message.toolCalls) && message.toolCalls.length > 0)) return false;
  const content = message.content;
  const parts = Array.isArray(content) ? content : [content];
  const texts = parts.map((raw) => (typeof raw === 'string' ? raw : asString(asObject(raw)?.text)));
  return texts.every((text) => text !== undefined) && texts.join('').trim() === COMPRESSION_ACK;
}

function textBlock(key: string, role: string, kind: string, text: string): GeminiBlock {
  const b = bound(text, TEXT_CAP);
  return { key, role, kind, text: b.text, meta: { truncated: b.truncated } };
}

/** A `@google/genai` Part: text (or a thought), inline data, a file reference, a function call or response. */
function partBlock(key: string, role: string, raw: unknown): GeminiBlock {
  if (typeof raw === 'string') return textBlock(key, role, 'text', raw);
  const part = asObject(raw) ?? {};
  if (typeof part.text === 'string') return textBlock(key, role, part.thought === true ? 'thinking' : 'text', part.text);
  const inline = asObject(part.inlineData);
  if (inline) return { key, role, kind: 'image', text: null, meta: imageFacts(inline.mimeType, inline.data) };
  const call = asObject(part.functionCall);
  if (call) {
    const b = boundJson(call.args ?? null, TOOL_RESULT_CAP);
    return { key, role, kind: 'tool_use', text: b.text, meta: { name: asString(call.name), toolUseId: asString(call.id), truncated: b.truncated } };
  }
  const response = asObject(part.functionResponse);
  if (response) {
    const b = boundResult(responseText(response.response));
    const images = inlineImages(response.parts);
    return { key, role, kind: 'tool_result', text: b.text, meta: { name: asString(response.name), toolUseId: asString(response.id), ...resultImagesMeta(images), truncated: b.truncated } };
  }
  const b = boundJson(part, TOOL_RESULT_CAP);
  return { key, role, kind: asString(Object.keys(part)[0])?.slice(0, 64) ?? 'unknown', text: b.text, meta: { truncated: b.truncated } };
}

/**
 * The images among Parts (`inlineData` with base64 `data`) by their type and decoded size, from the
 * base64's length (never decoded). Gemini CLI puts the images a tool returned (read_file of a PNG)
 * inside the function response (`functionResponse.parts`, for models that take them there) or beside it.
 */
function inlineImages(parts: unknown, into: ResultImage[] = []): ResultImage[] {
  if (!Array.isArray(parts)) return into;
  for (const raw of parts) {
    const inline = asObject(asObject(raw)?.inlineData);
    if (inline) into.push(base64Image(inline.mimeType, inline.data));
  }
  return into;
}

/** `{output}` or `{error}` of a function response; anything else as JSON. */
function responseText(response: unknown): string {
  const object = asObject(response);
  if (typeof object?.output === 'string') return object.output;
  if (typeof object?.error === 'string') return object.error;
  return response === undefined ? '' : JSON.stringify(response);
}

function contentBlocks(content: unknown, role: string, kind: string): GeminiBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [textBlock('c0', role, kind, content)];
  const parts = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  let calls = 0;
  // The call id of the function response the images that follow it are beside.
  let response: string | undefined;
  return parts.map((raw, i) => {
    const block = partBlock(`c${i}`, role, raw);
    if (block.kind === 'image' && response !== undefined) return { ...block, beside: response };
    response = block.kind === 'tool_result' ? asString(block.meta.toolUseId) : undefined;
    if (block.kind === 'tool_use') return contentCall(block, calls++);
    return block.kind === 'text' ? { ...block, kind } : block;
  });
}

/**
 * A content `functionCall` is named as the call its `toolCalls` entry records (`tu-{callId}`), not by
 * its place among the parts: the entry written later into the same record is then the same part,
 * and text put before the call (the history's turn holds the reply's text) moves nothing. One the
 * model sent without an id is named by its rank among the content's calls.
 */
function contentCall(block: GeminiBlock, rank: number): GeminiBlock {
  const id = block.meta.toolUseId;
  return { ...block, key: contentCallKey(typeof id === 'string' ? id : undefined, rank), slot: rank };
}

/** The key of a content `functionCall`: by its id, or without one by its rank among the content's calls (gateway step 33 renames parser 7's parts by it). */
export function contentCallKey(id: string | undefined, rank: number): string {
  return id === undefined ? `tu-c${rank}` : `tu-${safeKey(id)}`;
}

/**
 * A user record's blocks as what they are. Harness context is not kept; a compression summary is a
 * compaction; a tool's response (recorded as a user turn since mid 2026) is the tool's. When the record
 * keeps what the person typed apart (`displayContent`), the content's later texts are what the CLI
 * added for the model (referenced files' contents, hook context), not their words.
 */
function userBlocks(message: Json): GeminiBlock[] {
  const typedApart = message.displayContent !== undefined && message.displayContent !== null;
  let texts = 0;
  const blocks: GeminiBlock[] = [];
  for (const block of contentBlocks(message.content, 'user', 'text')) {
    if (block.kind === 'tool_result') blocks.push({ ...block, role: 'tool' });
    else if (block.kind !== 'text') blocks.push(block);
    else if (INJECTED.test(block.text ?? '')) continue;
    else if (COMPRESSION_SUMMARY.test(block.text ?? '')) blocks.push({ ...block, role: 'assistant', kind: 'compaction' });
    else {
      const typed = !typedApart || texts++ === 0;
      blocks.push(typed ? block : { ...block, kind: 'context' });
    }
  }
  return blocks;
}

function thoughtBlocks(thoughts: unknown): GeminiBlock[] {
  if (!Array.isArray(thoughts)) return [];
  return thoughts.map((raw, i) => {
    const thought = asObject(raw) ?? {};
    const text = [asString(thought.subject), asString(thought.description)].filter(Boolean).join('\n');
    return textBlock(`th${i}`, 'assistant', 'thinking', text);
  });
}

/** Tool call ids name parts; a `:` in one would shift the message id a reader derives from a part id. */
function callKey(call: Json, index: number): string {
  const id = asString(call.id);
  return id === undefined ? `i${index}` : safeKey(id);
}

function safeKey(id: string): string {
  return id.replace(/:/g, '_').slice(0, 200);
}

/** A call's recorded result (Parts): its function responses' text, and the images in and beside them. */
function callResult(raw: unknown): { result: string; images: ResultImage[]; inside: ResultImage[] } {
  if (!Array.isArray(raw)) return { result: '', images: [], inside: [] };
  const texts: string[] = [];
  const images: ResultImage[] = [];
  const inside: ResultImage[] = [];
  for (const part of raw) {
    const response = asObject(asObject(part)?.functionResponse);
    if (response) {
      texts.push(responseText(response.response));
      const within = inlineImages(response.parts);
      images.push(...within);
      inside.push(...within);
    } else inlineImages([part], images);
  }
  return { result: texts.join('\n'), images, inside };
}

/** One call's blocks: its use, then its result once settled (none for a success that recorded nothing). */
function callBlocks(raw: unknown, index: number): GeminiBlock[] {
  const call = asObject(raw) ?? {};
  const key = callKey(call, index);
  const name = asString(call.name);
  const args = boundJson(call.args ?? null, TOOL_RESULT_CAP);
  const use: GeminiBlock = { key: `tu-${key}`, role: 'assistant', kind: 'tool_use', text: args.text, meta: { name, toolUseId: asString(call.id), truncated: args.truncated }, entry: true, slot: index };
  const status = asString(call.status);
  if (!status || !SETTLED.has(status)) return [use];
  const { result, images, inside } = callResult(call.result);
  const text = result !== '' ? result : (asString(call.resultDisplay) ?? '');
  // A call that succeeded with nothing recorded has no result to store; a failed or cancelled one says so.
  if (text === '' && images.length === 0 && status === 'success') return [use];
  const b = boundResult(text);
  const meta = (shown: ResultImage[]) => ({ name, toolUseId: asString(call.id), isError: status === 'error' ? true : undefined, status: status === 'success' ? undefined : status, ...resultImagesMeta(shown), truncated: b.truncated });
  const done: GeminiBlock = { key: `tr-${key}`, role: 'tool', kind: 'tool_result', text: b.text, meta: meta(images), entry: true };
  if (inside.length < images.length) done.alone = meta(inside);
  return [use, done];
}

function toolBlocks(toolCalls: unknown[]): GeminiBlock[] {
  return toolCalls.flatMap((raw, index) => callBlocks(raw, index));
}

/**
 * How many of a record's calls came before its text: the leading calls stamped before the record's
 * own time. A record keeps its text and its calls apart, each call with its own time; text stamped
 * after a call is what the model wrote once the call's result came back (the reference's example
 * record), while Gemini CLI itself records a reply's text as the reply ends, before its calls
 * complete and are stamped (so none lead). Calls keep their recorded order; without both times, the
 * text comes first, as recorded.
 */
function callsBeforeText(message: Json, toolCalls: unknown[]): number {
  const at = parseTs(message.timestamp);
  if (at === null) return 0;
  const later = toolCalls.findIndex((raw) => {
    const stamped = parseTs(asObject(raw)?.timestamp);
    return stamped === null || stamped >= at;
  });
  return later === -1 ? toolCalls.length : later;
}

/**
 * The blocks of one message record, `undefined` for a record type this parser does not know. A
 * Gemini message is rewritten as it grows (thoughts, tokens, tool calls and their results arrive
 * later); each block's key is fixed at its first appearance, so a rewrite adds only new blocks. The
 * blocks come in the order they happened (callsBeforeText), the order they are stored and drawn in.
 */
export function messageBlocks(message: Json): GeminiBlock[] | undefined {
  const type = asString(message.type) ?? '';
  const role = ROLES[type];
  if (role === undefined) return undefined;
  const calls = Array.isArray(message.toolCalls) ? (message.toolCalls as unknown[]) : [];
  if (type === 'user') {
    const entries = toolBlocks(calls);
    return [...withoutEntered(userBlocks(message), entries), ...entries];
  }
  const kind = type === 'error' ? 'error' : type === 'info' || type === 'warning' ? 'notice' : 'text';
  // Thoughts first, then the calls made before the text was written, the text, the calls after it.
  const before = callsBeforeText(message, calls);
  const blocks = contentBlocks(message.content, role, kind);
  const tools = calls.map((raw, index) => callBlocks(raw, index).map((block) => asContentCall(block, blocks)));
  const content = withoutEntered(blocks, tools.flat());
  return [...thoughtBlocks(message.thoughts), ...tools.slice(0, before).flat(), ...content, ...tools.slice(before).flat()];
}

/**
 * An entry's use under the name of the id-less content call it is (at its place, naming the same
 * tool): the record names the call alike with or without its entry, so a chat only ever seen as its
 * latest version (a legacy document) stores it once when the entry is written in later.
 */
function asContentCall(block: GeminiBlock, content: GeminiBlock[]): GeminiBlock {
  if (block.kind !== 'tool_use') return block;
  const call = content.find((c) => c.kind === 'tool_use' && c.meta.toolUseId === undefined && c.slot === block.slot && c.meta.name === block.meta.name);
  return call ? { ...block, key: call.key } : block;
}

/**
 * The content's blocks but the calls the record's own `toolCalls` entries hold: the same id, or, for
 * a call the model sent without one, the entry at its place naming the same tool (turn.ts made the
 * entry's id when the model gave none).
 */
function withoutEntered(content: GeminiBlock[], entries: GeminiBlock[]): GeminiBlock[] {
  if (entries.length === 0) return content;
  const keys = new Set(entries.map((block) => block.key));
  const uses = entries.filter((block) => block.kind === 'tool_use');
  return content.filter((block) => {
    if (block.kind !== 'tool_use') return true;
    if (keys.has(block.key)) return false;
    return block.meta.toolUseId !== undefined || !uses.some((use) => use.slot === block.slot && use.meta.name === block.meta.name);
  });
}
