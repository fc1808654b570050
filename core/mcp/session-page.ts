import { z } from 'zod';
import { asksToolOutput, COMPACTION_FOLD, countOf, EMPTY_MESSAGE_KIND, isBlankText, withoutBlankEnds, StewardError, cutShortWords, foldLine, harnessLine, isCompactionSummary, kindLabel, messageSpeaker, pageCountWords, partFold, partRoleOf, resultImagesLine, REWOUND_LINE, rewoundMarks, subagentPlaces, subagentsAt, wholeAt, type CutKept, type Result, type SessionPart, type SessionSubagent } from '../api/index.js';

/**
 * The bound of a get_session answer: its text, and its structuredContent as JSON, are each at most
 * this many characters, whatever the conversation holds (600 tool calls in one message, a 300 KB reply).
 */
export const PAGE_CHARS = 60_000;
/** A part's text is cut at this length at most, at least MIN_PART_CHARS while whole messages can wait for the next page. */
const PART_CHARS = 2_000;
/**
 * How much of one part a call with `from_char` shows: Steward stores at most TEXT_CAP (32 KiB) of a
 * part, so two such calls read any stored part whole, and one answer stays well within PAGE_CHARS.
 */
export const READ_CHARS = 20_000;
const MIN_PART_CHARS = 200;
/** One-line fields (a title, a summary, a harness line) are cut here, so the page's fixed part is bounded too. */
const LINE_CHARS = 500;
const SUBAGENTS_SHOWN = 20;
/**
 * get_session's cursor that lists a conversation's subagents from the one at this index (0 the first),
 * SUBAGENTS_SHOWN of them with no messages: a page lists them only where it opens the conversation, and
 * at most SUBAGENTS_SHOWN there. The owner's cursors are base64url, so this one is never taken for one.
 */
export const SUBAGENTS_CURSOR = /^subagents:(\d{1,6})$/;
const subagentsCursor = (from: number) => `subagents:${from}`;
/** A subagent's title and first request are cut shorter: twenty of them share the page with its messages. */
const SUBAGENT_LINE_CHARS = 200;

/** A part's fields that would be null are left out, and a summary that is its text: an agent pays for every token. */
const Part = z.strictObject({
  kind: z.string(),
  /** Absent where the part holds no text (an image). */
  text: z.string().optional(),
  /** Its one line, where it is not the text itself. */
  summary: z.string().optional(),
  toolName: z.string().optional(),
  /** `tool`: a tool's output in a message whose role is another's (Claude Code's user message with the person's words beside it); absent otherwise, the part's role being its message's. */
  role: z.literal('tool').optional(),
  isError: z.boolean(),
  /** A command's exit code, where its result says one. */
  exitCode: z.number().int().optional(),
  partId: z.string(),
  /** The part asked for by part_id. */
  hit: z.literal(true).optional(),
  /** The person's own words (search_transcripts' genuine_user_turn); false for everything else. */
  genuineUserTurn: z.boolean(),
  /**
   * Text the agent's app wrote, not the message's author, said for what it is: user text in the
   * person's name ("Command /clear"), or a compaction summary ("Summary · Earlier conversation
   * summarized", whichever agent and role stored it); absent otherwise.
   */
  harness: z.string().optional(),
  /** The length of the text Steward captured, where it stored only its start, or its start and end (as the export says it). */
  truncatedFrom: z.number().int().optional(),
  /** A tool result stored cut at both ends: the characters kept of its start and of its end (the middle left out between them). */
  truncatedKept: z.strictObject({ first: z.number().int(), last: z.number().int() }).optional(),
  /**
   * The images a tool result returned beside its text, in one line ("2 images: PNG, 34 KB; JPEG,
   * 1.2 MB"; a few said, the rest counted); absent where it returned none, or only images (its summary says them).
   */
  images: z.string().optional(),
});

/** A subagent where it started: read it with get_session and its sessionId. */
const StartedHere = z.strictObject({ sessionId: z.string(), agentType: z.string().nullable() });

/** Parts of a message left out to keep the answer bounded: how many, and the first one's id (pass it as part_id to read from there). */
const PartsNotShown = z.strictObject({ parts: z.number().int(), partId: z.string() });

