// A stored tool result read the way its agent worded it: the exit code and the output, text in and
// text out (no storage, no history types), so the history fold and the sweeper's notes read one way.
import type { ProviderId } from './registry.js';
import { CUT_GAP } from './part-words.js';

type Json = Record<string, unknown>;

/**
 * A tool result once its agent's wording is read. `body`: what the command printed, without the
 * agent's own lines about it (the summary is cut from it); `output`: the output the stored text
 * wraps (Codex's JSON), null when the stored text reads as it is.
 */
export interface ToolResultReading {
  exitCode: number | null;
  output: string | null;
  body: string;
}

function parseObject(text: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
  } catch {
    return {};
  }
}

const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
const plain = (body: string, exitCode: number | null = null): ToolResultReading => ({ exitCode, output: null, body });

/** Claude Code writes a failed command's result as "Exit code N" (or "Error: Exit code N") first. */
const CLAUDE_EXIT = /^(?:Error: )?Exit code (\d+)/m;

function claudeResult(text: string): ToolResultReading {
  const match = CLAUDE_EXIT.exec(text.slice(0, 200));
  // After "Exit code N" the first line that says why.
  return match ? plain(text.replace(/^(?:Error: )?Exit code \d+\s*/, ''), Number(match[1])) : plain(text);
}

