import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StewardError, type StewardClient } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { isAlive, lockHolder, lockMarker } from '../../store/lock/index.js';
import { runningOwner } from '../launch.js';
import { whileInterruptible } from '../files.js';
import { EXIT, printJson, type CliIo } from '../output.js';
import type { StopHook } from './indexing.js';

/** The verb a one-shot backfill's lock names (acquireOwnerLock): what `--cancel` may ask to stop. */
export const BACKFILL_VERB = 'backfill';

/**
 * The request `steward backfill --cancel` leaves in STEWARD_HOME for the one-shot backfill holding the
 * store: `{"pid":…,"marker":…}`, the holder as its lock names it. No signal is sent: a lock's pid may
 * be an unrelated process's by now (a crash, then pid reuse, and no identity where there is no /proc).
 */
export const CANCEL_REQUEST_FILE = 'backfill.cancel';

/** How often a one-shot backfill looks for a request: a missing file costs one failed open. */
const POLL_MS = 250;
/** How long `--cancel` waits for its request to be taken: a backfill looks every POLL_MS, between its batches. */
const TAKE_WAIT_MS = 5_000;
/** How long `--cancel` waits in all for the backfill to stop: it stops between batches. */
const STOP_WAIT_MS = 30_000;
/** How often an interrupted import asks again to cancel while its runs are still being queued. */
const RETRY_MS = 100;

interface CancelRequest {
  pid: number;
  marker: string;
}

function parseRequest(text: string): CancelRequest | undefined {
  try {
    const value = JSON.parse(text) as Partial<CancelRequest> | null;
    return typeof value?.pid === 'number' && typeof value.marker === 'string' ? { pid: value.pid, marker: value.marker } : undefined;
  } catch {
    return undefined;
  }
}

/** How often, and how long apart, a rename the system refuses for a while (a reader holding the file on Windows) is tried again. */
const TAKE_TRIES = 3;
const TAKE_RETRY_MS = 50;

/**
 * Takes the request file away, whole: renamed aside first, so of a backfill taking it and `--cancel`
 * withdrawing it exactly one succeeds; its text, or undefined when there was none (or another took it).
 * Any other refusal is tried again briefly, then thrown: it is not "someone else took it".
 */
async function takeRequest(file: string): Promise<string | undefined> {
  const aside = `${file}.${process.pid}.taken`;
  for (let tries = 1; ; tries++) {
    try {
      renameSync(file, aside);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      if (tries >= TAKE_TRIES) throw error;
      await sleep(TAKE_RETRY_MS);
    }
  }
  try {
    return readFileSync(aside, 'utf8');
  } catch {
    return '';
  } finally {
    rmSync(aside, { force: true });
  }
}

/** The request this process may act on: one naming its pid and the marker of the lock it holds. */
function isOurs(request: CancelRequest | undefined, marker: string): boolean {
  return request?.pid === process.pid && request.marker === marker;
}

/**
 * Calls `onRequest` for each `--cancel` request naming this process (and its lock's marker) that
 * appears in `home`, until stopped: a second `--cancel` while the first is honoured is taken and
 * answered as the first. A request there at the start naming anyone else is left from before: it is
 * removed. Returns the stop function, which looks once more first, so a request left just before the
 * end is taken rather than left unanswered. Nothing is watched when this process does not hold the
 * lock with a marker.
 */