export const GetSessionOutput = z.strictObject({
  session: z.strictObject({
    sessionId: z.string(),
    title: z.string().nullable(),
    firstRequest: z.string().nullable(),
    projectKey: z.string().nullable(),
    projectName: z.string().nullable(),
    provider: z.string(),
    /** The app that wrote it, as people call it ("Claude Desktop", "Codex CLI"). */
    app: z.string(),
    agentType: z.string().nullable(),
    /** The conversation this one is a subagent of, or branched from; null for a conversation of its own. */
    parentSessionId: z.string().nullable(),
    parentKind: z.enum(['subagent', 'branch']).nullable(),
    startedAt: z.string().nullable(),
    lastAt: z.string().nullable(),
    messages: z.number().int(),
  }),
  messages: z.array(
    z.strictObject({
      /**
       * The role search_transcripts gives the same parts (partRoleOf), the same for every app: `tool` for
       * a tool's output whatever role its agent stored it under; user, assistant or system otherwise.
       */
      role: z.string().nullable(),
      /** Who it is from, as `steward sessions show` says it, but the person is "User" to an agent ("User", "Claude Code", "Tool output", "Conversation summary"). */
      speaker: z.string(),
      at: z.string().nullable(),
      /**
       * False on an entry the conversation's `messages` count leaves out (a tool's result, read under its
       * call); absent on every entry it counts. `limit` counts both.
       */
      countsAsMessage: z.literal(false).optional(),
      /** The message holding the part asked for by part_id. */
      hit: z.literal(true).optional(),
      parts: z.array(Part),
      /** Parts before those shown that are not in this answer. */
      partsBefore: PartsNotShown.optional(),
      /** Parts after those shown that are not in this answer. */
      partsAfter: PartsNotShown.optional(),
      /**
       * The subagents started here, as the panel places them: by one of this message's calls, or by none
       * right after it; on the conversation's last message, also those whose start is unknown.
       */
      subagents: z.array(StartedHere).optional(),
      /** Subagents started here beyond the first SUBAGENTS_SHOWN, not listed. */
      moreSubagents: z.number().int().optional(),
      /** Where moreSubagents: the cursor that lists the conversation's subagents from the first of them on. */
      subagentsCursor: z.string().optional(),
      /** The person rewound the conversation to before this turn (Gemini CLI): the agent went on without it. Absent otherwise. */
      rewound: z.literal(true).optional(),
    }),
  ),
  /**
   * The subagents this conversation started (Task calls), in the order they started: read one with
   * get_session and its sessionId. Listed on the page that opens the conversation (no cursor), at most
   * SUBAGENTS_SHOWN; a page its cursor reaches lists none (moreSubagents counts them).
   */
  subagents: z.array(
    z.strictObject({
      sessionId: z.string(),
      agentType: z.string().nullable(),
      title: z.string().nullable(),
      /** What the main agent asked it, bounded: a title stand-in, as most subagents have none. */
      firstRequest: z.string().nullable(),
      messages: z.number().int(),
    }),
  ),
  /** Subagents after those listed (all of them on a page a cursor reached), not listed: subagentsCursor lists them. */
  moreSubagents: z.number().int().optional(),
  /** Where moreSubagents: get_session's cursor that lists them ("subagents:20"). */
  subagentsCursor: z.string().optional(),
  cursor: z.string().optional(),
  before: z.string().optional(),
  /** The page opened at the conversation's end (at "end"): its last messages. Absent otherwise. */
  atEnd: z.literal(true).optional(),
});

export type SessionPage = z.infer<typeof GetSessionOutput>;
type PagePart = z.infer<typeof Part>;
type Started = z.infer<typeof StartedHere>;
type Redact = (text: string) => string;

/** A page redacted once, each part's text whole: what every try at fitting it cuts from. */
interface Prepared {
  head: Omit<SessionPage, 'messages'>;
  messages: Array<{ role: string | null; speaker: string; at: string | null; countsAsMessage?: false; hit?: true; parts: PagePart[]; subagents?: Started[]; moreSubagents?: number; subagentsCursor?: string; rewound?: true }>;
}

/** How much of part `index` (in page order) keeps its text. */
type Cut = (index: number, part: PagePart) => number;

const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());

/**
 * `text` cut at `max`, saying how much is left out. No call shows more of a field or a part than its
 * cut, so the words promise no read of the rest: `rule` says a part's bound.
 */
function bounded(text: string | null, max: number, rule = ''): string | null {
  if (text === null || text.length <= max) return text;
  const end = wholeAt(text, max);
  return `${text.slice(0, end)}… [${countOf(text.length - end, 'more character')} not shown${rule}]`;
}

/** Where a cut part's text goes on: the call that reads it from there (see readPartFrom). */
const readOn = (partId: string, from: number | '' = '') => `: read on with part_id "${partId}" and from_char ${from}`;

/** Whether the page shows only some of a part's text: its words then name the call that reads on (partCut, partWindow). */
const isCut = (p: PagePart) => p.text !== undefined && p.text.endsWith(']') && p.text.includes(readOn(p.partId));

