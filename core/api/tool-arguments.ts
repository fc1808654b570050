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
 * Codex's spawn_agent says what it asks the agent in `message` (its `task_name` is only a label), last:
 * a call with a telling argument above says that.
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
  { key: 'message', kind: 'other' },
];

/** The argument names of one kind, in TOOL_ARGUMENTS' order. */
export function toolArgumentKeys(kind?: ToolArgumentKind): string[] {
  return TOOL_ARGUMENTS.filter((a) => kind === undefined || a.kind === kind).map((a) => a.key);
}

// What a call did, by every agent's name for its tools: the sweeper's notes (files changed, commits,
// failures) read it, so a call of any captured agent counts the same.

/**
 * Tools that change a file. Claude Code: Edit, MultiEdit, Write, NotebookEdit. Codex: apply_patch.
 * Gemini CLI: write_file, replace. OpenClaw: write, edit, apply_patch. Other editors' generic names.
 */
export const EDITING_TOOLS: ReadonlySet<string> = new Set([
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'apply_patch',
  'write_file',
  'replace',
  'write',
  'edit',
  'str_replace_based_edit_tool',
  'create_file',
]);

/**
 * Tools that run a command. Claude Code: Bash. Codex: shell (argv), shell_command, exec_command
 * (`cmd`), local_shell. Gemini CLI: run_shell_command. OpenClaw: exec, and bash for a `!` command.
 */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['Bash', 'bash', 'shell', 'shell_command', 'exec_command', 'local_shell', 'run_shell_command', 'exec', 'run_command']);

/** An argument no shell reads the same unquoted: quoted, so the line reads as the one typed. */
function shellWord(word: string): string {
  return word !== '' && /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command as the line typed: a string as it is; an argv (Codex's `shell`) as its script when it
 * runs one through a shell (`["bash", "-lc", "git commit -m 'x'"]`), else its words joined.
 */
export function commandText(value: unknown): string | null {
  if (typeof value === 'string') return value !== '' ? value : null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) return null;
  const argv = value as string[];
  if (argv.length === 3 && /^(?:\/\S*\/)?(?:ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!;
  return argv.map(shellWord).join(' ');
}

/** A patch's file lines (Codex's and OpenClaw's apply_patch): each file it adds, updates, deletes or moves to. */
const PATCH_FILE = /^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+?)\s*$/gm;

/** The files a patch text touches, in its order, each once. */
export function patchedFiles(patch: string): string[] {
  return [...new Set([...patch.matchAll(PATCH_FILE)].map((m) => m[1]!))];
}
