import type { Command } from 'commander';
import { join } from 'node:path';
import { DATE_FORMS, namedFor, parseDateText, StewardError, toStewardError } from '../api/index.js';
import { HOME_FILES, resolveHome } from '../config/index.js';
import { launchOwner } from './launch.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Asks a yes/no question in a terminal; absent (or false) where nobody can answer. */
  confirm?: (question: string) => Promise<boolean>;
  /** Everything on standard input (a secret's value, never an argument that `ps` would show). */
  stdin?: () => Promise<string>;
  /** True when a person can answer `confirm` here (a terminal); without it a confirmation must come as --yes. */
  interactive?: () => boolean;
  /** Starts an owner in the background and waits until it answers (`steward serve`, detached). */
  launchOwner?: (env: NodeJS.ProcessEnv) => Promise<void>;
  /** Waits until stdout has taken what was written (see drained); absent where writes are taken at once (a test). */
  stdoutDrained?: () => Promise<void>;
  /** True when stdout is a terminal (an export printed there has its controls escaped: terminalText); absent means not. */
  stdoutIsTerminal?: () => boolean;
  /**
   * Writers for a long-running owner's own lines (`steward serve`): unlike stdout and stderr above, they
   * never throw nor end the process whatever becomes of the console (EPIPE, EIO, ENOSPC: consoleMirror);
   * `onGone` is told once per stream, with the error's code. Absent where writes cannot fail (a test).
   */
  lastingConsole?: (onGone: (stream: 'stdout' | 'stderr', code: string) => void) => Promise<Pick<CliIo, 'stdout' | 'stderr'>>;
}

/** A question in the terminal, answered with y/yes; no terminal means no. */
async function askInTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/** Reads stdin to its end; on a terminal, one line typed without echo. */
async function readStdin(): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of input) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  process.stderr.write('Value (not shown): ');
  input.setRawMode(true);
  input.resume();
  return new Promise((resolve) => {
    let value = '';
    const done = (text: string) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(value);
        if (ch === '\u0003') return done('');
        value = ch === '\u007f' ? value.slice(0, -1) : value + ch;
      }
    };
    input.on('data', onData);
  });
}

/**
 * The reader of the output went away (`steward projects | head -4` closed the pipe): not the command's
 * failure. Thrown by the next write to stdout, so the command stops there and exits 0, as `git log | head`.
 */
export class ClosedOutput extends Error {
  constructor() {
    super('the reader of the output went away');
  }
}

/**
 * Writes to a stream until its reader goes away. A closed pipe (EPIPE) comes as the stream's 'error'
 * event after the write that met it; unheard, it crashed the process with a stack trace. From then on
 * a write throws ClosedOutput (`endOnClose`, stdout: the command ends) or is dropped (stderr: an error
 * being reported must not fail in turn). Any other error of the stream (ENOSPC, EIO) is thrown and ends
 * the process with exit code 1: a one-shot command whose output was lost did not succeed. A long-running
 * owner writes through lastingConsole instead.
 */
export function pipeWriter(stream: NodeJS.WritableStream, endOnClose: boolean): (text: string) => void {
  let closed = false;
  let heard = false;
  return (text) => {
    // Listened to at the first write, not at import: a test or the MCP server owns the stream otherwise.
    if (!heard) {
      heard = true;
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
        closed = true;
      });
    }
    if (closed) {
      if (endOnClose) throw new ClosedOutput();
      return;
    }
    stream.write(text);
  };
}

/**
 * Resolves once the stream's buffer is under its mark again: at once when it is already, or when the
 * stream is gone (a closed pipe: the next write says so, see pipeWriter). Awaited between the pieces of
 * a long output, so a slow reader (a pipe on macOS is written asynchronously) holds one piece, not all.
 */
export function drained(stream: NodeJS.WritableStream & { writableNeedDrain: boolean; destroyed: boolean }): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) stream.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) stream.once(event, done);
  });
}

