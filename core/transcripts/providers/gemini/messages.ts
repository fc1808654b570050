import { bound, boundJson, imageFacts, parseTs, TEXT_CAP, TOOL_RESULT_CAP } from '../../bounds.js';
import { asObject, asString, type Json } from '../../projection.js';

/** One block of a Gemini message record, keyed within the message by a name that never changes. */
export interface GeminiBlock {
  /** `c{i}` content part, `th{i}` thought, `tu-{callId}` tool call, `tr-{callId}` its result. */
  key: string;
  role: string;
  kind: string;
  text: string | null;
  meta: Record<string, unknown>;
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
    const b = bound(responseText(response.response), TOOL_RESULT_CAP);
    return { key, role, kind: 'tool_result', text: b.text, meta: { name: asString(response.name), toolUseId: asString(response.id), truncated: b.truncated } };
  }
  const b = boundJson(part, TOOL_RESULT_CAP);
  return { key, role, kind: asString(Object.keys(part)[0])?.slice(0, 64) ?? 'unknown', text: b.text, meta: { truncated: b.truncated } };
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
  return parts.map((raw, i) => {
    const block = partBlock(`c${i}`, role, raw);
    return block.kind === 'text' ? { ...block, kind } : block;
  });
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
  return (asString(call.id) ?? `i${index}`).replace(/:/g, '_').slice(0, 200);
}

/** One call's blocks: its use, then its result once settled (none for a success that recorded nothing). */
function callBlocks(raw: unknown, index: number): GeminiBlock[] {
  const call = asObject(raw) ?? {};
  const key = callKey(call, index);
  const name = asString(call.name);
  const args = boundJson(call.args ?? null, TOOL_RESULT_CAP);
  const use: GeminiBlock = { key: `tu-${key}`, role: 'assistant', kind: 'tool_use', text: args.text, meta: { name, toolUseId: asString(call.id), truncated: args.truncated } };
  const status = asString(call.status);
  if (!status || !SETTLED.has(status)) return [use];
  const result = Array.isArray(call.result) ? call.result.map((p) => responseText(asObject(asObject(p)?.functionResponse)?.response)).join('\n') : '';
  const text = result !== '' ? result : (asString(call.resultDisplay) ?? '');
  // A call that succeeded with nothing recorded has no result to store; a failed or cancelled one says so.
  if (text === '' && status === 'success') return [use];
  const b = bound(text, TOOL_RESULT_CAP);
  const meta = { name, toolUseId: asString(call.id), isError: status === 'error' ? true : undefined, status: status === 'success' ? undefined : status, truncated: b.truncated };
  return [use, { key: `tr-${key}`, role: 'tool', kind: 'tool_result', text: b.text, meta }];
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
  if (type === 'user') return [...userBlocks(message), ...toolBlocks(calls)];
  const kind = type === 'error' ? 'error' : type === 'info' || type === 'warning' ? 'notice' : 'text';
  // Thoughts first, then the calls made before the text was written, the text, the calls after it.
  const before = callsBeforeText(message, calls);
  const tools = calls.map((raw, index) => callBlocks(raw, index));
  return [...thoughtBlocks(message.thoughts), ...tools.slice(0, before).flat(), ...contentBlocks(message.content, role, kind), ...tools.slice(before).flat()];
}