/**
 * A part's text cut for the page: at most PART_CHARS of it; less when the page shares its room among
 * many parts. Whatever the cut, the words name the call that reads on from where it stopped.
 */
function partCut(p: PagePart & { text: string }, max: number): string {
  const { text } = p;
  if (text.length <= max) return text;
  return bounded(text, max, readOn(p.partId, wholeAt(text, max)))!;
}

/** The part with its text cut by partCut (a part with no text has none to cut). */
const withCut = (p: PagePart, max: number): PagePart => (p.text === undefined ? p : { ...p, text: partCut({ ...p, text: p.text }, max) });

/** A text Steward stored cut short, said as the export says it: from what it captured, not from what the page shows. */
const capturedNote = (p: PagePart) => (p.truncatedFrom === undefined ? '' : `\n(${cutShortWords(p.truncatedFrom, p.truncatedKept)})`);

/**
 * The conversation's subagents a page lists: SUBAGENTS_SHOWN from `from`, the rest counted with the
 * cursor that lists them; none where `from` is null (a page a cursor reached: the opening page listed them).
 */
function subagentList(result: Result<'Sessions.Get'>, from: number | null, redact: Redact): Pick<SessionPage, 'subagents' | 'moreSubagents' | 'subagentsCursor'> {
  const all = result.subagents;
  const start = from ?? all.length;
  const listed = all.slice(start, start + SUBAGENTS_SHOWN).map(({ session: sub }) => ({
    sessionId: sub.sessionId,
    agentType: bounded(sub.agentType, SUBAGENT_LINE_CHARS),
    title: sub.title === null ? null : bounded(redact(sub.title), SUBAGENT_LINE_CHARS),
    firstRequest: sub.firstRequest === null ? null : bounded(redact(sub.firstRequest), SUBAGENT_LINE_CHARS),
    messages: sub.messages,
  }));
  const more = from === null ? all.length : Math.max(0, all.length - start - listed.length);
  if (more === 0) return { subagents: listed };
  return { subagents: listed, moreSubagents: more, subagentsCursor: subagentsCursor(from === null ? 0 : start + listed.length) };
}

/**
 * A message's role as search_transcripts gives its parts' (partRoleOf, the one rule): `tool` for one of
 * a tool's output alone, or one its agent stored as tool output (OpenClaw's toolResult); else as stored.
 */
function messageRole(m: Result<'Sessions.Get'>['messages'][number]): string | null {
  const toolOutput = (m.role !== null && asksToolOutput(m.role)) || (m.parts.length > 0 && m.parts.every((p) => partRoleOf(p.kind, m.role) === 'tool'));
  return toolOutput ? 'tool' : m.role;
}

/**
 * A part for the page, its fields that would be null left out, and its summary where it is its text:
 * the same words twice, or `null` six times a part, were most of a page's tokens.
 */
function pagePart(fields: { partId: string; kind: string; text: string | null; summary: string | null; toolName: string | null; role: 'tool' | undefined; isError: boolean; exitCode: number | null; genuineUserTurn: boolean; harness: string | null; truncatedFrom: number | null; truncatedKept?: CutKept; images: string | null; hit: boolean }): PagePart {
  const { text, summary, toolName, role, exitCode, harness, truncatedFrom, truncatedKept, images, hit } = fields;
  return {
    partId: fields.partId,
    kind: fields.kind,
    ...(text !== null ? { text } : {}),
    ...(summary !== null && summary !== text ? { summary } : {}),
    ...(toolName !== null ? { toolName } : {}),
    ...(role !== undefined ? { role } : {}),
    isError: fields.isError,
    ...(exitCode !== null ? { exitCode } : {}),
    genuineUserTurn: fields.genuineUserTurn,
    ...(harness !== null ? { harness } : {}),
    ...(truncatedFrom !== null ? { truncatedFrom } : {}),
    ...(truncatedFrom !== null && truncatedKept !== undefined ? { truncatedKept } : {}),
    ...(images !== null ? { images } : {}),
    ...(hit ? { hit: true as const } : {}),
  };
}

/**
 * `listFrom`: the index the page lists the conversation's subagents from; null for none (see subagentList).
 * `hit`: the part the page was opened around (part_id), marked with its message.
 */
