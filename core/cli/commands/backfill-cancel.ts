import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StewardError, type StewardClient } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { isAlive, lockHolder, lockMarker } from '../../store/lock/index.js';
import { runningOwner } from '../launch.js';
import { EXIT, printJson, type CliIo } from '../output.js';

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

/**
 * Takes the request file away, whole: renamed aside first, so of a backfill taking it and `--cancel`
 * withdrawing it exactly one succeeds; its text, or undefined when there was none (or another took it).
 */
function takeRequest(file: string): string | undefined {
  const aside = `${file}.${process.pid}.taken`;
  try {
    renameSync(file, aside);
  } catch {
    return undefined;
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
 * Calls `onRequest` once when a `--cancel` request naming this process (and its lock's marker) appears
 * in `home`. A request there at the start naming anyone else is left from before: it is removed. Returns
 * the stop function; nothing is watched when this process does not hold the lock with a marker.
 */
function watchForRequest(home: string, onRequest: () => void): () => void {
  const own = lockMarker(home);
  if (own?.pid !== process.pid) return () => undefined;
  const file = join(home, CANCEL_REQUEST_FILE);
  const look = (start: boolean): boolean => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return false;
    }
    // Someone else's request (a lock since gone) is left for its writer to withdraw, except at our start, when it can only be stale.
    if (!isOurs(parseRequest(text), own.marker)) {
      if (start) takeRequest(file);
      return false;
    }
    if (!isOurs(parseRequest(takeRequest(file) ?? ''), own.marker)) return false;
    onRequest();
    return true;
  };
  if (look(true)) return () => undefined;
  const timer = setInterval(() => {
    if (look(false)) clearInterval(timer);
  }, POLL_MS);
  // The import's own work keeps the process alive; the watch never does.
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * An import in this process (no owner runs): the first Ctrl-C, or a request from `steward backfill
 * --cancel` in another terminal, cancels it between batches, as Cancel in the panel does, so what it
 * imported stays and its result says how far it came. The first Ctrl-C says that a second one stops at
 * once, and only then does one. The handler stays until the import settles, so no interrupt ends it
 * unannounced. A cancel before its runs are queued asks again until they are, or it ends.
 */
export async function cancelledOnInterrupt<T>(io: CliIo, client: StewardClient, backfill: Promise<T>): Promise<{ result: T; interrupted: boolean }> {
  let settled = false;
  let interrupted = false;
  let interrupts = 0;
  const cancel = async () => {
    if (interrupted) return;
    interrupted = true;
    while (!settled) {
      const asked = await client.call('Backfill.Cancel', {}).catch(() => ({ cancelled: 0 }));
      if (asked.cancelled > 0) return;
      await sleep(RETRY_MS);
    }
  };
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts > 1) {
      io.stderr('Stopped at once.\n');
      process.exit(130);
    }
    io.stderr('Cancelling the import after its current batch; what it imported stays. Press Ctrl-C again to stop at once.\n');
    void cancel();
  };
  const onRequest = () => {
    io.stderr('`steward backfill --cancel` asked this import to stop: cancelling after its current batch; what it imported stays.\n');
    void cancel();
  };
  process.on('SIGINT', onInterrupt);
  const stopWatching = watchForRequest(resolveHome(io.env).dir, onRequest);
  try {
    return { result: await backfill, interrupted };
  } finally {
    settled = true;
    stopWatching();
    process.off('SIGINT', onInterrupt);
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
 * the store: a request naming it is left for it (cancelledOnInterrupt takes it and cancels as Ctrl-C
 * does), and it is waited for. Nothing is signalled, so a lock left by a crash whose pid is now another
 * process's affects nothing: the request, untaken, is withdrawn and that is said. A lock of another verb,
 * of this very process, or without a marker (a version that takes no requests) is undefined, and the
 * caller goes on as before (an owner is asked; another command refuses).
 */
export async function cancelOneShotBackfill(io: CliIo, json: boolean | undefined): Promise<number | undefined> {
  if (await runningOwner(io.env)) return undefined;
  const home = resolveHome(io.env).dir;
  const holder = lockHolder(home);
  if (holder?.role !== 'command' || holder.verb !== BACKFILL_VERB || holder.pid === process.pid) return undefined;
  const lock = lockMarker(home);
  if (lock?.pid !== holder.pid) return undefined;
  const file = join(home, CANCEL_REQUEST_FILE);
  const start = Date.now();
  writeRequest(file, lock);
  await waitUntil(() => !existsSync(file) || released(home, lock), start + TAKE_WAIT_MS);
  // Still there: nobody took it, and it is withdrawn (a later backfill would not take it either, but it is ours to remove).
  if (takeRequest(file) !== undefined) {
    if (released(home, lock)) return finishedFirst(io, json, lock.pid);
    throw new StewardError(
      'busy',
      `No running import took the request to stop (pid ${lock.pid}, named by the store lock, did not answer in ${TAKE_WAIT_MS / 1000} s: it may be a lock left by an import that ended, or a busy one). The request was withdrawn; nothing was stopped.`,
      { pid: lock.pid },
    );
  }
  // Taken, so the pid is that import's: what is said of it waits for its end, as `steward stop` does.
  if (!(await waitUntil(() => !isAlive(lock.pid), start + STOP_WAIT_MS)) && !released(home, lock)) {
    throw new StewardError('busy', `The running import (pid ${lock.pid}) took the request to stop but has not stopped after ${STOP_WAIT_MS / 1000} s; it stops after its current batch, keeping what it imported.`, { pid: lock.pid });
  }
  if (json) printJson(io, { cancelled: 1, pid: lock.pid, stopped: true });
  else io.stdout(`Asked the running import (pid ${lock.pid}) to stop; it stopped. What it had imported stays.\n`);
  return EXIT.ok;
}
