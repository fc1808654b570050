// The names agents give a tool call's arguments, one list for every reader of stored calls: the
// history room's one-line fold of a call and the sweeper's digest (which file a call touched, which
// command it ran) both take theirs from here, so an agent's argument added once reaches both.

/** What an argument is to a reader: a command run, a file or folder named, or another telling word. */
export type ToolArgumentKind = 'command' | 'path' | 'other';

/**
 * The argument a person recognises a call by, in the order a fold looks for one. Claude Code:
 * `command`, `file_path`, `pattern`, `path`, `notebook_path`, `url`, `query`, `description`, `prompt`.
 * Codex: `command` (argv or line), `cmd` (exec_command), `path`, `file_path`, `dir_path`. Gemini CLI:
 * `absolute_path` (read_file), `file_path` (write_file, replace), `dir_path` (list_directory, glob,
 * search_file_content, run_shell_command), `pattern`, `query`, `url`. OpenClaw: `command`, `path`.
 * A search's pattern comes before the folder it searched (Grep, Glob and Gemini's search take both).
 */
export const TOOL_ARGUMENTS: ReadonlyArray<{ key: string; kind: ToolArgumentKind }> = [
  { key: 'command', kind: 'command' },
  { key: 'cmd', kind: 'command' },
  { key: 'file_path', kind: 'path' },
  { key: 'absolute_path', kind: 'path' },
  { key: 'pattern', kind: 'other' },
  { key: 'path', kind: 'path' },
  { key: 'dir_path', kind: 'path' },
  { key: 'notebook_path', kind: 'path' },
  { key: 'url', kind: 'other' },
  { key: 'query', kind: 'other' },
  { key: 'description', kind: 'other' },
  { key: 'prompt', kind: 'other' },
];

/** The argument names of one kind, in TOOL_ARGUMENTS' order. */
export function toolArgumentKeys(kind?: ToolArgumentKind): string[] {
  return TOOL_ARGUMENTS.filter((a) => kind === undefined || a.kind === kind).map((a) => a.key);
}
