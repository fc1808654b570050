// Made at first use, not at import: a process's first Intl object loads the ICU data (~25 ms of CPU),
// which a command that says no count (`steward --help`) need not pay.
let rules: Intl.PluralRules | undefined;
let numbers: Intl.NumberFormat | undefined;

/** The noun for `n`, chosen by Intl.PluralRules: "file" or "files" (never "file(s)"). */
export function nounFor(n: number, noun: string, plural = `${noun}s`): string {
  return (rules ??= new Intl.PluralRules('en')).select(n) === 'one' ? noun : plural;
}

/** "1,204": a number as a person reads it, the same in every count (countOf) and every "x of y". */
export function numberOf(n: number): string {
  return (numbers ??= new Intl.NumberFormat('en')).format(n);
}

/** "1 file", "1,204 messages": how the CLI, MCP and status lines say a count in English. */
export function countOf(n: number, noun: string, plural?: string): string {
  return `${numberOf(n)} ${nounFor(n, noun, plural)}`;
}

/**
 * A conversation's size as `sessions list` and an export's heading both say it: its messages, then its
 * tool calls and subagents only when it has any ("13 messages, 3 tool calls, 1 subagent").
 */
export function sessionCountWords(s: { messages: number; toolCalls: number; subagents: number }): string {
  const some = (n: number, noun: string) => (n > 0 ? [countOf(n, noun)] : []);
  return [countOf(s.messages, 'message'), ...some(s.toolCalls, 'tool call'), ...some(s.subagents, 'subagent')].join(', ');
}

/**
 * What a part Steward stored cut short says of it: one sentence for the export, the CLI's view and
 * MCP, each framing it its own way. A text over its cap keeps its start; a long tool result (`kept`:
 * the characters kept of its start and of its end) keeps both, the middle left out between them.
 */
export function cutShortWords(length: number, kept?: CutKept): string {
  if (kept) return `cut short: Steward kept the first ${numberOf(kept.first)} and the last ${numberOf(kept.last)} of its ${countOf(length, 'character')}; the middle is left out`;
  return `cut short: Steward kept only the start of its ${countOf(length, 'character')}`;
}

/** The characters a cut tool result kept of its start and of its end (SessionPart's `truncatedKept`). */
export interface CutKept {
  first: number;
  last: number;
}

/** Where a cut at `at` may fall: never between the two halves of a surrogate pair (an emoji), which JSON would carry as a lone half. */
export function wholeAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  return at > 0 && code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff ? at - 1 : at;
}
