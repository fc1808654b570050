/**
 * Harness-written user text that is not the user's words: slash-command echoes and their output,
 * caveats (`<local-command-caveat>` included), reminders, hook output, task notifications, shell-mode
 * echoes, skill expansions, interruptions and the compaction summary that continues a session. This
 * is the one copy of the rule: it is applied at parse time and kept on the part as `genuineUserTurn`.
 */
const INJECTED = new RegExp(
  [
    String.raw`^\s*<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder|user-prompt-submit-hook|task-notification|bash-input|bash-stdout|bash-stderr|session-start-hook|hook-output)>`,
    String.raw`^\s*Caveat: The messages below were generated`,
    String.raw`^\s*\[Request interrupted`,
    String.raw`^\s*This session is being continued from a previous conversation`,
    String.raw`^\s*Base directory for this skill:`,
    // A hook's own status line ("SessionStart:startup hook success: …").
    String.raw`^\s*(?:SessionStart|UserPromptSubmit|PreToolUse|PostToolUse|Stop|SubagentStop|PreCompact|Notification)(?::\w+)? hook (?:success|feedback|error|additional context|blocking error)`,
  ].join('|'),
);

/** Whether a user line's text is the person's own words (the line's own flags are checked by the caller). */
export function isGenuineUserText(text: string): boolean {
  return text.trim() !== '' && !INJECTED.test(text);
}
