import { countOf, type SessionExport, type SessionMessage, type SessionPart, type SessionSummary } from '../api/index.js';
import { pacer, turn } from '../gateway/index.js';
import type { Redactor } from '../secrets/index.js';
import { groupMessages } from './messages.js';
import type { SessionsView } from './sessions.js';

const ROLE_LABEL: Record<string, string> = { user: 'User', assistant: 'Assistant', toolResult: 'Tool result' };

/** How long an export may hold the event loop before it gives a turn. */
const HOLD_MS = 10;
/**
 * Characters of part text per secretlint pass: one pass over many texts costs a fraction of a pass
 * per text (0.18 ms a part instead of 0.47, measured), and 32 KiB keeps a pass near 10 ms.
 */
const REDACT_BATCH_CHARS = 32 * 1024;


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

/** A conversation's heading and facts, as its Markdown opens. */
function headingMarkdown(s: SessionSummary, h: string): string[] {
  const title = s.title ?? s.firstRequest ?? `Session ${s.sessionId}`;
  const facts = [
    `- Session: \`${s.sessionId}\``,
    s.projectName ? `- Project: ${s.projectName} (\`${s.projectKey ?? ''}\`)` : null,
    `- Provider: ${s.provider}${s.agentType ? `, agent ${s.agentType}` : ''}`,
    s.startedAt !== null ? `- From ${when(s.startedAt)} to ${when(s.lastAt)}` : null,
    `- ${countOf(s.messages, 'message')}, ${countOf(s.toolCalls, 'tool call')}`,
  ].filter((line): line is string => line !== null);
  return [`${h} ${title.replace(/\n/g, ' ')}`, facts.join('\n')];
}

const pad = (level: number) => '  '.repeat(level);
/** `JSON.stringify(value, null, 2)` as it reads nested `level` deep (a JSON string holds no raw newline). */
const jsonAt = (value: unknown, level: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${pad(level)}`);
/** Rendered items as `JSON.stringify` writes a list at `level`. */
const jsonList = (items: readonly string[], level: number) => (items.length === 0 ? '[]' : `[\n${items.join(',\n')}\n${pad(level)}]`);

/**
 * Exports a conversation with its subagents, every text redacted with the secrets module unless `raw`.
 * A conversation is read a chunk of parts at a time, and each message is redacted and written as
 * soon as it is whole: only the output is held, and the event loop gets a turn every HOLD_MS.
 */
export class SessionExporter {
  readonly #sessions: SessionsView;
  readonly #redactor: () => Redactor;

  constructor(sessions: SessionsView, redactor: () => Redactor) {
    this.#sessions = sessions;
    this.#redactor = redactor;
  }

  async export(sessionId: string, format: 'markdown' | 'json', raw: boolean): Promise<SessionExport> {
    const redactor = raw ? null : this.#redactor();
    const short = sessionId.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60);
    const pace = pacer(HOLD_MS);
    if (format === 'json') {
      const content = await this.#json(sessionId, 0, { format: 'steward.session.v1', redacted: !raw }, redactor, pace);
      return { filename: `session-${short}.json`, mediaType: 'application/json', content: `${content}\n`, redacted: !raw };
    }
    return { filename: `session-${short}.md`, mediaType: 'text/markdown', content: `${await this.#markdown(sessionId, 1, redactor, pace)}\n`, redacted: !raw };
  }

  async #markdown(sessionId: string, depth: number, redactor: Redactor | null, pace: () => Promise<void>): Promise<string> {
    const h = '#'.repeat(depth);
    const out = headingMarkdown(await this.#summary(sessionId, redactor), h);
    out.push(...(await this.#messages(sessionId, redactor, (m) => messageMarkdown(m, h), pace)));
    for (const sub of this.#sessions.subagents(sessionId)) out.push(await this.#markdown(sub.session.sessionId, Math.min(depth + 1, 4), redactor, pace));
    return out.join('\n\n');
  }

  /** The conversation as `JSON.stringify({ ...head, session, messages, subagents }, null, 2)` writes it. */
  async #json(sessionId: string, level: number, head: Record<string, unknown>, redactor: Redactor | null, pace: () => Promise<void>): Promise<string> {
    const session = await this.#summary(sessionId, redactor);
    const messages = await this.#messages(sessionId, redactor, (m) => `${pad(level + 2)}${jsonAt(m, level + 2)}`, pace);
    const subagents: string[] = [];
    for (const sub of this.#sessions.subagents(sessionId)) subagents.push(`${pad(level + 2)}${await this.#json(sub.session.sessionId, level + 2, {}, redactor, pace)}`);
    const fields: Array<[string, string]> = [
      ...Object.entries(head).map(([key, value]): [string, string] => [key, jsonAt(value, level + 1)]),
      ['session', jsonAt(session, level + 1)],
      ['messages', jsonList(messages, level + 1)],
      ['subagents', jsonList(subagents, level + 1)],
    ];
    return `{\n${fields.map(([key, value]) => `${pad(level + 1)}${JSON.stringify(key)}: ${value}`).join(',\n')}\n${pad(level)}}`;
  }

  async #summary(sessionId: string, redactor: Redactor | null): Promise<SessionSummary> {
    const session = this.#sessions.summary(this.#sessions.record(sessionId));
    return redactor ? redactSession(session, redactor) : session;
  }

  /**
   * The conversation's messages in order, each rendered once it is whole: a message split across two
   * chunks of parts is joined first (the last message of a chunk waits for the next one).
   */
  async #messages(sessionId: string, redactor: Redactor | null, render: (m: SessionMessage) => string, pace: () => Promise<void>): Promise<string[]> {
    const out: string[] = [];
    let open: SessionMessage | undefined;
    const write = async (whole: SessionMessage[]) => {
      if (redactor) await redactMessages(whole, redactor);
      for (const m of whole) {
        out.push(render(m));
        await pace();
      }
    };
    for (const chunk of this.#sessions.allParts(sessionId)) {
      const whole: SessionMessage[] = [];
      for (const m of groupMessages(chunk)) {
        if (open?.messageId === m.messageId) open.parts.push(...m.parts);
        else {
          if (open) whole.push(open);
          open = m;
        }
      }
      await write(whole);
      await turn();
    }
    if (open) await write([open]);
    return out;
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
async function redactMessages(messages: readonly SessionMessage[], redactor: Redactor): Promise<void> {
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
}
