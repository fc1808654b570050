import { countOf, type SessionExport, type SessionMessage, type SessionPart, type SessionSummary } from '../api/index.js';
import { turn } from '../gateway/index.js';
import type { Redactor } from '../secrets/index.js';
import { groupMessages } from './messages.js';
import type { SessionsView } from './sessions.js';

interface Conversation {
  session: SessionSummary;
  messages: SessionMessage[];
  subagents: Conversation[];
}

const ROLE_LABEL: Record<string, string> = { user: 'User', assistant: 'Assistant', toolResult: 'Tool result' };

/** How long an export may hold the event loop before it gives a turn. */
const HOLD_MS = 10;
/**
 * Characters of part text per secretlint pass: one pass over many texts costs a fraction of a pass
 * per text (0.18 ms a part instead of 0.47, measured), and 32 KiB keeps a pass near 10 ms.
 */
const REDACT_BATCH_CHARS = 32 * 1024;

/** Gives the event loop a turn whenever the work since the last one held it for HOLD_MS. */
function pacer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < HOLD_MS) return;
    await turn();
    since = performance.now();
  };
}

/** A fence longer than any backtick run in the text, so no content can close it early. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function when(ts: number | null): string {
  return ts === null ? '' : new Date(ts).toISOString().replace('.000Z', 'Z');
}

function partMarkdown(part: SessionPart): string {
  const text = part.text ?? '';
  const cut = part.truncatedFrom !== null ? `\n\n_(stored prefix of ${part.truncatedFrom} characters)_` : '';
  switch (part.kind) {
    case 'text':
      return `${text}${cut}`;
    case 'thinking':
      return `<details><summary>Thinking</summary>\n\n${fence(text)}\n\n</details>`;
    case 'tool_use':
      return `**Tool call** ${part.summary ?? part.toolName ?? ''}\n\n${fence(text, 'json')}${cut}`;
    case 'tool_result':
      return `**Tool result**${part.isError ? ' (error)' : ''}\n\n${fence(text)}${cut}`;
    case 'image':
      return `_[${part.summary ?? 'image'}]_`;
    default:
      return `**${part.kind}**\n\n${fence(text)}`;
  }
}

function messageMarkdown(m: SessionMessage, h: string): string {
  return `${h}# ${ROLE_LABEL[m.role ?? ''] ?? m.role ?? 'Message'}${m.ts !== null ? ` · ${when(m.ts)}` : ''}\n\n${m.parts.map(partMarkdown).join('\n\n')}`;
}

/** Message by message, with turns between: a conversation of 100,000 messages never holds the loop. */
async function conversationMarkdown(c: Conversation, depth: number, pace: () => Promise<void>): Promise<string> {
  const h = '#'.repeat(depth);
  const s = c.session;
  const title = s.title ?? s.firstRequest ?? `Session ${s.sessionId}`;
  const facts = [
    `- Session: \`${s.sessionId}\``,
    s.projectName ? `- Project: ${s.projectName} (\`${s.projectKey ?? ''}\`)` : null,
    `- Provider: ${s.provider}${s.agentType ? `, agent ${s.agentType}` : ''}`,
    s.startedAt !== null ? `- From ${when(s.startedAt)} to ${when(s.lastAt)}` : null,
    `- ${countOf(s.messages, 'message')}, ${countOf(s.toolCalls, 'tool call')}`,
  ].filter((line): line is string => line !== null);
  const out = [`${h} ${title.replace(/\n/g, ' ')}`, facts.join('\n')];
  for (const m of c.messages) {
    out.push(messageMarkdown(m, h));
    await pace();
  }
  for (const sub of c.subagents) out.push(await conversationMarkdown(sub, Math.min(depth + 1, 4), pace));
  return out.join('\n\n');
}

