import type { SessionPart } from '../../../../core/api/index.js';

/**
 * The words a reader is given for what the parsers store (core/transcripts/providers): who a message
 * is from, by its role, and what each kind of part is, with the one line its fold shows when the part
 * says none itself. The viewer and search say them from here, so a kind is never shown by its name.
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

interface KindWords {
  label: string;
  /** The fold's line when the part has no line of its own. */
  summary: string;
  /** Its text is a short message (an error, a notice): its first line says more than `summary`. */
  ownLine?: true;
}

const KIND_WORDS: Readonly<Record<string, KindWords>> = {
  thinking: { label: 'Thinking', summary: 'No text kept' },
  tool_use: { label: 'Tool call', summary: 'A tool the agent called' },
  tool_result: { label: 'Result', summary: 'No output' },
  image: { label: 'Image', summary: 'An image; only its type and size are kept' },
  compaction: { label: 'Summary', summary: 'Earlier conversation summarized' },
  branch_summary: { label: 'Summary', summary: 'Another branch of the conversation summarized' },
  notice: { label: 'Notice', summary: 'A note from the agent', ownLine: true },
  error: { label: 'Error', summary: 'The agent reported an error', ownLine: true },
  context: { label: 'Added context', summary: 'Text the agent added to the prompt' },
  agent_message: { label: 'Agent message', summary: 'A message between agents', ownLine: true },
  document: { label: 'File', summary: 'A file attached to the message; its contents are not kept' },
  unknown: { label: 'Other content', summary: 'Content of no known kind' },
};

/** A part of a kind not listed (a block type an agent added later) is kept as its JSON. */
const OTHER_LABEL = 'Other content';

const LINE_CHARS = 120;

function firstLine(text: string | null): string | null {
  const line = (text ?? '').slice(0, 2_000).split('\n').map((l) => l.trim()).find((l) => l !== '');
  if (line === undefined) return null;
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line;
}

/** What a part of this kind is called (undefined for text, which is shown as written). */
export function kindLabel(kind: string): string | undefined {
  if (kind === 'text') return undefined;
  return KIND_WORDS[kind]?.label ?? OTHER_LABEL;
}

/**
 * A folded part's label and one line. The contract's summary of a kind it has no line for is the
 * kind's own name ("compaction"), which is no line for a reader; a kind not listed keeps its name as
 * its line, the one fact there is about it.
 */
export function partFold(part: Pick<SessionPart, 'kind' | 'summary' | 'text'>): { label: string; summary: string } {
  const own = part.summary !== null && part.summary !== '' && part.summary !== part.kind ? part.summary : null;
  const words = KIND_WORDS[part.kind];
  if (words === undefined) return { label: OTHER_LABEL, summary: own ?? part.kind };
  return { label: words.label, summary: own ?? (words.ownLine ? firstLine(part.text) : null) ?? words.summary };
}
