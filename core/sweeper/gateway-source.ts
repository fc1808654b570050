import type { GatewayReader, StoredPart } from '../gateway/index.js';
import type { ProjectStore } from '../projects/index.js';
import type { DigestMessage, DigestSession, DigestSource, SweeperProject, ToolUse } from './types.js';

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A tool call reduced to what the digest may carry: name, a path or the first line of a command. */
function toolUse(part: StoredPart): { id: string | undefined; use: ToolUse } {
  const meta = parseJson(part.meta) ?? {};
  const input = parseJson(part.text) ?? {};
  const use: ToolUse = { name: str(meta.name) ?? 'tool' };
  const file = str(input.file_path) ?? str(input.path) ?? str(input.notebook_path);
  if (file !== undefined) use.filePath = file;
  const command = str(input.command) ?? str(input.cmd);
  if (command !== undefined) use.command = command.split('\n')[0]?.slice(0, 200) ?? '';
  return { id: str(meta.toolUseId), use };
}

/** `cc:{uuid}:{block}` and `oc:…:{entryId}:{block}`: the message is the id without its block index. */
function messageIdOf(partId: string): string {
  return partId.slice(0, partId.lastIndexOf(':'));
}

function toMessages(parts: StoredPart[]): DigestMessage[] {
  const messages: DigestMessage[] = [];
  const byMessage = new Map<string, DigestMessage>();
  const tools = new Map<string, ToolUse>();
  for (const part of parts) {
    if (part.kind === 'tool_result') {
      // Tool output never enters the digest; only whether it failed, and its first line then.
      const meta = parseJson(part.meta) ?? {};
      const target = tools.get(str(meta.toolUseId) ?? '');
      if (target && meta.isError === true) {
        target.isError = true;
        target.errorLine = (part.text ?? '').split('\n').find((l) => l.trim() !== '')?.slice(0, 200) ?? 'error';
      }
      continue;
    }
    const role = part.role === 'user' || part.role === 'assistant' ? part.role : null;
    if (role === null || (part.kind !== 'text' && part.kind !== 'tool_use')) continue;
    // The parser decided once whether user text is the person's own words (not an echo, caveat, hook…).
    if (part.kind === 'text' && role === 'user' && !part.genuineUserTurn) continue;
    const id = messageIdOf(part.partId);
    let message = byMessage.get(id);
    if (!message) {
      message = { role, text: '', toolUses: [], ts: part.ts ?? 0 };
      byMessage.set(id, message);
      messages.push(message);
    }
    if (part.kind === 'text') message.text = message.text === '' ? (part.text ?? '') : `${message.text}\n${part.text ?? ''}`;
    else {
      const { id: toolId, use } = toolUse(part);
      message.toolUses.push(use);
      if (toolId) tools.set(toolId, use);
    }
  }
  return messages.filter((m) => m.text.trim() !== '' || m.toolUses.length > 0);
}

/** The sweeper's DigestSource: projects from their room, sessions and parts through the gateway's read API. */
export class GatewayDigestSource implements DigestSource {
  readonly #projects: ProjectStore;
  readonly #sessions: GatewayReader;

  constructor(projects: ProjectStore, sessions: GatewayReader) {
    this.#projects = projects;
    this.#sessions = sessions;
  }

  project(projectKey: string): SweeperProject | null {
    const p = this.#projects.get(projectKey);
    return p ? { projectKey: p.projectKey, name: p.name, cwd: p.cwd, slug: p.slug, repoBacked: p.repoBacked } : null;
  }

  latestActivity(projectKey: string): number | null {
    return this.#projects.get(projectKey)?.lastActivityAt ?? null;
  }

  recentSessions(projectKey: string, limits: { sessions: number; messages: number }): DigestSession[] {
    return this.#sessions.sessionsOfProject(projectKey, limits.sessions).map(({ sessionId }) => {
      // A message spans a few parts, tool results included: read a bounded tail of the session.
      const parts = this.#sessions.partsOfSession(sessionId, limits.messages * 8);
      return { sessionId, messages: toMessages(parts).slice(-limits.messages) };
    });
  }
}