function prepare(result: Result<'Sessions.Get'>, redact: Redact, atEnd = false, listFrom: number | null = 0, hit?: string): Prepared {
  const s = result.session;
  const line = (text: string | null) => (text === null ? null : bounded(redact(text), LINE_CHARS));
  // A subagent's user turns are the main agent's prompts, not text the app wrote (see harnessLine).
  const inSubagent = s.parentKind === 'subagent';
  const head: Prepared['head'] = {
    session: {
      sessionId: s.sessionId,
      title: line(s.title),
      firstRequest: line(s.firstRequest),
      projectKey: s.projectKey,
      projectName: bounded(s.projectName, LINE_CHARS),
      provider: s.provider,
      app: s.app,
      agentType: bounded(s.agentType, LINE_CHARS),
      parentSessionId: s.parentSessionId,
      parentKind: s.parentKind,
      startedAt: iso(s.startedAt),
      lastAt: iso(s.lastAt),
      messages: s.messages,
    },
    ...subagentList(result, listFrom, redact),
    ...(result.cursor ? { cursor: result.cursor } : {}),
    ...(result.before ? { before: result.before } : {}),
    ...(atEnd ? { atEnd: true as const } : {}),
  };
  const started = startedAt(result);
  const rewound = rewoundMarks(result.messages);
  const messages = result.messages.map((m, i) => {
    const role = messageRole(m);
    const holdsHit = hit !== undefined && m.parts.some((p) => p.partId === hit);
    return {
      role,
      speaker: messageSpeaker(m, inSubagent, s.app, 'agent'),
      at: iso(m.ts),
      ...(m.countsAsMessage === false ? { countsAsMessage: false as const } : {}),
      ...(holdsHit ? { hit: true as const } : {}),
      ...started(m.messageId, i === result.messages.length - 1),
      ...(rewound[i] !== null ? { rewound: true as const } : {}),
      parts: m.parts.map((p): PagePart => {
        // A compaction summary is said so, its text kept, whichever agent and role stored it.
        const harness = harnessLine(p, m.role, inSubagent, s.app) ?? (isCompactionSummary(p) ? foldLine(COMPACTION_FOLD) : undefined);
        // A result the agent stored wrapped (Codex's JSON) reads as the output it wraps.
        const text = (p.output ?? p.text) === null ? null : redact(p.output ?? p.text ?? '');
        return pagePart({
          partId: p.partId,
          kind: p.kind,
          text,
          summary: line(p.summary),
          toolName: bounded(p.toolName, LINE_CHARS),
          role: role !== 'tool' && partRoleOf(p.kind, m.role) === 'tool' ? 'tool' : undefined,
          isError: p.isError,
          exitCode: p.exitCode ?? null,
          genuineUserTurn: p.genuineUserTurn,
          harness: harness === undefined ? null : line(harness),
          truncatedFrom: p.truncatedFrom,
          ...(p.truncatedKept !== undefined ? { truncatedKept: p.truncatedKept } : {}),
          images: line(imagesBeside(p, text)),
          hit: p.partId === hit,
        });
      }),
    };
  });
  return { head, messages };
}

/**
 * A tool result's images where it has text too (a screenshot beside "Saved screenshot.png"), in the
 * words of its line had it returned only them (resultImagesLine): a few said, the rest counted, so a
 * result of a thousand images is one short line. A result of only images is said by its summary.
 */
function imagesBeside(p: SessionPart, text: string | null): string | null {
  if (p.kind !== 'tool_result' || !p.images || (text ?? '').trim() === '') return null;
  return resultImagesLine(p.images, p.resultImages);
}

/**
 * The subagents a message lists (subagentPlaces, the rule every reader shares), at most SUBAGENTS_SHOWN
 * of them: a message after which a thousand started stays within the bound. Those whose start is
 * unknown go with the conversation's last message, on the page that has it.
 */
function startedAt(result: Result<'Sessions.Get'>): (messageId: string, last: boolean) => { subagents?: Started[]; moreSubagents?: number; subagentsCursor?: string } {
  const places = subagentPlaces(result.subagents);
  const entry = (sub: SessionSubagent): Started => ({ sessionId: sub.session.sessionId, agentType: bounded(sub.session.agentType, SUBAGENT_LINE_CHARS) });
  return (messageId, last) => {
    const here = [...subagentsAt(places, messageId), ...(last && result.cursor === undefined ? places.unplaced : [])];
    if (here.length === 0) return {};
    if (here.length <= SUBAGENTS_SHOWN) return { subagents: here.map(entry) };
    // The conversation's list is in the order they started: from the first not listed here, it lists them.
    const next = result.subagents.findIndex((sub) => sub.session.sessionId === here[SUBAGENTS_SHOWN]!.session.sessionId);
    return { subagents: here.slice(0, SUBAGENTS_SHOWN).map(entry), moreSubagents: here.length - SUBAGENTS_SHOWN, subagentsCursor: subagentsCursor(Math.max(0, next)) };
  };
}

