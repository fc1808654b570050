import { createHash } from 'node:crypto';
import { asObject, asString, type Json } from '../../projection.js';

/**
 * What a history turn says, however Gemini CLI recorded it: its type, its words and the ids of the
 * tool calls and responses it holds. A turn recorded again (gemini-cli `GeminiChat.setHistory`,
 * `ChatRecordingService.updateMessagesFromHistory`) gets a new id and a new timestamp, a model turn's
 * text comes back as parts (the original kept the cleaned, trimmed text) with its calls as
 * `functionCall` parts, and a tool's output may come back masked or truncated; none of that changes
 * this. Undefined for a record that is no history turn (info, warning, error).
 */
export function turnSignature(message: Json): string | undefined {
  const type = asString(message.type);
  if (type !== 'user' && type !== 'gemini') return undefined;
  const texts: string[] = [];
  const calls = new Set<string>();
  const other: string[] = [];
  const content = message.content;
  for (const raw of Array.isArray(content) ? content : content === undefined || content === null ? [] : [content]) {
    const part = typeof raw === 'string' ? { text: raw } : (asObject(raw) ?? {});
    const call = asObject(part.functionCall);
    const response = asObject(part.functionResponse);
    if (part.thought === true) continue;
    if (typeof part.text === 'string') texts.push(part.text);
    else if (call) calls.add(`call ${asString(call.id) ?? '?'}`);
    else if (response) calls.add(`response ${asString(response.id) ?? '?'}`);
    else other.push(JSON.stringify(part));
  }
  if (Array.isArray(message.toolCalls)) for (const call of message.toolCalls) calls.add(`call ${asString(asObject(call)?.id) ?? '?'}`);
  const words = type === 'gemini' ? cleaned(texts.join('')) : JSON.stringify(texts);
  return createHash('sha256').update(JSON.stringify([type, words, [...calls].sort(), other])).digest('base64');
}

/** A model turn's text as Gemini CLI records it: without invisible characters or HTML comments, trimmed. */
function cleaned(text: string): string {
  let out = text.replace(/[\u200B-\u200D\uFEFF\u200E\u200F]/g, '');
  let previous: string;
  do {
    previous = out;
    out = out.replace(/<!--[\s\S]*?-->/g, '');
  } while (out !== previous);
  return out.trim();
}

/** The environment turn Gemini CLI puts first in every history (gemini-cli `getInitialChatHistory`). */
const SESSION_CONTEXT = /^\s*<session_context>/;

interface Turn {
  id: string;
  signature: string | undefined;
}

/**
 * The message list a chat file describes, as Gemini CLI would load it, to recognise a turn Gemini
 * recorded again under a new id. Gemini CLI does that in two ways, both since 0.44:
 *
 * - A history given back as plain contents (tool-output masking, truncation, rewinds) is recorded
 *   again turn by turn, from its first turn, the session context, before a `$set.messages` resets the
 *   list to those copies. A line that starts such a run or continues it in order is a copy; any other
 *   record ends the run.
 * - A compression starts a new chat from the summary and the kept turns: a `$set.messages` whose new
 *   records end with the same turns, in the same order, as the records it drops.
 *
 * A copy's time is when it was copied, so no key of time and words finds it; order does. Words typed
 * again are a new line that is neither, so they stay a message of their own.
 */
export class RecordedHistory {
  #turns: Turn[] = [];
  /** Where each listed id sits in `#turns`. */
  #at = new Map<string, number>();
  readonly #seen = new Set<string>();
  /** The history a run of copies repeats, and how much of it the run has repeated. */
  #run: { signatures: (string | undefined)[]; next: number } | undefined;

  /** A message record read as a line; true when it is a history turn recorded again. */
  line(message: Json, id: string): boolean {
    const signature = turnSignature(message);
    const copy = !this.#seen.has(id) && signature !== undefined && this.#continuesRun(message, signature);
    if (!copy) this.#run = undefined;
    this.#seen.add(id);
    const at = this.#at.get(id);
    if (at !== undefined) this.#turns[at] = { id, signature };
    else this.#at.set(id, this.#turns.push({ id, signature }) - 1);
    return copy;
  }

  /**
   * A `$set.messages` checkpoint; the ids of its records that copy records it drops. `signatureOf`
   * gives a record's turnSignature: the reader's gives undefined for one too deep to read, which keeps
   * its id in its place (a later `$rewindTo` may name it) and copies nothing.
   */
  checkpoint(messages: Json[], signatureOf: (message: Json) => string | undefined = turnSignature): Set<string> {
    this.#run = undefined;
    const next = messages.flatMap((message) => {
      const id = asString(message.id);
      return id ? [{ id, signature: signatureOf(message), new: !this.#seen.has(id) }] : [];
    });
    const kept = new Set(next.map((turn) => turn.id));
    const dropped = this.#turns.filter((turn) => turn.signature !== undefined && !kept.has(turn.id));
    const copies = new Set<string>();
    // A compression keeps the latest turns: matched from the end, the first difference ends the copies.
    for (let i = next.length - 1, j = dropped.length - 1; i >= 0 && j >= 0; i -= 1, j -= 1) {
      if (!next[i]!.new || next[i]!.signature !== dropped[j]!.signature) break;
      copies.add(next[i]!.id);
    }
    for (const id of kept) this.#seen.add(id);
    this.#turns = next.map(({ id, signature }) => ({ id, signature }));
    this.#at = new Map(this.#turns.map((turn, i) => [turn.id, i]));
    return copies;
  }

  /**
   * `$rewindTo`: Gemini drops that message and every later one; their ids, in order. Gemini CLI only
   * writes a rewind to a message its list holds (`ChatRecordingService.rewindTo`): to any other id
   * it drops nothing here.
   */
  rewind(id: string): string[] {
    this.#run = undefined;
    const at = this.#at.get(id);
    if (at === undefined) return [];
    const dropped = this.#turns.splice(at);
    for (const turn of dropped) this.#at.delete(turn.id);
    return dropped.map((turn) => turn.id);
  }

  /** A record that is neither a message nor a patch (a header) ends a run of copies. */
  interrupt(): void {
    this.#run = undefined;
  }

  #continuesRun(message: Json, signature: string): boolean {
    if (!this.#run && isSessionContext(message)) {
      this.#run = { signatures: this.#turns.filter((turn) => turn.signature !== undefined).map((turn) => turn.signature), next: 0 };
    }
    const run = this.#run;
    if (!run || run.signatures[run.next] !== signature) return false;
    run.next += 1;
    return true;
  }
}

function isSessionContext(message: Json): boolean {
  if (message.type !== 'user' || !Array.isArray(message.content)) return false;
  const first = asObject(message.content[0]);
  return typeof first?.text === 'string' && SESSION_CONTEXT.test(first.text);
}
