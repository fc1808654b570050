// How a conversation reads, as one rule for every surface: the CLI, MCP and exports through the
// contract, and the panel, which imports this file alone of core/ at run time. So it imports nothing
// (lint keeps it so): each surface says the answers in its own words.

/** The fields of a part that tell whose words it holds. */
export interface VoicedPart {
  kind: string;
  genuineUserTurn: boolean;
  isCompactSummary: boolean;
  slashCommand: string | null;
}

/**
 * What a user-role text part the person did not write is: a slash command's echo, the summary that
 * continues a compacted conversation, or other text the app wrote (a command's output, a caveat, a
 * hook's line). Undefined for the words of the turn's author. In a subagent's conversation the user
 * text is the main agent's prompt (capture never marks it the person's), which is its author's.
 */
export type HarnessKind = 'command' | 'summary' | 'app';

export function harnessKind(part: VoicedPart, role: string | null, inSubagent: boolean): HarnessKind | undefined {
  if (role !== 'user' || part.kind !== 'text' || part.genuineUserTurn) return undefined;
  if (part.isCompactSummary) return 'summary';
  if (inSubagent) return undefined;
  return part.slashCommand !== null ? 'command' : 'app';
}

/**
 * Who a message is from: a tool's output is nobody's words (`tool`); a user message holding none of
 * its author's words, only text the app wrote and tool output, is the app's (`app`); in a subagent's
 * conversation the user turns are the main agent's prompts (`main-agent`); else its role speaks.
 */
export type Voice = 'tool' | 'app' | 'main-agent' | 'role' | 'summary';

export function voiceOf(message: { role: string | null; parts: readonly VoicedPart[] }, inSubagent: boolean): Voice {
  const { role, parts } = message;
  if (parts.length > 0 && parts.every((p) => p.kind === 'tool_result')) return 'tool';
  const harness = parts.map((p) => harnessKind(p, role, inSubagent));
  if (harness.some((kind) => kind !== undefined) && parts.every((p, i) => p.kind === 'tool_result' || harness[i] !== undefined)) return 'app';
  if (role === 'user' && inSubagent) return 'main-agent';
  return 'role';
}

/** The fields of a part the context rule (joinedContext) reads. */
export interface ContextPart {
  partId: string;
  kind: string;
  text: string | null;
  summary: string | null;
  truncatedFrom: number | null;
}

/** A part as a reader shows it, and the stored parts it holds (more than one for joined context). */
export interface ShownPart<T> {
  part: T;
  partIds: string[];
}

/** "Content from @src/mail.ts:": the line Gemini CLI opens each file an `@path` added to a prompt with. */
const REFERENCED_FILE = /^Content from (@.+?):\s*$/gm;
/** Files a joined context's line names; the rest are counted, so the line stays one line. */
const FILES_NAMED = 3;

/**
 * A text's body as a reader shows it in a block (an export's code fence, MCP's tool lines): without the
 * empty lines before and after it (an error's "Request was aborted\n\n"), '' when it holds nothing but
 * white space. A line of spaces inside or at an end stays: a diff's blank context line is one.
 */
export function withoutBlankEnds(text: string): string {
  if (text.trim() === '') return '';
  return text.replace(/^(?:\r?\n)+/, '').replace(/(?:\r?\n)+$/, '');
}

/**
 * What a reader shows for a message whose every part is an empty text: one part of this kind, which
 * no agent stores, in their place; part-words says it in a person's words.
 */
export const EMPTY_MESSAGE_KIND = 'empty';

/**
 * A text part with no words (empty, or only white space), as OpenClaw stores a turn that failed
 * before the model wrote anything: it stays stored, but no reader shows it as a paragraph. A part
 * capture cut short holds more than its start, so it is shown.
 */
export function isBlankText(part: Pick<ContextPart, 'kind' | 'text' | 'truncatedFrom'>): boolean {
  return part.kind === 'text' && part.truncatedFrom === null && (part.text ?? '').trim() === '';
}