/** The page with the parts numbered start..end-1 (in page order) shown, each cut by `cut`; the others counted per message. */
function render(page: Prepared, cut: Cut, start: number, end: number): SessionPage {
  let first = 0;
  const messages = page.messages.map((m) => {
    const from = Math.min(Math.max(start - first, 0), m.parts.length);
    const to = Math.min(Math.max(end - first, from), m.parts.length);
    const offset = first + from;
    first += m.parts.length;
    return {
      role: m.role,
      speaker: m.speaker,
      at: m.at,
      ...(m.countsAsMessage === false ? { countsAsMessage: m.countsAsMessage } : {}),
      ...(m.hit ? { hit: m.hit } : {}),
      parts: m.parts.slice(from, to).map((p, i) => withCut(p, cut(offset + i, p))),
      ...(from > 0 ? { partsBefore: { parts: from, partId: m.parts[0]!.partId } } : {}),
      ...(to < m.parts.length ? { partsAfter: { parts: m.parts.length - to, partId: m.parts[to]!.partId } } : {}),
      ...(m.subagents ? { subagents: m.subagents } : {}),
      ...(m.moreSubagents ? { moreSubagents: m.moreSubagents } : {}),
      ...(m.subagentsCursor ? { subagentsCursor: m.subagentsCursor } : {}),
      ...(m.rewound ? { rewound: m.rewound } : {}),
    };
  });
  const { session, ...rest } = page.head;
  return { session, messages, ...rest };
}

/** Text the app wrote (in the person's name, or a compaction summary): marked so before its text, never read as its author's. */
function harnessText(p: PagePart): string {
  return `[${p.harness ?? ''} — written by the agent's app, not the person]\n${p.text ?? ''}`;
}

/**
 * What a tool call's or result's label line adds. Its summary, where the body is empty or the page cut
 * it: a whole body says all the summary would, in its first line. Else only what the body does not
 * say: the tool a call runs, the exit code of a result that failed (in toolResultSummary's words).
 */
function toolHeading(p: PagePart, body: string): string {
  if (body === '' || isCut(p)) return p.summary ? ` ${withoutFirstLine(p.summary, body)}` : '';
  if (p.kind === 'tool_use') return p.toolName ? ` ${p.toolName}` : '';
  if (!p.isError) return '';
  return p.exitCode !== undefined ? ` exit code ${p.exitCode}` : ' failed';
}

/** A result's label line with its images (imagesBeside) after what it says: on the label, never read as its output. */
function withImages(heading: string, p: PagePart): string {
  if (p.images === undefined) return heading;
  return heading === '' ? ` ${p.images}` : `${heading} · ${p.images}`;
}

/**
 * A result's summary without the first line it quotes ("85 lines: [00000] PASS …" → "85 lines"), where
 * the body under it opens with that line: said once, not twice.
 */
function withoutFirstLine(summary: string, body: string): string {
  const at = summary.indexOf(': ');
  const quoted = at < 0 ? '' : summary.slice(at + 2).replace(/…$/, '');
  const first = body.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return quoted !== '' && first.startsWith(quoted) ? summary.slice(0, at) : summary;
}

/** The line above the part a page was opened around (part_id): which of its messages was the hit. */
const HIT_LINE = '▼ hit';

function partText(p: PagePart): string {
  return p.hit ? `${HIT_LINE}\n${shownText(p)}` : shownText(p);
}

function shownText(p: PagePart): string {
  if (p.harness !== undefined) return `${harnessText(p)}${capturedNote(p)}`;
  if (p.kind === 'text') return `${p.text ?? ''}${capturedNote(p)}`;
  if (p.kind === 'tool_result' || p.kind === 'tool_use') {
    // Blank lines before and after the body are not shown, and an empty body adds no line (the JSON keeps the text).
    const body = withoutBlankEnds(p.text ?? '');
    return `[${kindLabel(p.kind) ?? p.kind}]${withImages(toolHeading(p, body), p)}${body === '' ? '' : `\n${body}`}${capturedNote(p)}`;
  }
  // What the part is in part-words' words, as `steward sessions show` says it ("[Thinking · …]",
  // "[Image · PNG, 12 KB]"); the JSON keeps its kind.
  return `[${foldLine(partFold({ ...p, summary: p.summary ?? null, text: p.text ?? null }))}]`;
}

/**
 * A message's parts as lines, as every reader shows them (reading.ts): a text with no words is no line,
 * and a message (`whole`: all its parts on the page) of nothing else says it is empty. The JSON keeps them.
 */
