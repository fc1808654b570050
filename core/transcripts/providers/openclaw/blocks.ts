import { bound, boundJson, boundResult, imageFacts, TEXT_CAP, TOOL_RESULT_CAP, type Bounded } from '../../bounds.js';
import { asObject, asString, type Json } from '../../projection.js';

/** One content block of an entry, already bounded: a part once it has an id. */
export interface Block {
  kind: string;
  text: string | null;
  meta: Record<string, unknown>;
}

/** Text under the Responses API's names, which OpenClaw's own transcript readers take as text too. */
const TEXT_TYPES = new Set(['text', 'input_text', 'output_text']);

/** A block's text under `field`, bounded by `cut` (a text's prefix at `cap`, or a tool result's start and end). */
function textOf(block: Json, field: string, cap: number, cut: (text: string, cap: number) => Bounded = bound): { text: string | null; truncated: unknown } {
  const b = cut(typeof block[field] === 'string' ? (block[field] as string) : '', cap);
  return { text: b.text, truncated: b.truncated };
}

/** A tool result's text or image names the call it answers (an image a tool returned, e.g. a screenshot, too). */
function toolResultBlock(block: Json, type: string, message: Json): Block | undefined {
  const call = { toolUseId: asString(message.toolCallId), name: asString(message.toolName), isError: message.isError === true ? true : undefined };
  if (type === 'image') return { kind: 'image', text: null, meta: { ...imageFacts(block.mimeType, block.data), ...call } };
  if (!TEXT_TYPES.has(type)) return undefined;
  const b = textOf(block, 'text', TOOL_RESULT_CAP, boundResult);
  return { kind: 'tool_result', text: b.text, meta: { ...call, truncated: b.truncated } };
}

function block(raw: Json, role: string, message: Json): Block {
  const type = asString(raw.type) ?? 'unknown';
  const result = role === 'toolResult' ? toolResultBlock(raw, type, message) : undefined;
  if (result) return result;
  if (TEXT_TYPES.has(type)) {
    const b = textOf(raw, 'text', TEXT_CAP);
    return { kind: 'text', text: b.text, meta: { truncated: b.truncated } };
  }
  if (type === 'thinking') {
    // The signature is opaque (a redacted block keeps nothing else): only whether it was redacted is kept.
    const b = textOf(raw, 'thinking', TEXT_CAP);
    return { kind: 'thinking', text: b.text, meta: { truncated: b.truncated, redacted: raw.redacted === true ? true : undefined } };
  }
  if (type === 'toolCall') {
    const b = boundJson(raw.arguments ?? null, TOOL_RESULT_CAP);
    return { kind: 'tool_use', text: b.text, meta: { name: asString(raw.name), toolUseId: asString(raw.id), truncated: b.truncated } };
  }
  if (type === 'image') return { kind: 'image', text: null, meta: imageFacts(raw.mimeType, raw.data) };
  const b = boundJson(raw, TOOL_RESULT_CAP);
  return { kind: type.slice(0, 64), text: b.text, meta: { truncated: b.truncated } };
}

/** A pi message's `content` (a string, or text/image/thinking/toolCall blocks) as blocks. */
export function contentBlocks(content: unknown, role: string, message: Json): Block[] {
  if (typeof content === 'string') return [block({ type: 'text', text: content }, role, message)];
  if (!Array.isArray(content)) return [];
  return content.map((raw) => block(typeof raw === 'string' ? { type: 'text', text: raw } : (asObject(raw) ?? {}), role, message));
}

/**
 * A command the person ran in pi with `!` (`!!`: kept out of the model's context): its command and
 * its output, as a call and its result. `truncated` there is pi's own cut, not this cache's.
 */
export function bashBlocks(message: Json): Block[] {
  const command = asString(message.command);
  if (!command) return [];
  const input = boundJson({ command }, TOOL_RESULT_CAP);
  const output = boundResult(typeof message.output === 'string' ? message.output : '');
  const exitCode = typeof message.exitCode === 'number' ? message.exitCode : undefined;
  const cancelled = message.cancelled === true ? true : undefined;
  const failed = cancelled || (exitCode !== undefined && exitCode !== 0) ? true : undefined;
  const local = message.excludeFromContext === true ? true : undefined;
  return [
    { kind: 'tool_use', text: input.text, meta: { name: 'bash', truncated: input.truncated, excludeFromContext: local } },
    { kind: 'tool_result', text: output.text, meta: { name: 'bash', isError: failed, exitCode, cancelled, agentTruncated: message.truncated === true ? true : undefined, truncated: output.truncated } },
  ];
}

/**
 * Where OpenClaw says a user message came from when not from the person (`provenance.kind`): another
 * session (`sessions_send`, a subagent's announcement) or OpenClaw itself (cron, heartbeat, hooks).
 */
export function routedFrom(message: Json): Record<string, unknown> | undefined {
  const provenance = asObject(message.provenance);
  const kind = asString(provenance?.kind);
  if (kind !== 'inter_session' && kind !== 'internal_system') return undefined;
  return { provenance: kind, sourceTool: asString(provenance?.sourceTool)?.slice(0, 64) };
}

/** OpenClaw's channel envelope, `[Telegram Sam +5m Wed 2026-04-08 03:03 GMT+2] `: a bracket that holds a time. */
const ENVELOPE = /^\[([^\]\n]{1,200})\]\s+/;

/** A channel message's words without the envelope OpenClaw put before them (what a title shows). */
export function withoutEnvelope(text: string): string {
  const match = ENVELOPE.exec(text);
  if (!match || !/\d{1,2}:\d{2}/.test(match[1]!)) return text;
  const rest = text.slice(match[0].length);
  return rest.trim() === '' ? text : rest;
}
