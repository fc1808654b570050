import type { SessionMessage, SessionPart } from '../../../../core/api/index.js';
import { COMPACTION_FOLD, COMPACTION_SPEAKER, isSummaryMessage, MAIN_AGENT, roleWord } from '../../../../core/api/part-words.js';
import { harnessKind, voiceOf } from '../../../../core/api/reading.js';
import { formatCount } from '../../components/index.js';
import type { Move } from './pages.js';

/**
 * Who a message is from, as the reader would say it. A subagent's user turns are the prompts the
 * main agent wrote for it (and its tool results), never the person's words.
 */
export function speakerOf(role: string | null, inSubagent: boolean): string {
  if (role === 'user' && inSubagent) return MAIN_AGENT;
  return roleWord(role);
}

/** How a part that is not its author's words folds: what it is, and its one line. */
export interface HarnessFold {
  label: string;
  summary: string | null;
}

/**
 * User text the person did not write (core/api/reading.ts's harnessKind tells which) is said for what
 * it is and folded like a tool call, never shown as theirs: a slash command's echo, the summary that
 * continues a compacted conversation, or else text the app wrote, labelled with the session's `app`.
 * Undefined for the words of the turn's author, shown as written.
 */
export function harnessFold(part: Pick<SessionPart, 'kind' | 'summary' | 'genuineUserTurn' | 'isCompactSummary' | 'slashCommand'>, role: string | null, inSubagent: boolean, app: string): HarnessFold | undefined {
  const kind = harnessKind(part, role, inSubagent);
  if (kind === 'summary') return { ...COMPACTION_FOLD };
  if (kind === 'command') return { label: 'Command', summary: part.summary ?? part.slashCommand };
  return kind === 'app' ? { label: app, summary: part.summary } : undefined;
}

/**
 * Who a message is from (core/api/reading.ts's voiceOf) as its header says it, and how it is shown;
 * a compaction summary's is part-words' neutral speaker, whichever role its agent stored it under.
 */
export function messageSpeaker(message: Pick<SessionMessage, 'role' | 'parts'>, inSubagent: boolean, app: string): { who: string; kind: 'tool' | 'harness' | 'summary' | 'turn' } {
  if (isSummaryMessage(message.parts)) return { who: COMPACTION_SPEAKER, kind: 'summary' };
  const voice = voiceOf(message, inSubagent);
  if (voice === 'tool') return { who: 'Tool result', kind: 'tool' };
  if (voice === 'app') return { who: app, kind: 'harness' };
  return { who: speakerOf(message.role, inSubagent), kind: 'turn' };
}

/** The element id of a message, so a view can move the focus to it. */
export function messageElementId(messageId: string): string {
  return `message-${messageId}`;
}

/**
 * Where the reader lands after earlier or later messages were loaded: the first new message after
 * what was shown, or the last new one before it, so they go on reading from where they were. A
 * message cut at the page edge continues one already shown, and is not new. At the conversation's
 * end (`end`), its last message: the latest work is what they asked for.
 */
export function landingMessage(shown: readonly SessionMessage[], got: readonly SessionMessage[], direction: Move): string | undefined {
  if (direction === 'end') return got[got.length - 1]?.messageId;
  if (direction === 'cursor') {
    const last = shown[shown.length - 1]?.messageId;
    return (got.find((m) => m.messageId !== last) ?? got[0])?.messageId;
  }
  const first = shown[0]?.messageId;
  const fresh = got.filter((m) => m.messageId !== first);
  return (fresh[fresh.length - 1] ?? got[got.length - 1])?.messageId;
}

/**
 * What a reader is told under a part stored cut short: how much of it Steward kept, in characters,
 * so a result's "N lines" is read as the lines kept, not all the tool printed.
 */
export function cutSentence(keptChars: number, totalChars: number): string {
  return `Only the first ${formatCount(keptChars)} of its ${formatCount(totalChars)} characters were kept.`;
}
