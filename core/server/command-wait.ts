import { setTimeout as sleep } from 'node:timers/promises';
import { StewardError } from '../api/index.js';
import { commandHolding } from '../store/lock/index.js';

/** Where a wait for a one-shot command stands: `waitedMs` is 0 when it starts. */
export interface CommandWait {
  pid: number;
  waitedMs: number;
}

/** How an owner starting waits while a one-shot steward command (a CLI verb with no owner to talk to) holds the store. */
export interface WhileCommandRuns {
  /** When to give up; a few minutes by default, as long as a first import of a large history takes. */
  timeoutMs?: number;
  /** Told when the wait starts and then about every 10 s (`steward serve` prints it; the app logs it). */
  onWait?: (wait: CommandWait) => void;
  /** Stops the wait (the person gave up): the start fails with `cancelled`. */
  signal?: AbortSignal;
}

const WAIT_MS = 5 * 60_000;
const POLL_MS = 250;
const PROGRESS_MS = 10_000;

/**
 * Opens with `open`, and while a one-shot command holds the lock, tries again until it lets go: such
 * a command finishes on its own, where a running owner does not (that refusal is thrown at once).
 */
export async function openAfterCommands<T>(open: () => T, options: WhileCommandRuns = {}): Promise<T> {
  const started = Date.now();
  let told: { pid: number; at: number } | undefined;
  for (;;) {
    try {
      return open();
    } catch (error) {
      const pid = commandHolding(error);
      if (pid === undefined) throw error;
      const waitedMs = told ? Date.now() - started : 0;
      if (Date.now() - started >= (options.timeoutMs ?? WAIT_MS)) throw stillHeld(pid, Date.now() - started);
      // A first notice, one per ~10 s after it, and one more when another command took over the lock.
      if (told?.pid !== pid || Date.now() - told.at >= PROGRESS_MS) {
        options.onWait?.({ pid, waitedMs });
        told = { pid, at: Date.now() };
      }
      await pause(options.signal);
    }
  }
}

async function pause(signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(POLL_MS, undefined, signal ? { signal } : {});
  } catch {
    // Only an abort rejects the sleep.
    throw new StewardError('cancelled', 'Stopped waiting for the steward command to finish; Steward did not start.');
  }
}

/** `45 s`, `5 min`: how long a wait took, as its notices say it. */
function waitedWords(waitedMs: number): string {
  return waitedMs < 90_000 ? `${Math.round(waitedMs / 1000)} s` : `${Math.round(waitedMs / 60_000)} min`;
}

function stillHeld(pid: number, waitedMs: number): StewardError {
  return new StewardError('busy', `A steward command (pid ${pid}) is still using the store after ${waitedWords(waitedMs)}; start Steward again when it finishes.`, { pid });
}
