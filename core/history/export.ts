import { randomUUID } from 'node:crypto';
import { cutShortWords, foldLine, harnessLine, joinedContext, messageSpeaker, partFold, resultImageLines, REWOUND_LINE, rewoundMarks, sessionCountWords, StewardError, subagentPlaces, subagentsAt, timeSpan, withoutBlankEnds, type ForgetKind, type SessionExport, type SessionExportPiece, type SessionMessage, type SessionPart, type SessionSummary } from '../api/index.js';
import { pacer, turn, type Pace } from '../gateway/index.js';
import type { Redactor } from '../secrets/index.js';
import { exportFileName } from './export-name.js';
import { groupMessages, withCountMark } from './messages.js';
import { redactParts } from './redaction.js';
import type { SessionsView } from './sessions.js';

/** Whose a message is, and whether the reader is in a subagent's conversation: how its text reads. */
interface Speaking {
  app: string;
  inSubagent: boolean;
}

/** How long an export may hold the event loop before it gives a turn. */
const HOLD_MS = 10;
/** Characters of an export's piece: one JSON-RPC answer of this size is serialized in a few ms. */
export const PIECE_CHARS = 1024 * 1024;
/** An open export no one asked the next piece of for this long is closed. */
const IDLE_MS = 60_000;
/** Exports open at once; a further one closes the oldest (a client that walked away). */
const OPEN_LIMIT = 8;
/** Tokens of exports a forget closed, remembered so their next piece says why (the oldest go first). */
const FORGOTTEN_TOKENS = 64;


/**
 * The first line of a raw Markdown export, so whoever opens the file (not only the one who asked for
 * it) sees that it was not redacted. A redacted export has none: it is the default. JSON says the
 * same in its `redacted` field.
 */
export const NOT_REDACTED_NOTE =
  '> **Not redacted.** This export keeps secrets (API keys, tokens, passwords) exactly as the transcript holds them: keep it private, and do not share or commit it.';

/**
 * A fence longer than any backtick run in the text, so no content can close it early. Empty lines
 * before and after the text are not shown, and an empty text adds no line (withoutBlankEnds): the
 * stored text stays as written.
 */
