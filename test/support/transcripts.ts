import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Fixture transcripts built from code, in the shapes of ../shared/reference/transcript-formats.md. */

let counter = 0;
export function uuid(): string {
  counter += 1;
  const n = counter.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${n}`;
}

export interface ClaudeLineOptions {
  sessionId: string;
  type?: 'user' | 'assistant';
  text?: string;
  ts?: string | Date;
  cwd?: string;
  agentId?: string;
  uuid?: string;
  content?: unknown;
  /** The model an assistant line names (`message.model`). */
  model?: string;
  /** More envelope fields as Claude Code writes them (isMeta, isCompactSummary, toolUseResult, …). */
  extra?: Record<string, unknown>;
}

export function claudeLine(o: ClaudeLineOptions): Record<string, unknown> {
  const type = o.type ?? 'user';
  const ts = o.ts instanceof Date ? o.ts.toISOString() : (o.ts ?? new Date().toISOString());
  return {
    parentUuid: null,
    isSidechain: o.agentId !== undefined,
    ...(o.agentId ? { agentId: o.agentId } : {}),
    userType: 'external',
    cwd: o.cwd ?? '/work/fixture-project',
    sessionId: o.sessionId,
    version: '2.1.12',
    type,
    message: type === 'user' ? { role: 'user', content: o.content ?? o.text ?? 'hello' } : { id: 'msg_1', role: 'assistant', ...(o.model ? { model: o.model } : {}), content: o.content ?? [{ type: 'text', text: o.text ?? 'hi' }] },
    uuid: o.uuid ?? uuid(),
    timestamp: ts,
    ...o.extra,
  };
}

export function writeJsonl(path: string, lines: readonly unknown[], trailingNewline = true): void {
  mkdirSync(dirname(path), { recursive: true });
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  writeFileSync(path, lines.length === 0 ? '' : trailingNewline ? `${body}\n` : body);
}

export function appendJsonl(path: string, lines: readonly unknown[]): void {
  appendFileSync(path, lines.map((l) => `${typeof l === 'string' ? l : JSON.stringify(l)}\n`).join(''));
}

/** `<root>/projects/<encoded cwd>/<sessionId>.jsonl` with `n` user/assistant lines. */
export function claudeSession(root: string, sessionId: string, n: number, opts: { cwd?: string; ts?: Date } = {}): string {
  const file = join(root, 'projects', '-work-fixture-project', `${sessionId}.jsonl`);
  const base = opts.ts?.getTime() ?? Date.now() - 60_000;
  const lines = Array.from({ length: n }, (_, i) =>
    claudeLine({ sessionId, type: i % 2 === 0 ? 'user' : 'assistant', text: `line ${i}`, ts: new Date(base + i * 1000), ...(opts.cwd ? { cwd: opts.cwd } : {}) }),
  );
  writeJsonl(file, lines);
  return file;
}

/**
 * A Claude Desktop sandbox home: `<userData>/local-agent-mode-sessions/<org>/<ws>/local_<id>/.claude/projects/…`,
 * its sidecar `local_<id>.json` (epoch-ms times, as the app writes them) and the VM path as the lines' cwd.
 */
export function desktopSession(userData: string, sessionId: string, n: number, title = 'Desktop task', userSelectedFolders?: string[]): string {
  const ws = join(userData, 'local-agent-mode-sessions', 'org-1', 'ws-1');
  const local = `local_${sessionId}`;
  const sidecar = { sessionId: local, cliSessionId: sessionId, title, cwd: `/sessions/${sessionId}-vm`, createdAt: 1, lastActivityAt: 2, model: 'claude-sonnet-4-5', ...(userSelectedFolders ? { userSelectedFolders } : {}) };
  writeFileSync(join(mkdirp(ws), `${local}.json`), JSON.stringify(sidecar));
  const file = join(ws, local, '.claude', 'projects', '-sessions-x', `${sessionId}.jsonl`);
  writeJsonl(
    file,
    Array.from({ length: n }, (_, i) => claudeLine({ sessionId, type: i % 2 === 0 ? 'user' : 'assistant', text: `desktop ${i}`, cwd: `/sessions/${sessionId}-vm/outputs` })),
  );
  writeJsonl(join(ws, local, 'audit.jsonl'), [{ not: 'a transcript' }]);
  writeJsonl(join(ws, local, 'outputs', 'big.jsonl'), [claudeLine({ sessionId: 'outputs-must-not-be-read' })]);
  return file;
}

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface OpenClawEntry {
  id: string;
  role?: 'user' | 'assistant' | 'toolResult';
  text?: string;
  ts?: Date;
  /** OpenClaw names the model on assistant messages. */
  model?: string;
}

export function openclawLines(headerId: string, entries: readonly OpenClawEntry[], cwd = '/work/openclaw-workspace'): unknown[] {
  const now = Date.now();
  return [
    { type: 'session', version: 3, id: headerId, timestamp: new Date(now - 120_000).toISOString(), cwd },
    { type: 'model_change', id: 'ffff0001', parentId: null, timestamp: new Date(now - 119_000).toISOString(), provider: 'anthropic', modelId: 'x' },
    ...entries.map((e, i) => ({
      type: 'message',
      id: e.id,
      parentId: null,
      timestamp: (e.ts ?? new Date(now - 100_000 + i * 1000)).toISOString(),
      message: { role: e.role ?? 'user', content: [{ type: 'text', text: e.text ?? `entry ${e.id}` }], timestamp: now, ...(e.model ? { model: e.model } : {}) },
    })),
  ];
}