function watchForRequests(home: string, onRequest: () => void): () => Promise<void> {
  const own = lockMarker(home);
  if (own?.pid !== process.pid) return () => Promise.resolve();
  const file = join(home, CANCEL_REQUEST_FILE);
  const look = async (start: boolean): Promise<void> => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    // Someone else's request (a lock since gone) is left for its writer to withdraw, except at our start, when it can only be stale.
    if (!isOurs(parseRequest(text), own.marker)) {
      if (start) await takeRequest(file);
      return;
    }
    if (isOurs(parseRequest((await takeRequest(file)) ?? ''), own.marker)) onRequest();
  };
  // One look at a time. One the system keeps refusing is simply the next one's to try: the file stays,
  // and a `--cancel` whose request is never taken says so and withdraws it.
  let looking: Promise<void> | undefined;
  const next = (start: boolean): Promise<void> => (looking ??= look(start).catch(() => undefined).finally(() => (looking = undefined)));
  void next(true);
  const timer = setInterval(() => void next(false), POLL_MS);
  // The import's own work keeps the process alive; the watch never does.
  timer.unref();
  return async () => {
    clearInterval(timer);
    await looking;
    await next(false);
  };
}

/** What a one-shot backfill's work is handed while `--cancel` requests are watched for (withCancelRequests). */
export interface CancelWatch {
  /** Runs the import: the first Ctrl-C, or a request, cancels it between batches. */
  importing<T>(backfill: Promise<T>): Promise<{ result: T; interrupted: boolean }>;
  /** awaitIndexing's stop hook: a request once the import has finished stops that wait, as Ctrl-C there does. */
  onStop: StopHook;
}

/**
 * Runs `work`, the whole of a one-shot backfill's client work (no owner runs), watching for requests
 * from `steward backfill --cancel` in another terminal from its start to its end, and answering each:
 * before and during the import, it is cancelled between batches, as Cancel in the panel does, so what
 * it imported stays and its result says how far it came (a cancel before its runs are queued asks again
 * until they are, or it ends); after, the wait for its indexing stops, as Ctrl-C there does. Ctrl-C
 * during the import cancels it too: the first says that a second one stops at once, and only then does
 * one. That handler stays until the import settles, so no interrupt ends it unannounced.
 */
export async function withCancelRequests<T>(io: CliIo, client: StewardClient, work: (watch: CancelWatch) => Promise<T>): Promise<T> {
  let settled = false;
  let interrupted = false;
  /** Asked to stop after the import settled, and the wait to stop then, once one runs. */
  let askedAfter = false;
  let stopWait: (() => void) | undefined;
  const cancel = async () => {
    if (interrupted) return;
    interrupted = true;
    while (!settled) {
      const asked = await client.call('Backfill.Cancel', {}).catch(() => ({ cancelled: 0 }));
      if (asked.cancelled > 0) return;
      await sleep(RETRY_MS);
    }
  };
  const onRequest = () => {
    // Already stopping: a later request is answered as the first (its `--cancel` waits for the end).
    if (interrupted) return;
    if (!settled) {
      io.stderr('`steward backfill --cancel` asked this import to stop: cancelling after its current batch; what it imported stays.\n');
      void cancel();
      return;
    }
    if (!askedAfter) io.stderr('`steward backfill --cancel` asked this import to stop: it had finished importing, so only the wait for its indexing stops.\n');
    askedAfter = true;
    stopWait?.();
  };
  const importing = async <R>(backfill: Promise<R>): Promise<{ result: R; interrupted: boolean }> => {
    let interrupts = 0;
    const onInterrupt = () => {
      interrupts += 1;
      if (interrupts > 1) {
        io.stderr('Stopped at once.\n');
        process.exit(130);
      }
      io.stderr('Cancelling the import after its current batch; what it imported stays. Press Ctrl-C again to stop at once.\n');
      void cancel();
    };
    process.on('SIGINT', onInterrupt);
    try {
      return { result: await backfill, interrupted };
    } finally {
      settled = true;
      process.off('SIGINT', onInterrupt);
    }
  };
  const onStop: StopHook = (stop) => {
    if (askedAfter) stop();
    stopWait = stop;
    return () => (stopWait = undefined);
  };
  const stopWatching = watchForRequests(resolveHome(io.env).dir, onRequest);
  try {
    return await work({ importing, onStop });
  } finally {
    await stopWatching();
  }
}