function fence(text: string, lang = ''): string {
  const shown = withoutBlankEnds(text);
  const longest = Math.max(2, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${shown === '' ? '' : `${shown}\n`}${ticks}`;
}


/** Inline code that any backticks in the text (a session id is the transcript's to choose) cannot close early. */
function code(text: string): string {
  const ticks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** "2026-11-12 16:15 UTC": read by a person, the same wherever the file is opened. */
function when(ts: number | null): string {
  return ts === null ? '' : `${new Date(ts).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** " (error, exit code 1)": whether a result failed and the code its command exited with, when known. */
function resultNote(part: SessionPart): string {
  const facts = [part.isError ? 'error' : null, part.exitCode !== undefined ? `exit code ${part.exitCode}` : null].filter((f) => f !== null);
  return facts.length > 0 ? ` (${facts.join(', ')})` : '';
}

function partMarkdown(part: SessionPart, harness: string | undefined): string {
  const text = part.text ?? '';
  // The text here may be redacted (its length is not the stored prefix's): the whole's length is what is known.
  const cut = part.truncatedFrom !== null ? `\n\n_(${cutShortWords(part.truncatedFrom, part.truncatedKept)})_` : '';
  // Text the app wrote in the person's name says what it is, folded; the person's own words read as written.
  if (harness !== undefined) return `<details><summary>${escapeHtml(harness)}</summary>\n\n${fence(text)}${cut}\n\n</details>`;
  switch (part.kind) {
    case 'text':
      return `${text}${cut}`;
    case 'thinking':
      return thinkingMarkdown(part);
    case 'tool_use':
      return `**Tool call** ${markdownText(part.summary ?? part.toolName ?? '')}\n\n${fence(text, inputLanguage(text))}${cut}`;
    case 'tool_result': {
      const output = part.output ?? text;
      // Its images (a screenshot) under it, each said as the panel says it; a result of only images
      // names them rather than fencing nothing.
      const images = resultImageLines(part.images ?? 0, part.resultImages).map((line) => `_[${markdownText(line)}]_`);
      const body = images.length > 0 && output.trim() === '' ? '' : `${fence(output)}${cut}`;
      return `**Tool result**${resultNote(part)}\n\n${[body, ...images].filter((b) => b !== '').join('\n\n')}`;
    }
    case 'image':
      return `_[${markdownText(foldLine(partFold(part)))}]_`;
    default: {
      // Folded as the panel folds it ("Summary · Earlier conversation summarized"), never by the kind's name.
      const line = escapeHtml(foldLine(partFold(part)));
      return text.trim() === '' ? `_[${markdownText(foldLine(partFold(part)))}]_` : `<details><summary>${line}</summary>\n\n${fence(text)}${cut}\n\n</details>`;
    }
  }
}

/**
 * What a tool call's input is written in, by its shape: the agents store a call's arguments as JSON,
 * but a custom tool's input is the text it was given (Codex's apply_patch: a patch). A patch is
 * fenced as a diff, JSON as JSON, anything else plain.
 */
function inputLanguage(text: string): string {
  const start = text.trimStart();
  if (/^(?:\*\*\* Begin Patch|diff --git |--- \S)/.test(start)) return 'diff';
  return start.startsWith('{') || start.startsWith('[') ? 'json' : '';
}

/**
 * A thought folded under its line ("Thinking · …", as the panel, the CLI and MCP say it). The line is
 * its first line, so the body goes on after it rather than saying it twice; a line cut short (its
 * end is only in the body) keeps the body whole. A thought that was one line is only its line.
 */
function thinkingMarkdown(part: SessionPart): string {
  const fold = partFold(part);
  const text = part.text ?? '';
  const first = /^\s*([^\n]*)\n?/.exec(text);
  const said = first !== null && first[1]!.trim() !== '' && partFold({ kind: 'thinking', summary: null, text: first[1]! }).summary === fold.summary && !fold.summary.endsWith('…');
  const body = said ? text.slice(first[0].length).replace(/^\s*\n/, '') : text;
  const line = escapeHtml(foldLine(fold));
  return body.trim() === '' ? `_[${markdownText(foldLine(fold))}]_` : `<details><summary>${line}</summary>\n\n${fence(body)}\n\n</details>`;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A label the transcript chose (a title, a project's or a model's name, a tool call's line) as text
 * where the export writes Markdown: a title with `<script>` or `**` read as a tag and bold words when
 * the file was opened. HTML's specials become entities, Markdown's inline ones are escaped, and a `#`
 * that would start a heading or close one (a trailing ` #`, which a heading drops) is escaped too.
 * Not for the text inside `<summary>` (HTML, where a backslash shows): that is escapeHtml's.
 */
function markdownText(text: string): string {
  return escapeHtml(text)
    // An underscore between letters or digits never starts or ends emphasis: snake_case reads as written.
    .replace(/[\\`*[\]~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&')
    .replace(/^#/, '\\#')
    .replace(/(\s)(#+)$/, '$1\\$2');
}

/**
 * A message as Markdown. `rewound` (rewoundMarks): a turn the person rewound past (Gemini CLI) is said
 * so once where a run of them starts, and each one's heading is marked, as `steward sessions show` says it.
 */
function messageMarkdown(m: SessionMessage, h: string, speaking: Speaking, rewound: 'first' | 'more' | null): string {
  // A run of context parts (the files Gemini CLI added to a prompt) is one block, as the panel shows it.
  const shown = joinedContext(m.parts).map((s) => s.part);
  const harness = shown.map((p) => harnessLine(p, m.role, speaking.inSubagent, speaking.app));
  const parts = shown.map((p, i) => partMarkdown(p, harness[i]));
  const said = rewound === 'first' ? `_[${REWOUND_LINE}]_\n\n` : '';
  return `${said}${h}# ${markdownText(messageSpeaker(m, speaking.inSubagent, speaking.app))}${m.ts !== null ? ` · ${when(m.ts)}` : ''}${rewound ? ' · rewound' : ''}\n\n${parts.join('\n\n')}`;
}

/** When it ran, as the heading's facts say it: its minute once when both ends fall in it (timeSpan). */
function spanLine(span: ReturnType<typeof timeSpan>): string {
  return 'at' in span ? `- At ${span.at}` : `- From ${span.from} to ${span.to}`;
}

/** A conversation's heading and facts, as its Markdown opens. */
function headingMarkdown(s: SessionSummary, h: string): string[] {
  // Written as text (markdownText), each on one line: the heading is one line.
  const label = (text: string) => markdownText(text.replace(/\s+/g, ' ').trim());
  const named = label(s.title ?? s.firstRequest ?? `Session ${s.sessionId}`);
  // A subagent's first request is the main agent's prompt: its heading says whose section it is.
  const title = s.parentKind === 'subagent' ? `Subagent${s.agentType ? ` (${label(s.agentType)})` : ''}: ${named}` : named;
  const facts = [
    `- Session: ${code(s.sessionId)}`,
    s.projectName ? `- Project: ${label(s.projectName)} (${code(s.projectKey ?? '')})` : null,
    `- ${label(s.app)}${s.agentType ? `, agent ${label(s.agentType)}` : ''}${s.model ? `, ${label(s.model)}` : ''}`,
    s.startedAt !== null ? spanLine(timeSpan(s.startedAt, s.lastAt, when)) : null,
    `- ${sessionCountWords(s)}`,
  ].filter((line): line is string => line !== null);
  return [`${h} ${title}`, facts.join('\n')];
}

const pad = (level: number) => '  '.repeat(level);
/** `JSON.stringify(value, null, 2)` as it reads nested `level` deep (a JSON string holds no raw newline). */
const jsonAt = (value: unknown, level: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${pad(level)}`);

/** Items as `JSON.stringify` writes a list at `level`, each item written as it comes. */
async function* jsonList(items: AsyncIterable<string | AsyncIterable<string>>, level: number): AsyncGenerator<string> {
  let first = true;
  for await (const item of items) {
    yield first ? '[\n' : ',\n';
    first = false;
    if (typeof item === 'string') yield item;
    else yield* item;
  }
  yield first ? '[]' : `\n${pad(level)}]`;
}

/**
 * A document's text in pieces of at least `size` characters, the last one marked: one piece is held
 * back until the next is full, so the owner can say with each piece whether another follows.
 */
async function* cutIntoPieces(text: AsyncIterable<string>, size: number): AsyncGenerator<{ content: string; last: boolean }> {
  let held: string | undefined;
  let buffer: string[] = [];
  let chars = 0;
  for await (const chunk of text) {
    buffer.push(chunk);
    chars += chunk.length;
    if (chars < size) continue;
    if (held !== undefined) yield { content: held, last: false };
    held = buffer.join('');
    buffer = [];
    chars = 0;
  }
  const tail = buffer.join('');
  if (held !== undefined && tail !== '') yield { content: held, last: false };
  yield { content: held !== undefined && tail === '' ? held : tail, last: true };
}

/** A subagent of the conversation being written, and where it is listed (see subagentPlaces). */
interface PlacedSubagent {
  sessionId: string;
  startedBy: string | null;
  startedAfter: string | null;
}

interface OpenExport {
  pieces: AsyncGenerator<{ content: string; last: boolean }>;
  timer: NodeJS.Timeout | undefined;
  /** The conversation exported, then the ones above it (a subagent's parent), and its project: what forgetting closes it. */
  lineage: readonly string[];
  projectKey: string | null;
  /** Forgotten while a piece of it was being written: that piece is not given. */
  forgotten?: boolean;
}

const forgottenError = () => new StewardError('not_found', 'This conversation was forgotten, so its export was closed and gives nothing more of it.');

/**
 * Exports a conversation with its subagents, every text redacted with the secrets module unless `raw`.
 * A conversation is read a chunk of parts at a time, and each message is redacted and written as
 * soon as it is whole; the event loop gets a turn every HOLD_MS. The document leaves in pieces of
 * PIECE_CHARS: as one JSON-RPC answer, 86 MB of Markdown took 0.5–0.6 s to serialize and turn into
 * bytes, holding the owner; a piece takes at most a few ms, and the owner holds only the piece being written.
 * Each request's work starts from a turn of its own: asked for from an I/O or timer callback, a turn
 * (setImmediate) runs before the loop polls or runs a timer again, so the work's first turn joined
 * its first two stretches (a first export held the loop 35–45 ms); started from a turn, every turn
 * it gives is a whole one.
 */
export class SessionExporter {
  readonly #sessions: SessionsView;
  readonly #redactor: () => Redactor;
  /** Exports with pieces still to come, by their `next` token. */
  readonly #open = new Map<string, OpenExport>();
  /** Exports whose next piece is being written (out of `#open` meanwhile). */
  readonly #writing = new Set<OpenExport>();
  /** Tokens a forget closed (see forgotten). */
  readonly #forgottenTokens = new Set<string>();

  constructor(sessions: SessionsView, redactor: () => Redactor) {
    this.#sessions = sessions;
    this.#redactor = redactor;
  }

  async export(sessionId: string, format: 'markdown' | 'json', raw: boolean): Promise<SessionExport> {
    await turn();
    const redactor = raw ? null : this.#redactor();
    const pace = pacer(HOLD_MS);
    const json = format === 'json';
    // Read before anything is kept open, so an unknown conversation is refused at once.
    const session = await this.#summary(sessionId, redactor);
    const text = json
      ? this.#json(session, 0, { format: 'steward.session.v1', redacted: !raw }, redactor, pace)
      : raw
        ? prefixed(`${NOT_REDACTED_NOTE}\n\n`, this.#markdown(session, 1, redactor, pace))
        : this.#markdown(session, 1, redactor, pace);
    const first = await this.#keep({ pieces: cutIntoPieces(ended(text), PIECE_CHARS), timer: undefined, lineage: this.#lineage(sessionId), projectKey: session.projectKey });
    // Named from the summary the document is written from: redacted with it, or as written when raw.
    const filename = exportFileName(session, format);
    return { filename, mediaType: json ? ('application/json' as const) : ('text/markdown' as const), ...first, redacted: !raw };
  }

  /** The next piece of an export `export` left open. */
  async next(token: string): Promise<SessionExportPiece> {
    await turn();
    if (this.#forgottenTokens.delete(token)) throw forgottenError();
    const open = this.#open.get(token);
    if (!open) throw new StewardError('not_found', 'This export is no longer open (one is closed after a minute without a request for its next piece). Export the conversation again.');
    this.#open.delete(token);
    clearTimeout(open.timer);
    return this.#keep(open);
  }

  /**
   * Closes the exports of what is being forgotten, its subagents' and those it is a subagent of (their
   * text is in its export), so none gives another piece of it; called before its rows go, while its
   * parent is still known. A piece being written is not given.
   */
  forgotten(kind: ForgetKind, id: string): void {
    const above = kind === 'session' ? this.#lineage(id) : [];
    const closes = (open: OpenExport) => (kind === 'project' ? open.projectKey === id : open.lineage.includes(id) || above.includes(open.lineage[0]!));
    for (const open of this.#writing) if (closes(open)) open.forgotten = true;
    for (const [token, open] of this.#open) {
      if (!closes(open)) continue;
      this.#close(token);
      this.#forgottenTokens.add(token);
      if (this.#forgottenTokens.size > FORGOTTEN_TOKENS) this.#forgottenTokens.delete(this.#forgottenTokens.values().next().value as string);
    }
  }

  /** A conversation's id, then its parent's, and so on up (a subagent's subagent has two). */
  #lineage(sessionId: string): string[] {
    const lineage = [sessionId];
    for (let id = this.#sessions.findRecord(sessionId)?.parentSessionId; id && !lineage.includes(id); id = this.#sessions.findRecord(id)?.parentSessionId) lineage.push(id);
    return lineage;
  }

  /** Closes every open export (the owner stops). */
  close(): void {
    for (const token of [...this.#open.keys()]) this.#close(token);
  }

  /** Writes the next piece; an export with more to come stays open under a new token. */
  async #keep(open: OpenExport): Promise<SessionExportPiece> {
    // A generator that throws is done: nothing is left open to close.
    this.#writing.add(open);
    const piece = await open.pieces.next().finally(() => this.#writing.delete(open));
    if (open.forgotten) {
      void open.pieces.return(undefined);
      throw forgottenError();
    }
    if (piece.done || piece.value.last) return { content: piece.done ? '' : piece.value.content, next: null };
    // Map order is insertion order: the first key is the oldest export.
    while (this.#open.size >= OPEN_LIMIT) this.#close(this.#open.keys().next().value as string);
    const token = `export-${randomUUID()}`;
    open.timer = setTimeout(() => this.#close(token), IDLE_MS).unref();
    this.#open.set(token, open);
    return { content: piece.value.content, next: token };
  }

  /** Forgets an open export and ends its generator, so nothing it holds stays alive. */
  #close(token: string): void {
    const open = this.#open.get(token);
    if (!open) return;
    this.#open.delete(token);
    clearTimeout(open.timer);
    void open.pieces.return(undefined);
  }

  async *#markdown(session: SessionSummary, depth: number, redactor: Redactor | null, pace: Pace): AsyncGenerator<string> {
    const h = '#'.repeat(depth);
    yield headingMarkdown(session, h).join('\n\n');
    const speaking = { app: session.app, inSubagent: session.parentKind === 'subagent' };
    // Each subagent after the message it is listed with, as the panel lists it; the rest after the last one.
    const placed = await this.#placed(session.sessionId, pace);
    const places = subagentPlaces(placed);
    const written = new Set<string>();
    const below = Math.min(depth + 1, 4);
    let previous: SessionMessage | undefined;
    for await (const m of this.#messages(session.sessionId, session.provider, redactor, pace)) {
      // The rule reads a message beside the one before it: a run of rewound turns is said once.
      const rewound = rewoundMarks(previous ? [previous, m] : [m]).at(-1) ?? null;
      previous = m;
      yield `\n\n${messageMarkdown(m, h, speaking, rewound)}`;
      yield* this.#subagentsMarkdown(subagentsAt(places, m.messageId), written, below, redactor, pace);
    }
    // Those with neither, and any whose message was forgotten since: in the order they started.
    yield* this.#subagentsMarkdown(placed, written, below, redactor, pace);
  }

  /** Subagents not `written` yet, each whole; `written` then holds them. */
  async *#subagentsMarkdown(subs: readonly PlacedSubagent[], written: Set<string>, depth: number, redactor: Redactor | null, pace: Pace): AsyncGenerator<string> {
    for (const sub of subs) {
      if (written.has(sub.sessionId)) continue;
      written.add(sub.sessionId);
      const subagent = await this.#stored(sub.sessionId, redactor);
      if (subagent === undefined) continue;
      yield '\n\n';
      yield* this.#markdown(subagent, depth, redactor, pace);
    }
  }

  /**
   * A conversation's subagents in the order they started, each with where it is listed. Only that is
   * read of them here: each one's summary is read as it is written (summaries with `startedBy` for all
   * of them held the loop 0.8–2.3 s at 1,500 subagents); the looks for their starting calls took
   * 0.23–0.59 s in all at 1,500, so the loop gets a turn every HOLD_MS.
   */
  async #placed(sessionId: string, pace: Pace): Promise<PlacedSubagent[]> {
    const placed: PlacedSubagent[] = [];
    for (const id of this.#sessions.subagentIds(sessionId)) {
      const record = this.#sessions.findRecord(id);
      if (record === undefined) continue;
      const place = this.#sessions.place(sessionId, record);
      placed.push({ sessionId: id, startedBy: place.startedBy, startedAfter: place.startedAfter ?? null });
      await pace();
    }
    return placed;
  }

  /** The conversation as `JSON.stringify({ ...head, session, messages, subagents }, null, 2)` writes it. */
  async *#json(session: SessionSummary, level: number, head: Record<string, unknown>, redactor: Redactor | null, pace: Pace): AsyncGenerator<string> {
    const key = (name: string) => `${pad(level + 1)}${JSON.stringify(name)}: `;
    const fields = [...Object.entries(head), ['session', session] as const].map(([name, value]) => `${key(name)}${jsonAt(value, level + 1)}`);
    yield `{\n${fields.join(',\n')},\n${key('messages')}`;
    const item = pad(level + 2);
    yield* jsonList(mapAsync(this.#messages(session.sessionId, session.provider, redactor, pace), (m) => `${item}${jsonAt(m, level + 2)}`), level + 1);
    yield `,\n${key('subagents')}`;
    yield* jsonList(this.#subagentsJson(session.sessionId, level + 2, redactor, pace), level + 1);
    yield `\n${pad(level)}}`;
  }

  /** Each subagent with where it is listed, as Sessions.Get says it (`startedBy`, `startedAfter`), in the order they started. */
  async *#subagentsJson(sessionId: string, level: number, redactor: Redactor | null, pace: Pace): AsyncGenerator<AsyncIterable<string>> {
    for (const { sessionId: id, startedBy, startedAfter } of await this.#placed(sessionId, pace)) {
      const session = await this.#stored(id, redactor);
      if (session !== undefined) yield prefixed(pad(level), this.#json(session, level, { startedBy, startedAfter }, redactor, pace));
    }
  }

  /** A subagent listed when its parent's export began; one forgotten or pruned since is left out, not the export's end. */
  async #stored(sessionId: string, redactor: Redactor | null): Promise<SessionSummary | undefined> {
    const record = this.#sessions.findRecord(sessionId);
    if (record === undefined) return undefined;
    return redactor ? this.#sessions.redactedSummary(record, redactor) : this.#sessions.summary(record);
  }

  async #summary(sessionId: string, redactor: Redactor | null): Promise<SessionSummary> {
    const record = this.#sessions.record(sessionId);
    return redactor ? this.#sessions.redactedSummary(record, redactor) : this.#sessions.summary(record);
  }

  /**
   * The conversation's messages in order, each part's text redacted before its summary is cut from
   * it; a message split across two chunks of parts is joined first (the last message of a chunk
   * waits for the next one).
   */
  async *#messages(sessionId: string, provider: string, redactor: Redactor | null, pace: Pace): AsyncGenerator<SessionMessage> {
    let open: SessionMessage | undefined;
    const ready = async function* (whole: SessionMessage[]) {
      for (const m of whole) {
        yield m;
        await pace();
      }
    };
    for (const raw of this.#sessions.allParts(sessionId)) {
      const chunk = redactor ? await redactParts(raw, redactor) : raw;
      const whole: SessionMessage[] = [];
      for (const m of groupMessages(chunk, provider)) {
        // Its parts are whole only now: whether it counts is asked of them all (withCountMark).
        if (open?.messageId === m.messageId) open = withCountMark({ ...open, parts: [...open.parts, ...m.parts] });
        else {
          if (open) whole.push(open);
          open = m;
        }
      }
      yield* ready(whole);
      await turn();
    }
    if (open) yield* ready([open]);
  }
}

/** A document's text and the newline that ends the file. */
async function* ended(text: AsyncIterable<string>): AsyncGenerator<string> {
  yield* text;
  yield '\n';
}

async function* prefixed(prefix: string, text: AsyncIterable<string>): AsyncGenerator<string> {
  yield prefix;
  yield* text;
}

async function* mapAsync<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}