function partLines(parts: readonly PagePart[], whole: boolean): string[] {
  const worded = parts.filter((p) => !isBlankText({ kind: p.kind, text: p.text ?? null, truncatedFrom: p.truncatedFrom ?? null }));
  if (worded.length === 0 && parts.length > 0 && whole) return [`[${foldLine(partFold({ kind: EMPTY_MESSAGE_KIND, summary: null, text: '' }))}]`];
  // A text after a folded line or a tool's body starts apart from it: under "[Thinking · Planning]" it read as the thought.
  return worded.flatMap((p, i) => (i > 0 && p.kind === 'text' && p.harness === undefined && worded[i - 1]!.kind !== 'text' ? ['', partText(p)] : [partText(p)]));
}

/** How a page's words name the call that lists subagents it does not. */
const listWith = (cursor: string | undefined) => (cursor ? `: call again with cursor "${cursor}" to list them` : '');

/**
 * The subagents, named where an agent reads first: each one's id, what it is and what it was asked.
 * `from`: the index of the first listed (a subagents cursor's page says which of them it lists). A
 * page a cursor reached lists none, only how many and how to list them.
 */
function subagentLines(out: SessionPage, from = 0): string[] {
  const total = from + out.subagents.length + (out.moreSubagents ?? 0);
  if (total === 0) return [];
  if (out.subagents.length === 0 && from === 0) return [`This conversation started ${countOf(total, 'subagent')}, listed on the page that opened it${listWith(out.subagentsCursor)}.`];
  const which = from === 0 ? `Started ${countOf(total, 'subagent')}` : `Subagents ${from + 1} to ${from + out.subagents.length} of ${total} this conversation started`;
  const lines = [`${which}; read one with get_session and its session_id:`];
  for (const sub of out.subagents) {
    const words = ['⤷ subagent', sub.agentType, `[${sub.sessionId}]`, sub.title ?? sub.firstRequest ?? '(untitled)', `(${countOf(sub.messages, 'message')})`];
    lines.push(`  ${words.filter((w) => w !== null && w !== '').join(' ')}`);
  }
  if (out.moreSubagents) lines.push(`  ${countOf(out.moreSubagents, 'more subagent')} not listed${listWith(out.subagentsCursor)}.`);
  return lines;
}

/** The page's entries the conversation's count leaves out: its tool results (countsAsMessage false). */
const toolResultsOf = (out: SessionPage) => out.messages.filter((m) => m.countsAsMessage === false).length;

/**
 * What the page holds, in the units `limit` counts (entries: messages and tool results) beside the
 * conversation's count (messages alone), where they differ; a page opened at the end says it is the last.
 */
function countLine(out: SessionPage): string[] {
  const words = pageCountWords({ entries: out.messages.length, toolResults: toolResultsOf(out), messages: out.session.messages, last: out.atEnd === true && out.before !== undefined, limit: 'limit' });
  return words === undefined ? [] : [words];
}

/** The conversation's first line: its title, id, size and whose subagent or branch it is. */
function titleLine(out: SessionPage): string {
  const s = out.session;
  const parent = s.parentSessionId === null ? '' : `, ${s.parentKind === 'branch' ? 'branched from' : 'subagent of'} ${s.parentSessionId}`;
  // Said where the page lists tool results, which the count leaves out: "10 messages" then lists more entries.
  const unit = toolResultsOf(out) > 0 ? ', not counting tool results' : '';
  return `${s.title ?? s.firstRequest ?? '(untitled)'} (${s.sessionId}, ${countOf(s.messages, 'message')}${unit}${parent})`;
}

export function sessionText(out: SessionPage): string {
  const lines = [titleLine(out), ...countLine(out), ...subagentLines(out)];
  for (const m of out.messages) {
    lines.push(`— ${m.speaker} ${m.at ?? ''}`);
    // Said of each such turn: an agent may read any one of them alone.
    if (m.rewound) lines.push(`[${REWOUND_LINE}]`);
    if (m.partsBefore) lines.push(`… ${countOf(m.partsBefore.parts, 'earlier part')} of this message not shown: call again with part_id "${m.partsBefore.partId}" to read from there.`);
    for (const line of partLines(m.parts, m.partsBefore === undefined && m.partsAfter === undefined)) lines.push(line);
    if (m.partsAfter) lines.push(`… ${countOf(m.partsAfter.parts, 'more part')} of this message not shown: call again with part_id "${m.partsAfter.partId}" to read from there.`);
    for (const sub of m.subagents ?? []) lines.push(`  ⤷ subagent ${sub.agentType ? `${sub.agentType} ` : ''}[${sub.sessionId}]`);
    if (m.moreSubagents) lines.push(`  ${countOf(m.moreSubagents, 'more subagent')} started here, not listed: call again with cursor "${m.subagentsCursor}" to list the conversation's subagents from the first of them.`);
  }
  if (out.cursor) lines.push(`Later messages: call again with cursor "${out.cursor}".`);
  if (out.before) lines.push(`Earlier messages: call again with cursor "${out.before}".`);
  return lines.join('\n');
}

