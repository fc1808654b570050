import { readToolResult } from '../../../api/index.js';
import { base64Bytes, bound, boundJson, boundResult, imageFacts, resultImage, resultImagesMeta, TEXT_CAP, TOOL_RESULT_CAP, type ResultImage } from '../../bounds.js';
import { asObject, asString, type Json } from '../../projection.js';

/** One content block of a rollout item, before it is keyed and bounded into a part. */
export interface CodexBlock {
  /** The block's position in the item, stable across re-reads (part ids end with it). */
  index: number;
  role: string;
  kind: string;
  text: string | null;
  meta: Record<string, unknown>;
}

/**
 * Harness context that Codex writes as user or developer messages: the environment, AGENTS.md and
 * permission instructions, collaboration and multi-agent modes, skill bodies, subagent and goal
 * steering notes, extension and hook prompts, the plugin list, and the warnings older rollouts kept
 * (codex-rs `core/src/context/`: the fragments `is_contextual_user_fragment` recognizes). They are not a person's words.
 */
const INJECTED = new RegExp(
  [
    String.raw`^\s*<(?:environment_context|user_instructions|permissions instructions|collaboration_mode|multi_agent_mode|apps_instructions|user_shell_command|turn_aborted|subagent_notification|goal_context|extension_context|recommended_plugins)>`,
    String.raw`^\s*<(?:skill|codex_internal_context|hook_prompt)[\s>]`,
    String.raw`^\s*# AGENTS\.md`,
    String.raw`^\s*You are \`\/root\`, the primary agent`,
    String.raw`^\s*Warning: (?:apply_patch was requested via |The maximum number of unified exec processes)`,
  ].join('|'),
);

export function isInjectedContext(text: string): boolean {
  return INJECTED.test(text);
}

/** A content item's text: a `{type, text}` block's, or the item itself when a writer put a plain string in the array. */
function itemText(raw: unknown): unknown {
  return typeof raw === 'string' ? raw : asObject(raw)?.text;
}

/** Codex's own rule: a user message any of whose texts is harness context is context as a whole (the first turn bundles several). */
function isContextMessage(content: unknown[]): boolean {
  return content.some((raw) => {
    const text = itemText(raw);
    return typeof text === 'string' && isInjectedContext(text);
  });
}

/**
 * `data:image/png;base64,…` → its media type and bytes; any other URL is only named by its type. The
 * scheme and the `base64` marker are case-insensitive (RFC 2397), so `;BASE64,` is read too.
 */
function imageUrlFacts(url: unknown): Record<string, unknown> {
  const match = typeof url === 'string' ? /^data:([^;,]+);base64,(.*)$/is.exec(url) : null;
  return match ? imageFacts(match[1], match[2]) : imageFacts(null, null);
}

function messageBlocks(item: Json): CodexBlock[] {
  const role = asString(item.role) ?? 'unknown';
  // Developer and system messages are the harness's instructions, never the conversation.
  if (role === 'developer' || role === 'system') return [];
  const content = Array.isArray(item.content) ? item.content : typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : [];
  if (role === 'user' && isContextMessage(content)) return [];
  const blocks: CodexBlock[] = [];
  content.forEach((raw, index) => {
    // A plain string in the array is text, as Claude's, OpenClaw's and Gemini's parsers read one.
    const block = typeof raw === 'string' ? { type: 'text', text: raw } : (asObject(raw) ?? {});
    const type = asString(block.type) ?? 'unknown';
    if (type === 'input_text' || type === 'output_text' || type === 'text') {
      const text = typeof block.text === 'string' ? block.text : '';
      const b = bound(text, TEXT_CAP);
      blocks.push({ index, role, kind: 'text', text: b.text, meta: { truncated: b.truncated } });
    } else if (type === 'input_image') {
      blocks.push({ index, role, kind: 'image', text: null, meta: imageUrlFacts(block.image_url) });
    } else {
      const b = boundJson(block, TOOL_RESULT_CAP);
      blocks.push({ index, role, kind: type.slice(0, 64), text: b.text, meta: { truncated: b.truncated } });
    }
  });
  return blocks;
}

/**
 * A message between agents (`agent_message`, multi-agent threads): its readable text, with who sent it
 * to whom. The copy delivered to the model is encrypted; no person wrote either.
 */
function agentMessageBlocks(item: Json): CodexBlock[] {
  const content = Array.isArray(item.content) ? item.content : [];
  const text = content
    .map(itemText)
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    .join('\n');
  if (text === '') return [];
  const b = bound(text, TEXT_CAP);
  return [{ index: 0, role: 'system', kind: 'agent_message', text: b.text, meta: { author: asString(item.author), recipient: asString(item.recipient), truncated: b.truncated } }];
}

/** Reasoning summaries (and raw reasoning text where a model exposes it); encrypted content is opaque. */
function reasoningBlocks(item: Json): CodexBlock[] {
  const texts: string[] = [];
  for (const list of [item.summary, item.content]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const text = itemText(raw);
      if (typeof text === 'string' && text.trim() !== '') texts.push(text);
    }
  }
  return texts.map((text, index) => {
    const b = bound(text, TEXT_CAP);
    return { index, role: 'assistant', kind: 'thinking', text: b.text, meta: { truncated: b.truncated } };
  });
}

