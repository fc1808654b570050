import type { AppStatus, StatusKind, StewardClient } from '../api/index.js';
import { oneLine, processIo, type CliIo } from './output.js';

/** How often a waiting verb asks the status how far its work has come (the owner reports every half second). */
const POLL_MS = 500;
/** Erases from the cursor to the end of the line: a shorter text leaves nothing of the longer one before it. */
const CLEAR = '\r\x1b[K';

/**
 * The words of the work a verb waits for: the status's own working item of that kind (and subject),
 * so the terminal says what the panel and `steward info` say. Undefined while there is none.
 */
export function progressText(status: AppStatus, kind: StatusKind, subject?: string | null): string | undefined {
  return status.working.find((item) => item.kind === kind && (subject === undefined || item.subject === subject))?.text;
}

/**
 * One line on a terminal, rewritten in place with `\r` and cleared at the end. Off a terminal (a pipe,
 * a log, a test) it writes nothing, so what a script reads stays byte for byte what it was.
 */
export class ProgressLine {
  readonly #write: (text: string) => void;
  readonly #tty: boolean;
  readonly #columns: number;
  #shown: string | undefined;

  /** Whether anything is ever written: a verb off a terminal need not even ask how far its work has come. */
  get tty(): boolean {
    return this.#tty;
  }

  constructor(write: (text: string) => void, terminal: { tty: boolean; columns?: number | undefined }) {
    this.#write = write;
    this.#tty = terminal.tty;
    this.#columns = terminal.columns ?? 80;
  }

  /**
   * Shows `text`; undefined (the work is no longer in the status: a forget's rows are gone and its wipe
   * runs) clears it rather than leave a figure that is no longer true. A line wider than the terminal
   * would wrap, and `\r` rewrite only its last row: it is cut.
   */
  show(text: string | undefined): void {
    if (text === undefined) return this.clear();
    if (!this.#tty) return;
    const flat = oneLine(text);
    const line = flat.length < this.#columns ? flat : `${flat.slice(0, Math.max(this.#columns - 2, 0))}…`;
    if (line === this.#shown) return;
    this.#shown = line;
    this.#write(`${CLEAR}${line}`);
  }

  clear(): void {
    if (this.#shown === undefined) return;
    this.#shown = undefined;
    this.#write(CLEAR);
  }
}

/** The progress line of this process's stderr: only the real one, and only on a terminal. */
export function stderrLine(io: CliIo): ProgressLine {
  const tty = io.stderr === processIo.stderr && process.stderr.isTTY === true;
  return new ProgressLine(io.stderr, { tty, columns: process.stderr.columns });
}

/**
 * Runs `work` and, on a terminal, says how far it has come meanwhile: the status item of `kind` (and
 * `subject`), asked of the owner every half second, as the panel and `steward info` read it. Polling,
 * not events: a client of a running owner hears none. Off a terminal it only runs `work`.
 */
export async function withProgress<T>(io: CliIo, client: StewardClient, kind: StatusKind, subject: string | null | undefined, work: Promise<T>): Promise<T> {
  const line = stderrLine(io);
  if (!line.tty) return work;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  let wake = () => undefined as void;
  const poll = async () => {
    while (!done) {
      // A status that cannot be read only leaves the line as it was: the work's own answer says what matters.
      const status = await client.call('App.Info', {}).then((info) => info.status, () => undefined);
      if (!done && status) line.show(progressText(status, kind, subject));
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, POLL_MS);
      });
    }
  };
  const polling = poll();
  try {
    return await work;
  } finally {
    // The answer is not held back for the next poll: the wait ends now.
    done = true;
    clearTimeout(timer);
    wake();
    await polling;
    line.clear();
  }
}