/** What the answer weighs: the larger of its text and its structured content as JSON. */
function weight(out: SessionPage): number {
  return Math.max(sessionText(out).length, JSON.stringify(out).length);
}

/** The page with every part, each cut at `cap`, if it stays within the bound. */
function allAt(page: Prepared, cap: number): SessionPage | undefined {
  const out = render(page, () => cap, 0, Number.MAX_SAFE_INTEGER);
  return weight(out) <= PAGE_CHARS ? out : undefined;
}

/**
 * Every part of the page, each cut at the largest cap that keeps the answer within the bound: the
 * budget is shared out, never spent on the first parts alone. Undefined when even MIN_PART_CHARS
 * each is too much.
 */
function fitWhole(page: Prepared): SessionPage | undefined {
  const whole = allAt(page, PART_CHARS);
  if (whole) return whole;
  let best = allAt(page, MIN_PART_CHARS);
  if (!best) return undefined;
  // `low` fits and `high` does not; a cap within 16 characters of the best is close enough.
  for (let low = MIN_PART_CHARS, high = PART_CHARS; high - low > 16; ) {
    const mid = Math.floor((low + high) / 2);
    const out = allAt(page, mid);
    if (out) [low, best] = [mid, out];
    else high = mid;
  }
  return best;
}

/**
 * A page no fewer messages can shorten (one message of 600 tool calls): the parts from the anchor (the
 * part asked for, else the first) on, then before it, as many as fit, each with its one-line summary
 * and only a count of its text's characters (MIN_PART_CHARS of a part without a summary; the part
 * asked for keeps PART_CHARS). Each message says how many of its parts are left out and which part_id
 * reads from the first of them: the part asked for by its id is always shown, with what follows it.
 */
function fitWindow(page: Prepared, partId: string | undefined): SessionPage {
  const parts = page.messages.flatMap((m) => m.parts);
  const asked = parts.findIndex((p) => p.partId === partId);
  const anchor = Math.max(0, asked);
  const cut: Cut = (i, p) => (i === asked ? PART_CHARS : p.summary !== undefined ? 0 : MIN_PART_CHARS);
  const base = render(page, cut, anchor, anchor);
  const used = { json: JSON.stringify(base).length, text: sessionText(base).length };
  // Each part's weight alone; the markers' counts and ids then change a little, measured below.
  const fits = (i: number) => {
    const shown = withCut(parts[i]!, cut(i, parts[i]!));
    const json = JSON.stringify(shown).length + 1;
    const text = partText(shown).length + 1;
    if (used.json + json > PAGE_CHARS || used.text + text > PAGE_CHARS) return false;
    [used.json, used.text] = [used.json + json, used.text + text];
    return true;
  };
  let end = anchor;
  while (end < parts.length && fits(end)) end += 1;
  let start = anchor;
  while (end === parts.length && start > 0 && fits(start - 1)) start -= 1;
  for (;;) {
    const out = render(page, cut, start, end);
    if (weight(out) <= PAGE_CHARS || start === end) return out;
    if (start < anchor) start += 1;
    else end -= 1;
  }
}

/**
 * How many messages to ask for next, fewer than `asked`: as many leading messages of this page as fit
 * at MIN_PART_CHARS each, counted from the hit's message when the page opened around one (the messages
 * before it come whatever the limit). Only an estimate: the next answer is measured again.
 */
function fewer(page: Prepared, asked: number, partId: string | undefined): number {
  let fit = 0;
  while (fit < page.messages.length && allAt({ ...page, messages: page.messages.slice(0, fit + 1) }, MIN_PART_CHARS)) fit += 1;
  const hit = page.messages.findIndex((m) => m.parts.some((p) => p.partId === partId));
  return Math.max(1, Math.min(asked - 1, fit - Math.max(hit, 0)));
}

/** Runs `redact` once per distinct text, however many times a page is fitted. */
function once(redact: Redact): Redact {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    const redacted = redact(text);
    seen.set(text, redacted);
    return redacted;
  };
}

/**
 * A page of a conversation within PAGE_CHARS. Over it, the page is asked for again with fewer messages
 * (its cursor then continues right after the last message shown, as Sessions.Get pages);
 * a single message still over it is shown as a window of its parts (fitWindow). `atEnd`: `ask` opens
 * at the conversation's end (fewer messages asked for are then the last ones).
 */
