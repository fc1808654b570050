import type { CutKept, SessionMessage, SessionPart } from '../../../../core/api/index.js';
import { COMPACTION_FOLD, COMPACTION_SPEAKER, CUT_GAP, isSummaryMessage, MAIN_AGENT, roleWord } from '../../../../core/api/part-words.js';
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
 * so a result's "N lines" is read as the lines kept, not all the tool printed. A tool result cut at
 * both ends (`kept`) says its start and its end were kept and its middle left out; one an older
 * parser stored (its start only) says so as it always did.
 */
export function cutSentence(keptChars: number, totalChars: number, kept?: CutKept): string {
  if (kept) return `Steward kept the first ${formatCount(kept.first)} and the last ${formatCount(kept.last)} of its ${formatCount(totalChars)} characters; the middle is left out.`;
  return `Only the first ${formatCount(keptChars)} of its ${formatCount(totalChars)} characters were kept.`;
}

/** What the divider says where a cut result's middle was left out: how much of it. */
export function gapWords(totalChars: number, kept: CutKept): string {
  return `${formatCount(Math.max(0, totalChars - kept.first - kept.last))} characters left out here`;
}

/**
 * Where CUT_GAP stands in `shown` (a cut result's text, or its output read from it), so the viewer
 * puts its divider there: `kept.last` characters before its end, else `kept.first` from its start
 * (redaction may have changed the length of one side), else where the only gap line is (an output
 * decoded from its JSON wrapper, whose lengths are not the stored text's); null when none is sure.
 */
export function gapIn(shown: string, kept: CutKept | undefined): number | null {
  if (!kept) return null;
  for (const at of [shown.length - kept.last - CUT_GAP.length, kept.first]) if (at >= 0 && shown.startsWith(CUT_GAP, at)) return at;
  const only = shown.indexOf(CUT_GAP);
  return only !== -1 && shown.lastIndexOf(CUT_GAP) === only ? only : null;
}
