// The words a reader is given for what the parsers store (core/transcripts/providers): who a message
// is from, by its role, and what each kind of part is, with the one line its fold shows when the part
// says none itself. One table for every surface, so a kind is never shown by its name: the panel loads
// this file at run time (so it imports nothing, as reading.ts), the CLI, the exports and MCP read it
// through the contract, and the history room gives each part its line from it.

/**
 * Who a message is from, by its role, on every surface a person reads (the panel, `steward sessions
 * show`, search lines, the exports): one word each. The person's turns are "You": Steward reads a
 * person's own conversations back to them, and an export is theirs to keep. MCP says "User" (roleWord).
 */
export const ROLE_WORDS: Readonly<Record<string, string>> = {
  user: 'You',
  assistant: 'Assistant',
  toolResult: 'Tool result',
  tool: 'Tool result',
  // The agent's app or runtime, not a person: OpenClaw's summaries, Gemini CLI's notices and errors,
  // Codex's messages between agents.
  system: 'System',
};

/** A tool's result found by a search (a line, not a fold): no one's words, its tool's output. */
export const TOOL_OUTPUT = 'Tool output';

/** A subagent's user turns: the prompts the main agent wrote for it, as every surface calls them. */
export const MAIN_AGENT = 'Main agent';

/**
 * Who reads the words: a person (their own turns are "You") or an agent over MCP, which would take
 * "You" for itself, so the person's turns are "User" there.
 */
export type Audience = 'person' | 'agent';

/** Who a message is from, by its role (ROLE_WORDS; a role not listed by its name). */
export function roleWord(role: string | null, audience: Audience = 'person'): string {
  if (role === 'user' && audience === 'agent') return 'User';
  return ROLE_WORDS[role ?? ''] ?? role ?? 'Message';
}

/** A folded part: what it is, and its one line. */
export interface PartFold {
  label: string;
  summary: string;
}

interface KindWords {
  label: string;
  /** The fold's line when the part has no line of its own. */
  summary: string;
  /** Its text is a short message (an error, a notice): its first line says more than `summary`. */
  ownLine?: true;
  /** Its text is the model's Markdown (a thought): its line is read without the emphasis markers (plainLine). */
  markdown?: true;
}

/**
 * How the summary that continues a compacted conversation folds, whichever way the agent stored it
 * (Claude Code's user text marked `isCompactSummary`, Codex CLI's `compacted` line, OpenClaw's or
 * Gemini CLI's compaction part): the one wording for it.
 */
export const COMPACTION_FOLD: Readonly<PartFold> = { label: 'Summary', summary: 'Earlier conversation summarized' };

/**
 * Who a message holding only a compaction summary is from, on every surface and for every agent: a
 * neutral speaker, since the agents store it under a user's, an assistant's or a system's role, and
 * neither the person, the model answering nor the app is who a reader should take it from.
 */
export const COMPACTION_SPEAKER = 'Conversation summary';

/** A compaction summary, by capture's flag (set for every agent's) or by its kind. */
export function isCompactionSummary(part: { kind: string; isCompactSummary: boolean }): boolean {
  return part.isCompactSummary || part.kind === 'compaction';
}

/** A message that holds a compaction summary and nothing else: said to be from COMPACTION_SPEAKER. */
export function isSummaryMessage(parts: ReadonlyArray<{ kind: string; isCompactSummary: boolean }>): boolean {
  return parts.length > 0 && parts.every(isCompactionSummary);
}

/**
 * What a turn the person rewound past is (Gemini CLI's rewind drops turns from the conversation its
 * model goes on with; Steward keeps them): said once where a run of such turns starts in the viewer and
 * `sessions show`, and on each such turn to an agent (get_session), which may read one alone.
 */
export const REWOUND_LINE = 'Rewound: the person went back to before this';

/**
 * Per message: null, or whether the person rewound past it as the first of a run of such messages
 * (where REWOUND_LINE is said) or a later one of it. A message is rewound when capture marked its parts so.
 */
export function rewoundMarks(messages: ReadonlyArray<{ parts: ReadonlyArray<{ rewound?: boolean }> }>): Array<'first' | 'more' | null> {
  const rewound = messages.map((m) => m.parts.some((p) => p.rewound === true));
  return rewound.map((r, i) => (!r ? null : i > 0 && rewound[i - 1] ? 'more' : 'first'));
}

const BYTE_UNITS = ['KB', 'MB', 'GB'];