const pad = (level: number) => '  '.repeat(level);
/** `JSON.stringify(value, null, 2)` as it reads nested `level` deep (a JSON string holds no raw newline). */
const jsonAt = (value: unknown, level: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${pad(level)}`);

/** A list as `JSON.stringify(list, null, 2)` writes it at `level`, an item at a time with turns between. */
async function jsonList<T>(list: readonly T[], level: number, item: (value: T) => Promise<string> | string, pace: () => Promise<void>): Promise<string> {
  if (list.length === 0) return '[]';
  const out: string[] = [];
  for (const value of list) {
    out.push(`${pad(level + 1)}${await item(value)}`);
    await pace();
  }
  return `[\n${out.join(',\n')}\n${pad(level)}]`;
}

/** The conversation as `JSON.stringify({ ...head, ...c }, null, 2)` writes it, message by message. */
async function conversationJson(c: Conversation, level: number, head: Record<string, unknown>, pace: () => Promise<void>): Promise<string> {
  const fields: Array<[string, string]> = [
    ...Object.entries(head).map(([key, value]): [string, string] => [key, jsonAt(value, level + 1)]),
    ['session', jsonAt(c.session, level + 1)],
    ['messages', await jsonList(c.messages, level + 1, (m) => jsonAt(m, level + 2), pace)],
    ['subagents', await jsonList(c.subagents, level + 1, (sub) => conversationJson(sub, level + 2, {}, pace), pace)],
  ];
  return `{\n${fields.map(([key, value]) => `${pad(level + 1)}${JSON.stringify(key)}: ${value}`).join(',\n')}\n${pad(level)}}`;
}

/** Exports a conversation with its subagents, every text redacted with the secrets module unless `raw`. */
export class SessionExporter {
  readonly #sessions: SessionsView;
  readonly #redactor: () => Redactor;

  constructor(sessions: SessionsView, redactor: () => Redactor) {
    this.#sessions = sessions;
    this.#redactor = redactor;
  }

  async export(sessionId: string, format: 'markdown' | 'json', raw: boolean): Promise<SessionExport> {
    const conversation = await this.#conversation(sessionId, raw ? null : this.#redactor());
    const short = sessionId.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60);
    const pace = pacer();
    if (format === 'json') {
      const content = await conversationJson(conversation, 0, { format: 'steward.session.v1', redacted: !raw }, pace);
      return { filename: `session-${short}.json`, mediaType: 'application/json', content: `${content}\n`, redacted: !raw };
    }
    return { filename: `session-${short}.md`, mediaType: 'text/markdown', content: `${await conversationMarkdown(conversation, 1, pace)}\n`, redacted: !raw };
  }

  async #conversation(sessionId: string, redactor: Redactor | null): Promise<Conversation> {
    const session = this.#sessions.summary(this.#sessions.record(sessionId));
    const messages: SessionMessage[] = [];
    for (const chunk of this.#sessions.allParts(sessionId)) {
      messages.push(...groupMessages(chunk));
      await turn();
    }
    // A message split across two chunks is joined again.
    const joined = messages.reduce<SessionMessage[]>((out, m) => {
      const last = out[out.length - 1];
      if (last?.messageId === m.messageId) last.parts.push(...m.parts);
      else out.push(m);
      return out;
    }, []);
    const subagents: Conversation[] = [];
    for (const sub of this.#sessions.subagents(sessionId)) subagents.push(await this.#conversation(sub.session.sessionId, redactor));
    return redactor ? { session: await redactSession(session, redactor), messages: await redactMessages(joined, redactor), subagents } : { session, messages: joined, subagents };
  }
}

async function redactSession(session: SessionSummary, redactor: Redactor): Promise<SessionSummary> {
  return {
    ...session,
    title: session.title === null ? null : await redactor.redact(session.title),
    firstRequest: session.firstRequest === null ? null : await redactor.redact(session.firstRequest),
  };
}

/**
 * Many parts to a secretlint pass (see REDACT_BATCH_CHARS), with a turn of the event loop after each
 * pass: a long conversation never holds the loop, and is not linted a part at a time.
 */
async function redactMessages(messages: SessionMessage[], redactor: Redactor): Promise<SessionMessage[]> {
  const fields = ['text', 'summary'] as const;
  let batch: Array<{ part: SessionPart; field: (typeof fields)[number]; value: string }> = [];
  let chars = 0;
  const flush = async () => {
    const redacted = await redactor.redactMany(batch.map((slot) => slot.value));
    batch.forEach(({ part, field }, i) => (part[field] = redacted[i] ?? ''));
    batch = [];
    chars = 0;
    await turn();
  };
  for (const message of messages) {
    for (const part of message.parts) {
      for (const field of fields) {
        const value = part[field];
        if (value === null) continue;
        batch.push({ part, field, value });
        chars += value.length;
        if (chars >= REDACT_BATCH_CHARS) await flush();
      }
    }
  }
  if (batch.length > 0) await flush();
  return messages;
}
