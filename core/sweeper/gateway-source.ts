import { commandText, patchedFiles, readToolResult, SHELL_TOOLS, toolArgumentKeys } from '../api/index.js';
import type { GatewayReader, StoredPart } from '../gateway/index.js';
import type { ProjectStore } from '../projects/index.js';
import type { DigestMessage, DigestSession, DigestSource, SweeperProject, ToolUse } from './types.js';

/**
 * "The user said this": a user text part the parser marked as the person's own words (its
 * `genuine_user_turn` flag, decided once at parse time: not a slash-command echo, caveat, hook output,
 * task notification, skill expansion or compaction summary).
 */
export function isGenuineUserTurn(part: StoredPart): boolean {
  return part.role === 'user' && part.kind === 'text' && part.genuineUserTurn;
}

/** OpenClaw prefixes channel messages with the gateway's local time: `[Wed 2026-04-08 03:03 GMT+2] `. */
const ENVELOPE = /^\s*\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?(?: (?:GMT|UTC)[+-]?\d{0,2}(?::?\d{2})?)?\]\s*/;

export function withoutEnvelope(text: string): string {
  return text.replace(ENVELOPE, '');
}

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

/**
 * A text capture cut at its size cap may end in the head of a secret too short for any rule to know:
 * the cut's last, partial word goes before the text reaches redaction.
 */
function storedText(part: StoredPart): string {
  const text = part.text ?? '';
  if (!parseJson(part.meta)?.truncated) return text;
  const cut = text.search(/\S+$/);
  return cut > 0 ? text.slice(0, cut) : '';
}

/** The names agents give a file or folder a call touched, and a command it ran: the fold's list (core/api). */
const PATH_ARGUMENTS = toolArgumentKeys('path');
const COMMAND_ARGUMENTS = toolArgumentKeys('command');

