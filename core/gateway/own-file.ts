import { basename, dirname } from 'node:path';

/** A JSON checkpoint state's text field (`header.id`: a field of an object field), or undefined. */
function stateField(state: string | null, field: string): string | undefined {
  try {
    let value: unknown = state === null ? undefined : JSON.parse(state);
    for (const key of field.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The conversation a checkpointed file is the own file of, where that is certain from its name or the
 * state its reader left: Claude's `<sessionId>.jsonl`, a subagent's
 * `<sessionId>/subagents/[workflows/<id>/]agent-<agentId>.jsonl` (`<sessionId>:agent-<agentId>`, as its
 * reader names it), Codex's rollout by the session its reader kept (its first `session_meta`: a fork's
 * is its own, not its parent's), OpenClaw's `agents/<agentId>/sessions/<id>.jsonl[.reset.<ts>…]` by the
 * header its reader kept (`oc:<agentId>:<id>`). A file moved keeps it. Other files (stores of several
 * sessions, chats named otherwise, compressed files, which keep no state) name none.
 */
export function ownSessionOf(provider: string, path: string, state: string | null): string | undefined {
  if (provider === 'codex') return stateField(state, 'sessionId');
  if (provider === 'openclaw') {
    const header = stateField(state, 'header.id');
    return header === undefined ? undefined : `oc:${basename(dirname(dirname(path)))}:${header}`;
  }
  if (provider !== 'claude' || !path.endsWith('.jsonl')) return undefined;
  const agent = /^agent-(.+)\.jsonl$/.exec(basename(path))?.[1];
  if (agent === undefined) return basename(path, '.jsonl');
  const agentSession = stateField(state, 'agentSession');
  if (agentSession !== undefined) return agentSession;
  let dir = dirname(path);
  for (let i = 0; i < 3 && basename(dir) !== 'subagents'; i += 1) dir = dirname(dir);
  return basename(dir) === 'subagents' ? `${basename(dirname(dir))}:agent-${agent}` : undefined;
}