/** Writes the request whole (a reader never sees half of it), readable by this user alone. */
function writeRequest(file: string, request: CancelRequest): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(request), { mode: 0o600 });
  renameSync(partial, file);
}

/** Whether the holder `lock` names has let go of the store: its lock is another's or gone, or it ended. */
function released(home: string, lock: CancelRequest): boolean {
  return lockMarker(home)?.marker !== lock.marker || !isAlive(lock.pid);
}

/** The import ended on its own before it saw the request: nothing was cancelled. */
function finishedFirst(io: CliIo, json: boolean | undefined, pid: number): number {
  if (json) printJson(io, { cancelled: 0, pid, stopped: true });
  else io.stdout(`The running import (pid ${pid}) finished before it was asked to stop.\n`);
  return EXIT.ok;
}

/** Waits until `done`, or `deadline`; whether it came. */
async function waitUntil(done: () => boolean, deadline: number): Promise<boolean> {
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * `steward backfill --cancel` when no owner runs but a one-shot `steward backfill` of this home holds
 * the store: a request naming it is left for it (withCancelRequests takes it and cancels as Ctrl-C
 * does), and it is waited for. Nothing is signalled, so a lock left by a crash whose pid is now another
 * process's affects nothing: the request, untaken, is withdrawn and that is said. Ctrl-C while waiting
 * withdraws it too, if it is still there. A lock of another verb, of this very process, or without a
 * marker (a version that takes no requests) is undefined, and the caller goes on as before (an owner
 * is asked; another command refuses).
 */
export async function cancelOneShotBackfill(io: CliIo, json: boolean | undefined): Promise<number | undefined> {
  if (await runningOwner(io.env)) return undefined;
  const home = resolveHome(io.env).dir;
  const holder = lockHolder(home);
  if (holder?.role !== 'command' || holder.verb !== BACKFILL_VERB || holder.pid === process.pid) return undefined;
  const lock = lockMarker(home);
  if (lock?.pid !== holder.pid) return undefined;
  const file = join(home, CANCEL_REQUEST_FILE);
  return whileInterruptible(async (signal) => {
    const start = Date.now();
    writeRequest(file, lock);
    const over = () => signal.aborted;
    await waitUntil(() => over() || !existsSync(file) || released(home, lock), start + TAKE_WAIT_MS);
    // Still there: nobody took it, and it is withdrawn (a later backfill would not take it either, but it is ours to remove).
    if ((await takeRequest(file)) !== undefined) {
      if (over()) throw new StewardError('cancelled', 'Interrupted: the request to stop was withdrawn; nothing was stopped.', { pid: lock.pid });
      if (released(home, lock)) return finishedFirst(io, json, lock.pid);
      throw new StewardError(
        'busy',
        `No running import took the request to stop (pid ${lock.pid}, named by the store lock, did not answer in ${TAKE_WAIT_MS / 1000} s: it may be a lock left by an import that ended, or a busy one). The request was withdrawn; nothing was stopped.`,
        { pid: lock.pid },
      );
    }
    // Taken, so the pid is that import's: what is said of it waits for its end, as `steward stop` does.
    if (!(await waitUntil(() => over() || !isAlive(lock.pid), start + STOP_WAIT_MS)) && !released(home, lock)) {
      throw new StewardError('busy', `The running import (pid ${lock.pid}) took the request to stop but has not stopped after ${STOP_WAIT_MS / 1000} s; it stops after its current batch, keeping what it imported.`, { pid: lock.pid });
    }
    if (over() && isAlive(lock.pid) && !released(home, lock)) {
      throw new StewardError('cancelled', `Interrupted: the running import (pid ${lock.pid}) had already taken the request to stop, and is stopping; what it imported stays.`, { pid: lock.pid });
    }
    if (json) printJson(io, { cancelled: 1, pid: lock.pid, stopped: true });
    else io.stdout(`Asked the running import (pid ${lock.pid}) to stop; it stopped. What it had imported stays.\n`);
    return EXIT.ok;
  });
}