/** `arguments` is a JSON string in the Responses API; older or other writers store an object. */
function callInput(item: Json): ReturnType<typeof bound> {
  const raw = item.arguments ?? item.input ?? item.action ?? null;
  if (typeof raw !== 'string') return boundJson(raw, TOOL_RESULT_CAP);
  try {
    return boundJson(JSON.parse(raw), TOOL_RESULT_CAP);
  } catch {
    // A custom tool's input (an apply_patch body) is free text, not JSON.
    return bound(raw, TOOL_RESULT_CAP);
  }
}

function callName(item: Json, type: string): string {
  return asString(item.name) ?? (type === 'local_shell_call' ? 'local_shell' : type.replace(/_call$/, ''));
}

/**
 * An `image_url` as a tool result's meta keeps it: a `data:image/png;base64,…` URL by its type and
 * decoded size, from its length alone (never decoded); any other URL is an image of no known type or size.
 * The scheme and the `base64` marker are read in any case, as `imageUrlFacts` reads them.
 */
function urlImage(url: unknown): ResultImage {
  if (typeof url !== 'string' || url.slice(0, 5).toLowerCase() !== 'data:') return resultImage(null, 0);
  // The header is short; the search for its comma never walks the data.
  const comma = url.lastIndexOf(',', 256);
  const header = comma > 0 ? url.slice(5, comma) : '';
  if (!header.toLowerCase().endsWith(';base64')) return resultImage(null, 0);
  return resultImage(header.split(';')[0], base64Bytes(url, comma + 1));
}

/** A tool output: a string, `{content, success}`, or a list of content items (text, images). */
function outputText(output: unknown): { text: string; failed: boolean; images: ResultImage[] } {
  if (typeof output === 'string') return { text: output, failed: exitCodeFailed(output), images: [] };
  if (Array.isArray(output)) {
    const texts: string[] = [];
    const images: ResultImage[] = [];
    for (const raw of output) {
      const item = asObject(raw);
      if (item?.type === 'input_image') images.push(urlImage(item.image_url));
      else {
        const text = itemText(raw);
        if (typeof text === 'string') texts.push(text);
      }
    }
    return { text: texts.join('\n'), failed: false, images };
  }
  const object = asObject(output);
  if (object) return { text: typeof object.content === 'string' ? object.content : JSON.stringify(object), failed: object.success === false, images: [] };
  return { text: '', failed: false, images: [] };
}

/**
 * Whether a shell output says its command exited non-zero, read as the viewer reads it (readToolResult):
 * Codex's JSON `{output, metadata: {exit_code}}`, or the header of its freeform shell (`Exit code: 1`)
 * or of unified exec (`Process exited with code 1`); never from what the command itself printed.
 */
function exitCodeFailed(output: string): boolean {
  const { exitCode } = readToolResult('codex', output);
  return exitCode !== null && exitCode !== 0;
}

function callBlocks(item: Json, type: string): CodexBlock[] {
  const b = callInput(item);
  const meta = { name: callName(item, type), toolUseId: asString(item.call_id) ?? asString(item.id), status: asString(item.status), truncated: b.truncated };
  return [{ index: 0, role: 'assistant', kind: 'tool_use', text: b.text, meta }];
}

function outputBlocks(item: Json): CodexBlock[] {
  const { text, failed, images } = outputText(item.output);
  const b = boundResult(text);
  return [{ index: 0, role: 'tool', kind: 'tool_result', text: b.text, meta: { toolUseId: asString(item.call_id), isError: failed ? true : undefined, ...resultImagesMeta(images), truncated: b.truncated } }];
}

/** Items that hold no conversation: snapshots and compaction markers whose content is encrypted. */
const NO_CONTENT_ITEMS = new Set(['ghost_snapshot', 'compaction', 'compaction_summary', 'context_compaction', 'other']);

/**
 * The blocks of one `response_item` payload (or a bare item of the oldest rollouts). `undefined`
 * for an item type this parser does not know, so the caller counts it; `[]` for a known item that
 * carries no conversation (harness context, encrypted reasoning).
 */
export function itemBlocks(item: Json): CodexBlock[] | undefined {
  const type = asString(item.type) ?? (asString(item.role) ? 'message' : undefined);
  if (type === undefined) return undefined;
  if (type === 'message') return messageBlocks(item);
  if (type === 'reasoning') return reasoningBlocks(item);
  if (type === 'agent_message') return agentMessageBlocks(item);
  if (type.endsWith('_call_output') || type.endsWith('_output')) return outputBlocks(item);
  if (type.endsWith('_call')) return callBlocks(item, type);
  if (NO_CONTENT_ITEMS.has(type)) return [];
  return undefined;
}

/** A `compacted` line: the summary text Codex keeps in place of the history before it. */
export function compactedBlocks(payload: Json): CodexBlock[] {
  const message = typeof payload.message === 'string' ? payload.message : '';
  if (message.trim() === '') return [];
  const b = bound(message, TEXT_CAP);
  return [{ index: 0, role: 'assistant', kind: 'compaction', text: b.text, meta: { truncated: b.truncated } }];
}

/** The cwd a bare-era rollout records only inside its first `<environment_context>` message. */
export function environmentCwd(item: Json): string | undefined {
  if (item.role !== 'user' || !Array.isArray(item.content)) return undefined;
  for (const raw of item.content) {
    const text = itemText(raw);
    if (typeof text !== 'string' || !text.includes('<environment_context>')) continue;
    const match = /<cwd>([^<]+)<\/cwd>/.exec(text);
    if (match) return match[1]!.trim();
  }
  return undefined;
}