export const processIo: CliIo = {
  stdout: pipeWriter(process.stdout, true),
  stderr: pipeWriter(process.stderr, false),
  env: process.env,
  confirm: askInTerminal,
  stdin: readStdin,
  interactive: () => process.stdin.isTTY === true && process.stderr.isTTY === true,
  launchOwner,
  stdoutDrained: () => drained(process.stdout),
  stdoutIsTerminal: () => process.stdout.isTTY === true,
  lastingConsole: async (onGone) => {
    // Loaded by serve alone: a one-shot verb does not load the log room.
    const { consoleMirror } = await import('../log/index.js');
    return { stdout: consoleMirror(process.stdout, (code) => onGone('stdout', code)), stderr: consoleMirror(process.stderr, (code) => onGone('stderr', code)) };
  },
};

/** Exit codes of the contract surface: 0 success, 1 failure, 2 usage error. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export class UsageError extends Error {}

/** Runs a verb's action and turns its outcome (or its error) into the exit code; `json` shapes errors. */
export type Run = (action: () => Promise<number>, json?: boolean) => Promise<void>;

/**
 * What a title may not bring onto a terminal line: controls (C0 with ESC, DEL, C1, whose U+009B some
 * terminals take as the start of a sequence), lone surrogates, line and paragraph separators, and the bidi
 * embeddings, overrides and isolates that reorder what the terminal shows after them.
 */