/** "27 bytes", "12 KB", "3.0 MB": a size as the panel says it (its formatBytes), for every surface. */
function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${BYTE_UNITS[unit]}`;
}

/**
 * An image's one line, the facts kept of it: its type as people name it ("PNG" for image/png) and
 * its size ("PNG, 12 KB"); null when neither is known (a size of 0 is one not recorded).
 */
export function imageLine(image: { mediaType: string | null; bytes: number }): string | null {
  const subtype = image.mediaType?.split('/')[1]?.split(/[+;]/)[0]?.trim();
  const words = [subtype ? subtype.toUpperCase() : null, image.bytes > 0 ? sizeWords(image.bytes) : null].filter((w) => w !== null);
  return words.length > 0 ? words.join(', ') : null;
}

// Made at first use (the first Intl object loads ICU, as words.ts says): a format of LINE_COUNTS' own.
let lineCounts: Intl.NumberFormat | undefined;
const LINE_COUNTS = { format: (n: number) => (lineCounts ??= new Intl.NumberFormat('en')).format(n) };

/** An image as capture kept it: its type and decoded size (a size of 0 is one not recorded). */
interface ImageFacts {
  mediaType: string | null;
  bytes: number;
}

/** "1 image", "2 images": also what a result's folded line adds of the images beside its output. */
export const imagesWords = (n: number) => `${LINE_COUNTS.format(n)} ${n === 1 ? 'image' : 'images'}`;

/** Images whose type and size a tool result's one line says; the rest it counts ("and 2 more"). */
const LINE_IMAGES = 3;

/**
 * What a tool result of images and no text returned, as its fold's one line says it: how many, and
 * each one's type and size where capture kept them ("2 images: PNG, 34 KB; JPEG, 1.2 MB"); the count
 * alone for a result stored before capture kept them ("2 images"). The panel, the CLI, MCP and the exports say it so.
 */
export function resultImagesLine(count: number, facts: readonly ImageFacts[] = []): string {
  const said = facts.map(imageLine).filter((line) => line !== null);
  const total = Math.max(count, facts.length);
  if (said.length === 0) return imagesWords(total);
  const more = total - Math.min(said.length, LINE_IMAGES);
  return `${imagesWords(total)}: ${said.slice(0, LINE_IMAGES).join('; ')}${more > 0 ? `; and ${LINE_COUNTS.format(more)} more` : ''}`;
}

/**
 * A tool result's images where they sit, under it: each one the placeholder an image part is
 * ("Image · PNG, 34 KB"); those capture only counted (a result stored before it kept their facts, or
 * past its cap) as their count ("2 images", "3 more images"). Empty when it returned none.
 */
export function resultImageLines(count: number, facts: readonly ImageFacts[] = []): string[] {
  const lines = facts.map((image) => foldLine(partFold({ kind: 'image', summary: null, text: null, image })));
  const rest = count - facts.length;
  if (rest > 0) lines.push(facts.length > 0 ? `${LINE_COUNTS.format(rest)} more ${rest === 1 ? 'image' : 'images'}` : imagesWords(rest));
  return lines;
}

/**
 * What stands between a cut tool result's kept start and its kept end in its stored text, where the
 * middle was left out: a line of its own holding no word, so search finds nothing in it and a reader
 * of the text alone (an agent over MCP, a Markdown export) still sees the break. Middle dots (U+00B7),
 * not an ellipsis: a character beyond Latin-1 makes V8 hold a string at two bytes a character, and
 * with '…' every cut result, the read worker's joined pieces it sat in and every text cut back out of
 * them went two-byte: a cold import posted 232 MB instead of 122 MB and spent ~14% more CPU.
 */
export const CUT_GAP = '\n···\n';

/**
 * How many lines a tool's output has, as its fold's line opens ("3,001 lines"). Of an output Steward
 * stored cut short only the kept start is counted, so the count is said as a floor ("at least 90
 * lines"): never the kept lines as if they were all of it. One rule for the panel, the CLI, the exports and MCP.
 */
export function outputLinesWords(lines: number, cutShort: boolean): string {
  const count = `${LINE_COUNTS.format(lines)} ${lines === 1 ? 'line' : 'lines'}`;
  return cutShort ? `at least ${count}` : count;
}

const KIND_WORDS: Readonly<Record<string, KindWords>> = {
  thinking: { label: 'Thinking', summary: 'No text kept', ownLine: true, markdown: true },
  tool_use: { label: 'Tool call', summary: 'A tool the agent called' },
  tool_result: { label: 'Result', summary: 'No output' },
  image: { label: 'Image', summary: 'An image; only its type and size are kept' },
  compaction: COMPACTION_FOLD,
  branch_summary: { label: 'Summary', summary: 'Another branch of the conversation summarized' },
  notice: { label: 'Notice', summary: 'A note from the agent', ownLine: true },
  error: { label: 'Error', summary: 'The agent reported an error', ownLine: true },
  context: { label: 'Added context', summary: 'Text the agent added to the prompt' },
  agent_message: { label: 'Agent message', summary: 'A message between agents', ownLine: true },
  document: { label: 'File', summary: 'A file attached to the message; its contents are not kept' },
  unknown: { label: 'Other content', summary: 'Content of no known kind' },
  // No agent's kind: what a message of only empty texts is shown as (reading.ts's joinedContext).
  empty: { label: 'Empty message', summary: 'No text was written' },
};

/** A part of a kind not listed (a block type an agent added later) is kept as its JSON. */
const OTHER_LABEL = 'Other content';

const LINE_CHARS = 120;

function firstLine(text: string | null): string | null {
  const line = (text ?? '').slice(0, 2_000).split('\n').map((l) => l.trim()).find((l) => l !== '');
  if (line === undefined) return null;
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line;
}

/**
 * Markdown's emphasis as the model wrote it, paired markers around words: `**bold**`, `__bold__`,
 * `*it*`, `_it_`. A marker touching a letter, a digit, a slash or another marker is no emphasis
 * (`__init__.py`, a glob's `**` between slashes, `snake_case_name`), nor one beside a space (`2 * 3 * 4`).
 */
const EMPHASIS = [
  /(?<![\w*/])\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*(?![\w*/])/g,
  /(?<![\w_])__(?=[^\s_])(.+?)(?<=[^\s_])__(?!\.?\w|_)/g,
  /(?<![\w*/])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*/])/g,
  /(?<![\w_])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w_])/g,
];
/** A heading's hashes, and a bold opening whose closing the line's cut left out (`**Inspecting the sch…`). */
const LINE_OPENING = /^(?:#{1,6}\s+|(?:\*\*|__)(?=\S))/;

/** A line of the model's Markdown as words: its emphasis markers and heading hashes taken out. */
function plainLine(line: string): string {
  if (/^[\s*_#]*$/.test(line)) return '';
  const plain = EMPHASIS.reduce((text, marker) => text.replace(marker, '$1'), line);
  return plain.replace(LINE_OPENING, '').trim();
}

/** What a part of this kind is called (undefined for text, which is shown as written). */
export function kindLabel(kind: string): string | undefined {
  if (kind === 'text') return undefined;
  return KIND_WORDS[kind]?.label ?? OTHER_LABEL;
}

/**
 * A folded part's label and one line: its own line, else its text's first line where that is a
 * short message (a notice), else its kind's. A summary that is only the kind's name (the line a kind
 * not listed gets, or an older owner's "compaction") is no line of its own; a kind not listed keeps
 * its name as its line, the one fact there is about it. A compaction summary is COMPACTION_FOLD
 * whatever its kind, and an image is said by its facts (imageLine) whatever line was stored for it.
 */
export function partFold(part: { kind: string; summary: string | null; text: string | null; isCompactSummary?: boolean; image?: { mediaType: string | null; bytes: number } | null }): PartFold {
  if (isCompactionSummary({ kind: part.kind, isCompactSummary: part.isCompactSummary === true })) return { ...COMPACTION_FOLD };
  const words = KIND_WORDS[part.kind];
  if (part.kind === 'image' && part.image) return { label: words!.label, summary: imageLine(part.image) ?? words!.summary };
  const own = part.summary !== null && part.summary !== '' && part.summary !== part.kind ? part.summary : null;
  if (words === undefined) return { label: OTHER_LABEL, summary: own ?? part.kind };
  const line = own ?? (words.ownLine ? firstLine(part.text) : null);
  // A line that was only markers (a lone `**`) is no line of its own.
  return { label: words.label, summary: (line !== null && words.markdown ? plainLine(line) : line) || words.summary };
}

/**
 * A thought's text after its first line, where its fold's line (partFold) is that line whole: Gemini
 * CLI's thoughts open with their subject ("Reading"), the fold's line, and the body then goes on with
 * what it says of it rather than saying it twice. A line cut short (its end only in the text), a text
 * that is only that line, or a fold whose line is not its first keeps the text whole.
 */
export function thoughtAfterLine(part: { summary: string | null; text: string | null }): string {
  const text = part.text ?? '';
  const first = /^\s*([^\n]*)\n?/.exec(text);
  const line = partFold({ kind: 'thinking', summary: part.summary, text: part.text }).summary;
  if (first === null || first[1]!.trim() === '' || line.endsWith('…')) return text;
  if (partFold({ kind: 'thinking', summary: null, text: first[1]! }).summary !== line) return text;
  const rest = text.slice(first[0].length).replace(/^\s*\n/, '');
  return rest.trim() === '' ? text : rest;
}

/** A fold said as one line of text, for the CLI, the exports and MCP: "Summary · Earlier conversation summarized". */
export function foldLine(fold: PartFold): string {
  return `${fold.label} · ${fold.summary}`;
}