/** Codex's shell output as capture stores it: the JSON `{"output": …, "metadata": {"exit_code": N, …}}` it sent the model. */
const CODEX_WRAPPER = /^\s*\{\s*"output"\s*:\s*"/;
/** The same output as text (`format_exec_output_for_model_freeform`): exit code and wall time, then the output. */
const CODEX_FREEFORM = /^Exit code: (-?\d+)\nWall time: [^\n]*\n(?:Total output lines: \d+\n)?Output:\n?/;
/** `exec_command` (unified exec): an exit code only once the process ended, then the output. */
const CODEX_UNIFIED = /^(?:Total output lines: \d+\n\n)?(?:Chunk ID: [^\n]*\n)?Wall time: [^\n]*\n(?:Process exited with code (-?\d+)\n)?(?:Process running with session ID [^\n]*\n)?(?:Original token count: \d+\n)?Output:\n?/;

/**
 * A JSON string literal's characters up to its closing quote or, when the stored text was cut inside
 * it, to the cut (without a half escape): decoded, or null when they are no JSON.
 */
function jsonStringPrefix(raw: string): string | null {
  let at = 0;
  while (at < raw.length && raw[at] !== '"') {
    const size = raw[at] !== '\\' ? 1 : raw[at + 1] === 'u' ? 6 : 2;
    if (at + size > raw.length) break;
    at += size;
  }
  try {
    return JSON.parse(`"${raw.slice(0, at)}"`) as string;
  } catch {
    return null;
  }
}

/** Where a cut wrapper's end holds the output's closing quote and its metadata. */
const CODEX_METADATA = '","metadata":';

/**
 * The end of a wrapper cut at both ends (CUT_GAP; a JSON text holds no line break of its own, so the
 * first is the gap): the output's last characters and the exit code its metadata says. The end starts
 * anywhere in the output's escaped text, so the first few characters (half an escape) may be dropped.
 */
function codexWrapperEnd(end: string): { output: string; exitCode: number | null } | null {
  const at = end.lastIndexOf(CODEX_METADATA);
  if (at === -1) return null;
  const metadata = parseObject(`{${end.slice(at + 2)}`).metadata;
  const exitCode = metadata !== null && typeof metadata === 'object' ? int((metadata as Json).exit_code) : null;
  for (let skip = 0; skip < 6; skip += 1) {
    try {
      return { output: JSON.parse(`"${end.slice(skip, at)}"`) as string, exitCode };
    } catch {
      // Half an escape opens it: one character later.
    }
  }
  return { output: '', exitCode };
}

/**
 * The output and exit code of a stored wrapper; a prefix (capture kept 8 KB before it kept both ends)
 * still gives the output's start, and a wrapper cut at both ends its start and its end with the gap
 * between, and the exit code its end's metadata says.
 */
function codexWrapper(text: string): ToolResultReading | null {
  const opening = CODEX_WRAPPER.exec(text);
  if (!opening) return null;
  const value = parseObject(text);
  if (typeof value.output === 'string') {
    const metadata = value.metadata !== null && typeof value.metadata === 'object' ? (value.metadata as Json) : {};
    return { exitCode: int(metadata.exit_code), output: value.output, body: value.output };
  }
  // A cut wrapper is no JSON: its output's start is read as far as it goes, and its end, when it kept one.
  const gap = text.indexOf(CUT_GAP, opening[0].length);
  const start = jsonStringPrefix(text.slice(opening[0].length, gap === -1 ? undefined : gap));
  if (start === null) return null;
  const end = gap === -1 ? null : codexWrapperEnd(text.slice(gap + CUT_GAP.length));
  if (end === null) return { exitCode: null, output: start, body: start };
  const output = start + CUT_GAP + end.output;
  return { exitCode: end.exitCode, output, body: output };
}

function codexResult(text: string): ToolResultReading {
  const wrapped = codexWrapper(text);
  if (wrapped) return wrapped;
  const header = CODEX_FREEFORM.exec(text) ?? CODEX_UNIFIED.exec(text);
  return header ? plain(text.slice(header[0].length), header[1] !== undefined ? Number(header[1]) : null) : plain(text);
}

/** Gemini CLI's shell result: labelled lines (`Command:`, `Output:`, `Exit Code: N` …), the code only when not 0. */
const GEMINI_EXIT = /^Exit Code: (-?\d+)[ \t]*$/gm;
const GEMINI_SHELL = /^(?:Command|Output|Stdout): /;
const GEMINI_OUTPUT = /^(?:Output|Stdout): ?/m;
/** The lines Gemini writes after the output: none of them is what the command printed. */
const GEMINI_TRAILER = /^(?:(?:Exit Code|Signal|Background PIDs|Process Group PGID): .*|(?:Stderr|Error): \((?:none|empty)\))$/;

function geminiOutput(text: string): string {
  const label = GEMINI_OUTPUT.exec(text);
  const lines = (label ? text.slice(label.index + label[0].length) : text).split('\n');
  while (lines.length > 0 && (lines.at(-1)!.trim() === '' || GEMINI_TRAILER.test(lines.at(-1)!))) lines.pop();
  const body = lines.join('\n');
  return body.trim() === '(empty)' ? '' : body;
}

function geminiResult(text: string): ToolResultReading {
  // The last one is Gemini's: it follows the output, which may hold such a line of its own.
  const exit = [...text.matchAll(GEMINI_EXIT)].at(-1);
  if (!exit && !GEMINI_SHELL.test(text)) return plain(text);
  return plain(geminiOutput(text), exit ? Number(exit[1]) : null);
}

/** OpenClaw's exec tool ends a command's result with "(Command exited with code N)". */
const OPENCLAW_EXIT = /\(Command exited with code (-?\d+)\)\s*$/;

function openclawResult(text: string): ToolResultReading {
  const match = OPENCLAW_EXIT.exec(text);
  return match ? plain(text.slice(0, match.index).trimEnd(), Number(match[1])) : plain(text);
}

/** Each agent words a result its own way: one reader per provider (the compiler asks a new one for its own). */
const RESULT_READERS: Record<ProviderId, (text: string) => ToolResultReading> = { claude: claudeResult, openclaw: openclawResult, codex: codexResult, gemini: geminiResult };

/**
 * A stored tool result read by its provider's wording (Claude Code's for a provider not known here).
 * `storedExitCode`: an exit code capture kept beside the text (an OpenClaw `!` command's), the
 * command's own when the text says none.
 */
export function readToolResult(provider: string, text: string, storedExitCode?: unknown): ToolResultReading {
  const reading = (Object.hasOwn(RESULT_READERS, provider) ? RESULT_READERS[provider as ProviderId] : claudeResult)(text);
  const stored = int(storedExitCode);
  return reading.exitCode === null && stored !== null ? { ...reading, exitCode: stored } : reading;
}