export async function readSessionPage(
  ask: (limit: number) => Promise<Result<'Sessions.Get'>>,
  limit: number,
  partId: string | undefined,
  redact: Redact,
  atEnd = false,
  listSubagents = true,
): Promise<{ page: SessionPage; text: string }> {
  const cached = once(redact);
  for (let asked = limit; ; ) {
    const result = await ask(asked);
    const prepared = prepare(result, cached, atEnd, listSubagents ? 0 : null, partId);
    const whole = fitWhole(prepared);
    if (whole) return { page: whole, text: sessionText(whole) };
    if (asked > 1 && result.messages.length > 1) {
      asked = fewer(prepared, asked, partId);
      continue;
    }
    const window = fitWindow(prepared, partId);
    return { page: window, text: sessionText(window) };
  }
}

/**
 * One part's text from character `from` on (of its text as the page shows it, redacted), READ_CHARS
 * of it at most: the call a cut part's words name. The answer holds that part alone, in its message
 * (the message's other parts counted), and no cursor: it reads on in the part, not in the conversation.
 */
export async function readPartFrom(ask: (limit: number) => Promise<Result<'Sessions.Get'>>, partId: string, from: number, redact: Redact): Promise<{ page: SessionPage; text: string }> {
  // It reads on in a part the agent has seen on a page: the subagents are counted, not listed again.
  const prepared = prepare(await ask(1), once(redact), false, null);
  const at = prepared.messages.flatMap((m) => m.parts).findIndex((p) => p.partId === partId);
  if (at === -1) throw new StewardError('not_found', 'That part is not in this conversation');
  // Text of control characters weighs six times its length as JSON: the window shrinks until both halves fit.
  for (let size = READ_CHARS; ; ) {
    const page = partWindow(prepared, at, from, size);
    const over = weight(page);
    if (over <= PAGE_CHARS || size <= MIN_PART_CHARS) return { page, text: sessionText(page) };
    size = Math.max(MIN_PART_CHARS, Math.floor((size * PAGE_CHARS) / over) - LINE_CHARS);
  }
}

/** The page of part `at` alone, its text from `from` on, `size` characters of it at most, saying where the rest reads on. */
function partWindow(prepared: Prepared, at: number, from: number, size: number): SessionPage {
  const part = prepared.messages.flatMap((m) => m.parts)[at]!;
  const text = part.text ?? '';
  const start = Math.min(wholeAt(text, from), text.length);
  const rest = text.slice(start);
  const end = wholeAt(rest, size);
  const shown = rest.length <= size ? rest : `${rest.slice(0, end)}… [${countOf(rest.length - end, 'more character')} not shown${readOn(part.partId, start + end)}]`;
  const head = from >= text.length && text.length > 0 ? endWords(from, text.length) : start > 0 ? `[from character ${start.toLocaleString('en')} of ${text.length.toLocaleString('en')}] ` : '';
  const read: Prepared = { head: withoutCursors(prepared.head), messages: prepared.messages.map((m) => ({ ...m, parts: m.parts.map((p) => (p === part ? { ...p, text: `${head}${shown}` } : p)) })) };
  return render(read, () => Number.MAX_SAFE_INTEGER, at, at + 1);
}

/** A read from at or past the part's end: where its text ends, so no caller takes the empty answer for a tail it read. */
const endWords = (from: number, length: number) =>
  `[nothing from character ${from.toLocaleString('en')}: the text Steward holds of this part ends at character ${length.toLocaleString('en')}]`;

/** The head without the page's cursors: an answer about one part has no later or earlier page. */
function withoutCursors(head: Prepared['head']): Prepared['head'] {
  const { cursor: _later, before: _earlier, ...rest } = head;
  return rest;
}

/**
 * The conversation's subagents from the one at index `from`, SUBAGENTS_SHOWN of them, and no messages:
 * what a subagents cursor ("subagents:20") asks for. Bounded as a page's list is.
 */
export async function readSubagents(ask: (limit: number) => Promise<Result<'Sessions.Get'>>, from: number, redact: Redact): Promise<{ page: SessionPage; text: string }> {
  const result = await ask(1);
  const prepared = prepare(result, once(redact), false, from);
  const page = render({ head: withoutCursors(prepared.head), messages: [] }, () => 0, 0, 0);
  const none = [`No subagents from number ${(from + 1).toLocaleString('en')}: this conversation started ${countOf(result.subagents.length, 'subagent')}.`];
  return { page, text: [titleLine(page), ...(page.subagents.length > 0 ? subagentLines(page, from) : none)].join('\n') };
}