const NOT_ON_ONE_LINE = /[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const LINE_CHARS = 100;
// Made for the first title over LINE_CHARS, not at import (the first Intl object loads ICU, api/words.ts).
let graphemes: Intl.Segmenter | undefined;

/** A title or a first request on one line of a list: each such character as a space, at most 100 characters, never cut inside one. */
export function oneLine(text: string): string {
  const flat = text.replace(NOT_ON_ONE_LINE, ' ').replace(/ +/g, ' ').trim();
  // A text of at most 100 code units is at most 100 characters: only a longer one is counted by what is seen.
  if (flat.length <= LINE_CHARS) return flat;
  const chars = Array.from((graphemes ??= new Intl.Segmenter()).segment(flat), (s) => s.segment);
  return chars.length > LINE_CHARS ? `${chars.slice(0, LINE_CHARS - 1).join('')}…` : flat;
}

/**
 * The controls a terminal acts on (C0 but newline and tab, ESC among them; DEL; C1, whose U+009B some
 * terminals take as ESC [): transcript text may hold what an agent read off an attacker's page, and a
 * sequence in it printed raw retitles, clears or rewrites the terminal of whoever reads it.
 */
const TERMINAL_CONTROLS = /(?![\n\t])\p{Cc}/gu;

/**
 * Text for a person's terminal: each control shown as a visible escape (`\x1b`, `\r`), nothing else
 * changed. Every human-readable print of transcript-derived text (messages, titles, project names,
 * snippets, an export printed to a terminal) goes through it; --json, a pipe's export and --output keep the
 * text as stored, and nothing stored is changed.
 */
export function terminalText(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (c) => (c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** Human-readable output that may hold transcript-derived text, written as terminalText. */
export function printText(io: CliIo, text: string): void {
  io.stdout(terminalText(text));
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** printJson's output around one string of an object, and that string's escaped text given in pieces. */
export interface JsonInPieces {
  /** Everything before the string's text, its opening quote included. */
  head: string;
  /** The next piece of the string, escaped as JSON.stringify escapes it. */
  piece(text: string): string;
  /** The rest of the string's text held back, its closing quote, and everything after (the final newline too). */
  tail(): string;
}

/** The first half of a surrogate pair, last in a piece (read off its last unit: a regex would scan a million characters). */
function endsInPairCut(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/** A string's text as JSON.stringify writes it, without its quotes. */
const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * printJson of `value` with its string `key` written as its pieces come (an export's content), so a
 * document is never held whole: the same bytes as printJson of the joined string. The object around it
 * is printJson's own output with that string empty, cut at it. A pair cut between pieces waits for its
 * second half: alone, JSON.stringify would write each half as \udXXX.
 */
export function jsonInPieces(value: Record<string, unknown>, key: string): JsonInPieces {
  const whole = `${JSON.stringify({ ...value, [key]: '' }, null, 2)}\n`;
  // A raw newline is never inside a JSON string: this is the key's own line, at the top level.
  const line = `\n  ${JSON.stringify(key)}: "`;
  const cut = whole.indexOf(line) + line.length;
  let held = '';
  return {
    head: whole.slice(0, cut),
    piece(text) {
      const joined = held + text;
      held = endsInPairCut(joined) ? joined.slice(-1) : '';
      return escaped(held === '' ? joined : joined.slice(0, -1));
    },
    tail: () => escaped(held) + whole.slice(cut),
  };
}

/**
 * A refusal of request fields, by core (refusedField) or by the contract's schema, said with the flags
 * `command` takes for them (namedFor, the one rule: `baseUrl` as `--base-url`), as the person typed
 * them; a field it has no flag for, or any other error, passes as it is. Every verb's failure goes
 * through it (runCli's run), so no verb says a rule of its own.
 */
export function inFlagNames(command: Command, error: unknown): unknown {
  const flagOf = (field: string) => {
    const flag = `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return command.options.some((o) => o.long === flag) ? flag : undefined;
  };
  return error instanceof StewardError ? namedFor(error, flagOf) : error;
}

/**
 * A refusal of the settings file names it `config.json` (core says no folder: its words reach logs and
 * status). On the person's own terminal it is named in full, so they know which file to open.
 */
export function configInFull(error: StewardError, env: NodeJS.ProcessEnv): StewardError {
  const named = `${HOME_FILES.config}:`;
  if (error.code !== 'config_invalid' || !error.message.startsWith(named)) return error;
  const message = `${join(resolveHome(env).dir, HOME_FILES.config)}:${error.message.slice(named.length)}`;
  return new StewardError(error.code, message, error.details);
}

/** One clear line on stderr, or `{"error":{code,message}}` on stdout with --json. */
export function reportError(io: CliIo, error: unknown, json: boolean): number {
  // Nobody reads the output any more: nothing to say, and nothing failed.
  if (error instanceof ClosedOutput) return EXIT.ok;
  if (error instanceof UsageError) {
    if (json) printJson(io, { error: { code: 'invalid_params', message: error.message } });
    else io.stderr(`steward: ${error.message}\n`);
    return EXIT.usage;
  }
  const typed = configInFull(error instanceof StewardError ? error : toStewardError(error), io.env);
  // What to do about it travels with the error: a blocked plan's remedy, the command a person runs.
  const extra = Object.fromEntries(['remediation', 'handoff'].flatMap((k) => (typeof typed.details?.[k] === 'string' ? [[k, typed.details[k] as string]] : [])));
  // A refused request's message names the field in words; scripts also get the method that refused it,
  // and, when the refusal came from a running owner of another build, both builds (core/cli/connect.ts).
  const mismatch = typed.details?.ownerMismatch !== undefined ? { ownerMismatch: typed.details.ownerMismatch } : {};
  const refused = typed.code === 'invalid_params' || 'ownerMismatch' in mismatch;
  const method = refused && typeof typed.details?.method === 'string' ? { method: typed.details.method } : {};
  // A refusal to go ahead unconfirmed carries what would have been done (confirm.ts): scripts read it there.
  const plan = typed.code === 'confirmation_required' && typed.details?.plan !== undefined ? { details: { plan: typed.details.plan } } : {};
  if (json) printJson(io, { error: { code: typed.code, message: typed.message, ...method, ...mismatch, ...extra, ...plan } });
  // A message may name a title or a project (a forgotten conversation's words): escaped as any print of them is.
  else io.stderr(`steward: ${terminalText([typed.message.split('\n')[0], extra.remediation, extra.handoff ? `Run: ${extra.handoff}` : undefined].filter(Boolean).join(' '))}\n`);
  return typed.code === 'invalid_params' ? EXIT.usage : EXIT.failure;
}

/**
 * A whole number from `min` to `max`, or a usage error saying which numbers the flag takes, whatever
 * was wrong with the value (`-1` read as "not a whole number" when the trouble is its sign).
 */
export function parseIntOption(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number.parseInt(value, 10) : Number.NaN;
  if (Number.isNaN(n) || n < min || n > max) {
    const range = min === 1 ? `a positive whole number, at most ${max}` : `a whole number from ${min} to ${max}`;
    throw new UsageError(`${name} must be ${range}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * A date (`2026-11-29`), an ISO time, or a span back from now (`30m`, `12h`, `7d`, `2w`), as epoch ms
 * (parseDateText, which MCP reads dates through too). A date or time without an offset is the person's
 * own, in the machine's zone; a date alone is the whole day, so as the `to` end it runs through that
 * day's last ms (see parseIsoDate).
 */
export function parseDateOption(name: string, value: string, now = Date.now(), end: 'from' | 'to' = 'from'): number {
  return readDateOption(name, value, now, end).ms;
}

function readDateOption(name: string, value: string, now: number, end: 'from' | 'to'): { ms: number; span: boolean } {
  const date = parseDateText(value, { zone: 'local', end }, now);
  if ('ms' in date) return date;
  // A date written as one that does not exist (2026-02-30) says so; anything else gets the forms.
  if (date.invalid === 'date') throw new UsageError(`${name}: ${date.error}`);
  throw new UsageError(`${name} expects ${DATE_FORMS}, got ${JSON.stringify(value)}`);
}

/** `--from`/`--to` resolved, and the flags a next-page hint repeats so that following it asks for the same search. */
export interface DateOptions {
  range: { from?: number; to?: number };
  pinned: string[];
}

/**
 * `--from` and `--to`, read against one now. A cursor belongs to the exact search that gave it out, dates
 * included, and a span (`7d`) would name a later instant when the next page is asked for; so each span is
 * pinned as the instant it meant on this run (given after the span, the later flag wins).
 */
export function dateOptions(options: { from?: string | undefined; to?: string | undefined }, now = Date.now()): DateOptions {
  const result: DateOptions = { range: {}, pinned: [] };
  for (const name of ['from', 'to'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    const { ms, span } = readDateOption(`--${name}`, value, now, name);
    result.range[name] = ms;
    if (span) result.pinned.push(`--${name}`, new Date(ms).toISOString());
  }
  // Said here in the flags' words: the contract refuses it too, but in its own (params from and to).
  const { from, to } = result.range;
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${options.from!} is after --to ${options.to!}: nothing can match`);
  return result;
}

/** The flags that ask for the next page: the pinned dates, then the cursor. */
function moreArgs(cursor: string, pinned: readonly string[]): string[] {
  return [...pinned, '--cursor', cursor];
}

/** A time as the CLI prints it (core/api: the sweeper words a backoff's end the same way). */
export { localTime } from '../api/index.js';

/** The hint under a page that has a next one: the flags to add, the pinned dates before the cursor. */
export function moreHint(cursor: string, pinned: readonly string[] = []): string {
  return `More: add ${moreArgs(cursor, pinned).join(' ')}`;
}

/**
 * A page as `--json` prints it: the call's result, and when it has a next page, `more`, the flags a
 * script adds to ask for it (a span such as `--from 7d` pinned to the instant it meant on this run).
 */
export function pageJson<T extends { cursor?: string | undefined }>(result: T, pinned: readonly string[]): T & { more?: string[] } {
  return result.cursor ? { ...result, more: moreArgs(result.cursor, pinned) } : result;
}

/** One of a fixed list of words, in any case (`--format JSON` is json), or a usage error naming them. */
export function choiceOption<T extends string>(name: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const word = value.toLowerCase();
  const found = choices.find((c) => c.toLowerCase() === word);
  if (found === undefined) throw new UsageError(`${name} must be one of ${choices.join(', ')}`);
  return found;
}

/** Words a command needs (a query, an id): blank is a usage error naming them, not the contract's complaint. */
export function requiredText(name: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`${name} is empty`);
  return value;
}
