/**
 * Harness-written user text that is not the user's words: slash-command echoes and their output,
 * caveats (`<local-command-caveat>` included), reminders and IDE context (LEADING_CONTEXT), hook
 * output, task notifications, shell-mode echoes, skill expansions, interruptions and the compaction
 * summary that continues a session. This is the one copy of the rule: it is applied at parse time and
 * kept on the part as `genuineUserTurn` (with what the row says of its origin, see parse.ts).
 */
const TAGS = [
  'command-name',
  'command-message',
  'command-args',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'user-prompt-submit-hook',
  'task-notification',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'session-start-hook',
  'hook-output',
].join('|');
const INJECTED = new RegExp(
  [
    // A whole element: a prompt that only starts with a tag's name ("<command-name> shows up…") is the user's.
    String.raw`^\s*<(${TAGS})>[\s\S]*?</\1>`,
    String.raw`^\s*Caveat: The messages below were generated`,
    String.raw`^\s*\[Request interrupted`,
    String.raw`^\s*This session is being continued from a previous conversation`,
    String.raw`^\s*Base directory for this skill:`,
    // A hook's own status line ("SessionStart:startup hook success: …").
    String.raw`^\s*(?:SessionStart|UserPromptSubmit|PreToolUse|PostToolUse|Stop|SubagentStop|PreCompact|Notification)(?::\w+)? hook (?:success|feedback|error|additional context|blocking error)`,
  ].join('|'),
);

/**
 * Context Claude Code puts before the user's words: reminders, and the file or selection the VS Code
 * extension says is open (a block of its own, or prepended to the prompt in the same text).
 */
const LEADING_CONTEXT = /^\s*<(system-reminder|ide_opened_file|ide_selection)>[\s\S]*?<\/\1>/;

/**
 * The user's own words in a user line's text (the line's own flags are checked by the caller): the
 * text without the context Claude Code put before it, or undefined when the harness wrote it all.
 */
export function userWords(text: string): string | undefined {
  let rest = text;
  for (let match = LEADING_CONTEXT.exec(rest); match; match = LEADING_CONTEXT.exec(rest)) rest = rest.slice(match[0].length);
  if (rest.trim() === '' || INJECTED.test(rest)) return undefined;
  return rest === text ? text : rest.trimStart();
}

/** Whether a user line's text is the person's own words (the line's own flags are checked by the caller). */
export function isGenuineUserText(text: string): boolean {
  return userWords(text) !== undefined;
}