/**
 * A message's parts as every reader shows them: a text with no words is left out (a message of
 * nothing else is one EMPTY_MESSAGE_KIND part), and a run of context parts is one. Gemini CLI stores the
 * files an `@path` added to a prompt as four texts (its opening line, "Content from @path:", the
 * contents, its closing line), and each read as an "Added context" block of its own. Joined, their
 * texts read in order and the line names the files. A part capture cut short stays apart: the
 * note under it is about its own text.
 */
export function joinedContext<T extends ContextPart>(parts: readonly T[]): Array<ShownPart<T>> {
  const worded = parts.filter((part) => !isBlankText(part));
  if (worded.length === 0 && parts.length > 0) return [{ part: { ...parts[0]!, kind: EMPTY_MESSAGE_KIND, text: '' }, partIds: parts.map((p) => p.partId) }];
  const shown: Array<ShownPart<T>> = [];
  let run: T[] = [];
  const flush = () => {
    if (run.length > 0) shown.push(run.length === 1 ? { part: run[0]!, partIds: [run[0]!.partId] } : joinRun(run));
    run = [];
  };
  for (const part of worded) {
    if (part.kind === 'context' && part.truncatedFrom === null) run.push(part);
    else {
      flush();
      shown.push({ part, partIds: [part.partId] });
    }
  }
  flush();
  return shown;
}

function joinRun<T extends ContextPart>(run: readonly T[]): ShownPart<T> {
  // Each text keeps the line breaks it was sent with; one is added only where two would touch.
  const text = run.reduce((joined, p) => {
    const next = p.text ?? '';
    return joined === '' || joined.endsWith('\n') || next.startsWith('\n') ? joined + next : `${joined}\n${next}`;
  }, '');
  const files = [...text.matchAll(REFERENCED_FILE)].map((m) => m[1]);
  const more = files.length > FILES_NAMED ? ` and ${files.length - FILES_NAMED} more` : '';
  const summary = files.length > 0 ? `Contents of ${files.slice(0, FILES_NAMED).join(', ')}${more}` : run[0]!.summary;
  return { part: { ...run[0]!, text: text.replace(/^\n+|\n+$/g, ''), summary }, partIds: run.map((p) => p.partId) };
}

/**
 * Who wrote a search hit, by voiceOf's rule for one part: a compaction summary is the neutral
 * speaker a message of one is (`summary`: part-words' isSummaryMessage, by capture's flag or its kind,
 * whichever role its agent stored it under); a tool's output is nobody's words (`tool`); in a subagent's conversation the user turns are the main agent's prompts (`main-agent`); other user
 * text capture did not mark as the person's is the app's (`app`); else its role speaks.
 */
export function hitVoice(hit: { role: string | null; kind: string; genuineUserTurn: boolean; isCompactSummary: boolean }, inSubagent: boolean): Voice {
  if (hit.isCompactSummary || hit.kind === 'compaction') return 'summary';
  if (hit.kind === 'tool_result') return 'tool';
  if (hit.role === 'user' && inSubagent) return 'main-agent';
  if (hit.role === 'user' && hit.kind === 'text' && !hit.genuineUserTurn) return 'app';
  return 'role';
}

/**
 * Hits by conversation, conversations in the order of their best hit (the first in the page): a
 * relevance page interleaves them, a reader takes each conversation once.
 */
export function groupBySession<T extends { sessionId: string }>(hits: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const hit of hits) {
    const group = groups.get(hit.sessionId);
    if (group) group.push(hit);
    else groups.set(hit.sessionId, [hit]);
  }
  return groups;
}

/**
 * What a hit that stands for repeats (SearchHit.alike) says beside its snippet, in the panel, the CLI
 * and to agents: the matches of its conversation with the same text, or the same tool call, not listed.
 */
export function moreLikeIt(alike: number, format: (n: number) => string = (n) => n.toLocaleString('en')): string {
  return `and ${format(alike)} more like it`;
}

/**
 * When a project was last active, as lists show and sort it: null for a project that holds no
 * conversation (all forgotten or past the retention window, or only subagents seen in its folder).
 * The projects room already gives such a project no last activity; an owner from before that gave it
 * the activity once recorded. Each surface says so in its own words and lists it last.
 */
export function lastActiveAt(project: { sessions: number; lastActivityAt: number | null }): number | null {
  return project.sessions === 0 ? null : project.lastActivityAt;
}