function firstOf(input: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = str(input[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The command a call ran, an argv (Codex's `shell`) read as the line typed: a `bash -lc` call as its script. */
function commandOf(input: Record<string, unknown>): string | undefined {
  for (const key of COMMAND_ARGUMENTS) {
    const value = commandText(input[key]);
    if (value !== null) return value;
  }
  return undefined;
}

/** A patch run through the shell (Codex before its apply_patch tool): `apply_patch <<'EOF'` or its argv. */
const SHELL_PATCH = /^\s*(?:cd\s+\S+\s*&&\s*)?apply_patch\b/;

/**
 * The patch text of a patch call: the free text Codex's custom tool stores, or its `input` (`patch`)
 * argument. A stored input cut at its cap is no JSON: its escaped lines are read as far as they go,
 * and the cut's last, partial line is dropped (its file name may be cut too).
 */
function patchOf(part: StoredPart, name: string, input: Record<string, unknown> | null, command: string | undefined): string | undefined {
  let patch: string | undefined;
  if (SHELL_TOOLS.has(name)) patch = command !== undefined && SHELL_PATCH.test(command) ? command : undefined;
  else if (name !== 'apply_patch') return undefined;
  else if (input !== null) patch = str(input.input) ?? str(input.patch) ?? command;
  else {
    const text = part.text ?? '';
    patch = text.trimStart().startsWith('{') ? text.replace(/\\n/g, '\n').replace(/\\"/g, '"') : text;
  }
  if (patch === undefined || !parseJson(part.meta)?.truncated) return patch;
  return patch.slice(0, Math.max(0, patch.lastIndexOf('\n')));
}

/** A tool call reduced to what the digest may carry: its name, the files it touched, or the command it ran. */
function toolUse(part: StoredPart): { id: string | undefined; use: ToolUse } {
  const meta = parseJson(part.meta) ?? {};
  const parsed = parseJson(part.text);
  const input = parsed ?? {};
  const use: ToolUse = { name: str(meta.name) ?? 'tool' };
  const file = firstOf(input, PATH_ARGUMENTS);
  if (file !== undefined) use.filePath = file;
  const command = commandOf(input);
  if (command !== undefined) use.command = command;
  // One patch can touch several files: every one is carried.
  const patched = patchedFiles(patchOf(part, use.name, parsed, command) ?? '');
  if (patched.length > 0) {
    use.filePaths = patched;
    use.filePath ??= patched[0];
  }
  return { id: str(meta.toolUseId), use };
}

const TELLING = /\b(?:error|errors|fail(?:ed|ure|s)?|exception|cannot|can't|not found|denied|refused|missing|undefined|panic|fatal|assert\w*)\b|✗|×/i;

/**
 * The line of an error result's output (its agent's own lines about it read off: Codex's JSON wrapper
 * and exit header, Gemini's labels) that says what went wrong: Claude Code's `Exit code 2` says only
 * that it failed, and a linter's first line is a file name.
 */
function errorLineOf(body: string): string {
  const lines = body.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(?:Exit code \d+|Error:?|\[stderr\]|stderr:?|>.*)$/i.test(l));
  return lines.find((l) => TELLING.test(l)) ?? lines[0] ?? 'error';
}

/** `cc:{uuid}:{block}` and `oc:…:{entryId}:{block}`: the message is the id without its block index. */
function messageIdOf(partId: string): string {
  return partId.slice(0, partId.lastIndexOf(':'));
}

/**
 * Whether a call failed, and its telling line then. A shell call failed when its result says a
 * non-zero exit, though its agent stored it as a success: Codex's exec_command and shell_command
 * write the exit code only in their text, and Gemini's run_shell_command settles "success" with
 * "Exit Code: 1" in its output. No exit code, or 0, leaves the stored flag to say.
 */
function readOutcome(target: ToolUse, part: StoredPart, meta: Record<string, unknown>, provider: string): void {
  const flagged = meta.isError === true;
  if (!flagged && !SHELL_TOOLS.has(target.name)) return;
  const reading = readToolResult(provider, storedText(part), meta.exitCode);
  if (!flagged && (reading.exitCode === null || reading.exitCode === 0)) return;
  target.isError = true;
  target.errorLine = errorLineOf(reading.body);
}

/**
 * Each part's place in the read: its own, else (a part stored with no time before capture kept places,
 * which reads first) the place of the part before it, else of the first one after it. Null only when
 * no part of the read has a time: such a message has no day, and 0 is no time.
 */
function placesOf(parts: readonly StoredPart[]): Array<number | null> {
  const places = parts.map((p) => p.place);
  for (let i = 1; i < places.length; i += 1) places[i] ??= places[i - 1] ?? null;
  for (let i = places.length - 2; i >= 0; i -= 1) places[i] ??= places[i + 1] ?? null;
  return places;
}

/** `provider`: the session's agent, whose wording its tool results are read by. */
function toMessages(parts: StoredPart[], provider: string): DigestMessage[] {
  const messages: DigestMessage[] = [];
  const byMessage = new Map<string, DigestMessage>();
  const tools = new Map<string, ToolUse>();
  const places = placesOf(parts);
  for (const [i, part] of parts.entries()) {
    if (part.kind === 'tool_result') {
      // Tool output never enters the digest; only whether it failed, and a telling line then.
      const meta = parseJson(part.meta) ?? {};
      const target = tools.get(str(meta.toolUseId) ?? '');
      if (target) readOutcome(target, part, meta, provider);
      continue;
    }
    const role = part.role === 'user' || part.role === 'assistant' ? part.role : null;
    if (role === null || (part.kind !== 'text' && part.kind !== 'tool_use')) continue;
    if (part.kind === 'text' && role === 'user' && !isGenuineUserTurn(part)) continue;
    const id = messageIdOf(part.partId);
    let message = byMessage.get(id);
    if (!message) {
      // Its own time only, shown; its place orders and dates it (a placed line's is the line before it's).
      message = { role, text: '', toolUses: [], ts: part.ts, place: places[i] ?? null };
      byMessage.set(id, message);
      messages.push(message);
    }
    if (part.kind === 'text') {
      const text = role === 'user' ? withoutEnvelope(storedText(part)) : storedText(part);
      message.text = message.text === '' ? text : `${message.text}\n${text}`;
    } else {
      const { id: toolId, use } = toolUse(part);
      message.toolUses.push(use);
      if (toolId) tools.set(toolId, use);
    }
  }
  return messages.filter((m) => m.text.trim() !== '' || m.toolUses.length > 0);
}

function toSweeperProject(p: SweeperProject): SweeperProject {
  return { projectKey: p.projectKey, name: p.name, cwd: p.cwd, slug: p.slug, repoBacked: p.repoBacked, repoId: p.repoId };
}

/** How far into a session its task statement is looked for (slash-command preambles, caveats, meta lines). */
const FIRST_REQUEST_PARTS = 200;

/** The sweeper's DigestSource: projects from their room, sessions and parts through the gateway's read API. */
export class GatewayDigestSource implements DigestSource {
  readonly #projects: ProjectStore;
  readonly #sessions: GatewayReader;
  readonly #forgotten: (projectKey: string) => boolean;

  /**
   * `forgotten`: whether the person forgot the project. Its row stays until its forget has erased every
   * conversation (a forget cut short is finished at the next start), and no notes may be written from
   * what is left of it meanwhile: to the sweeper it is no project.
   */
  constructor(projects: ProjectStore, sessions: GatewayReader, forgotten: (projectKey: string) => boolean = () => false) {
    this.#projects = projects;
    this.#sessions = sessions;
    this.#forgotten = forgotten;
  }

  isForgotten(projectKey: string): boolean {
    return this.#forgotten(projectKey);
  }

  projects(): SweeperProject[] {
    return this.#projects
      .list()
      .filter((p) => !this.#forgotten(p.projectKey))
      .map(toSweeperProject);
  }

  project(projectKey: string): SweeperProject | null {
    const p = this.#forgotten(projectKey) ? undefined : this.#projects.get(projectKey);
    return p ? toSweeperProject(p) : null;
  }

  latestActivity(projectKey: string): number | null {
    return this.#projects.get(projectKey)?.lastActivityAt ?? null;
  }

  #firstRequest(sessionId: string): DigestMessage | null {
    const parts = this.#sessions.firstPartsOfSession(sessionId, FIRST_REQUEST_PARTS);
    const at = parts.findIndex(isGenuineUserTurn);
    const part = parts[at];
    return part ? { role: 'user', text: withoutEnvelope(storedText(part)), toolUses: [], ts: part.ts, place: placesOf(parts)[at] ?? null } : null;
  }

  recentSessions(projectKey: string, limits: { sessions: number; messages: number }): DigestSession[] {
    return this.#sessions.sessionsOfProject(projectKey, limits.sessions).map(({ sessionId, title, provider }) => {
      // A message spans a few parts, tool results included: read a bounded tail of the session.
      const parts = this.#sessions.partsOfSession(sessionId, limits.messages * 8);
      return { sessionId, title, firstRequest: this.#firstRequest(sessionId), messages: toMessages(parts, provider).slice(-limits.messages) };
    });
  }
}
