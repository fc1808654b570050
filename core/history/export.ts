import { countOf, type SessionExport, type SessionMessage, type SessionPart, type SessionSummary } from '../api/index.js';
import type { Redactor } from '../secrets/index.js';
import { groupMessages } from './messages.js';
import type { SessionsView } from './sessions.js';

interface Conversation {
  session: SessionSummary;
  messages: SessionMessage[];
  subagents: Conversation[];
}

const ROLE_LABEL: Record<string, string> = { user: 'User', assistant: 'Assistant', toolResult: 'Tool result' };

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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

function conversationMarkdown(c: Conversation, depth: number): string {
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
  const body = c.messages.map((m) => `${h}# ${ROLE_LABEL[m.role ?? ''] ?? m.role ?? 'Message'}${m.ts !== null ? ` · ${when(m.ts)}` : ''}\n\n${m.parts.map(partMarkdown).join('\n\n')}`);
  const subagents = c.subagents.map((sub) => conversationMarkdown(sub, Math.min(depth + 1, 4)));
  return [`${h} ${title.replace(/\n/g, ' ')}`, facts.join('\n'), ...body, ...subagents].join('\n\n');
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
    if (format === 'json') {
      return { filename: `session-${short}.json`, mediaType: 'application/json', content: `${JSON.stringify({ format: 'steward.session.v1', redacted: !raw, ...conversation }, null, 2)}\n`, redacted: !raw };
    }
    return { filename: `session-${short}.md`, mediaType: 'text/markdown', content: `${conversationMarkdown(conversation, 1)}\n`, redacted: !raw };
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

/** Part by part, with an event-loop turn between them: a long conversation never holds the loop. */
async function redactMessages(messages: SessionMessage[], redactor: Redactor): Promise<SessionMessage[]> {
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.text !== null) part.text = await redactor.redact(part.text);
      if (part.summary !== null) part.summary = await redactor.redact(part.summary);
    }
    await turn();
  }
  return messages;
}