/**
 * A shell command as one line, as people recognise it in a fold or a list: its lines trimmed and
 * joined the way the shell reads them. A line ending in `\` goes on with the next; one ending in an
 * operator (`&&`, `||`, `|`, `;`) is followed by a space; any other by `; `, which separates commands
 * as a line break does. Its first line alone named `cd app` for `cd app` + `rm -rf node_modules && npm ci`.
 */
export function commandLine(command: string): string {
  let out = '';
  for (const raw of command.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (out === '') out = line;
    else if (out.endsWith('\\')) out = `${out.slice(0, -1).trimEnd()} ${line}`;
    else out += /(?:&&|\|\||[|;&({])$/.test(out) ? ` ${line}` : `; ${line}`;
  }
  return out.replace(/\s+/g, ' ');
}

// Where a reader of a conversation lists each of its subagents: the panel, `steward sessions show`,
// MCP's get_session and the exports all place them by this one rule.

/** What a subagent's place is read from (SessionSubagent's fields; `startedAfter` is absent from older answers). */
export interface SubagentStart {
  /** The message one of whose calls started it. */
  startedBy: string | null;
  /** Started by no call: the message it started after. */
  startedAfter?: string | null | undefined;
}

export interface SubagentPlaces<T> {
  /** By message id: the subagents one of its calls started, listed under that call's message. */
  within: ReadonlyMap<string, readonly T[]>;
  /** By message id: the subagents no call started that started after it, listed after that message. */
  after: ReadonlyMap<string, readonly T[]>;
  /** Neither a call nor a message before it is known: listed after the conversation's last message. */
  unplaced: readonly T[];
}

/**
 * Each subagent placed, in the order given (the order they started): under the message whose call
 * started it; one no call started, after the message it started after; else at the end. A message
 * on another page of the conversation lists its own.
 */
export function subagentPlaces<T extends SubagentStart>(subagents: Iterable<T>): SubagentPlaces<T> {
  const within = new Map<string, T[]>();
  const after = new Map<string, T[]>();
  const unplaced: T[] = [];
  for (const sub of subagents) {
    if (sub.startedBy) within.set(sub.startedBy, [...(within.get(sub.startedBy) ?? []), sub]);
    else if (sub.startedAfter) after.set(sub.startedAfter, [...(after.get(sub.startedAfter) ?? []), sub]);
    else unplaced.push(sub);
  }
  return { within, after, unplaced };
}

/**
 * The subagents a reader that writes a message's parts and then its subagents (the CLI, MCP, the
 * exports) lists with message `messageId`: those its calls started, then those that started after it.
 */
export function subagentsAt<T>(places: SubagentPlaces<T>, messageId: string): T[] {
  return [...(places.within.get(messageId) ?? []), ...(places.after.get(messageId) ?? [])];
}

/**
 * When a conversation ran, as its two ends read in a surface's own `format`, or the one when both read
 * the same (both fall in the minute a minute-long format writes: "09:15 UTC → 09:15 UTC" said nothing
 * more). One rule for the export's heading and the CLI's `sessions show`; each says it in its own words.
 */
export function timeSpan(startedAt: number | null, lastAt: number | null, format: (ts: number | null) => string): { at: string } | { from: string; to: string } {
  const [from, to] = [format(startedAt), format(lastAt)];
  return from === to ? { at: from } : { from, to };
}

/** How long a conversation's name may be when it is its first request: a heading's line, not a paragraph. */
const NAME_CHARS = 100;

/**
 * What a conversation is called: its title, else its first request's first sentence (or line), cut at
 * a word near NAME_CHARS. The request itself is the conversation's first message, shown whole there.
 * One rule for the panel's headings and lists and an export's file name (Sessions.Export's `filename`).
 */
export function conversationName(session: { title: string | null; firstRequest: string | null }): string {
  if (session.title !== null) return session.title;
  const request = session.firstRequest?.trim();
  if (!request) return 'Untitled conversation';
  const sentence = /^[^\n]*?[.?!](?=\s|$)/.exec(request)?.[0] ?? request.split('\n')[0]!;
  if (sentence.length <= NAME_CHARS) return sentence;
  const cut = sentence.slice(0, NAME_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > NAME_CHARS * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}
