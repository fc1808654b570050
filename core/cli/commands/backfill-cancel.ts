import { setTimeout as sleep } from 'node:timers/promises';
import { StewardError, type StewardClient } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { lockHolder } from '../../store/lock/index.js';
import { runningOwner, waitForExit } from '../launch.js';
import { EXIT, printJson, type CliIo } from '../output.js';

/** The verb a one-shot backfill's lock names (acquireOwnerLock): what `--cancel` may interrupt. */
export const BACKFILL_VERB = 'backfill';

/** How long `--cancel` waits for an interrupted one-shot backfill to stop: it stops between batches. */
const STOP_WAIT_MS = 30_000;
/** How often an interrupted import asks again to cancel while its runs are still being queued. */
const RETRY_MS = 100;

/**
 * An import in this process (no owner runs), with Ctrl-C heard: the first one (or `steward backfill
 * --cancel` from another terminal, which sends the same) cancels it between batches, as Cancel in the
 * panel does, so what it imported stays and its result says how far it came; a second ends the
 * process the default way. An interrupt before its runs are queued asks again until they are, or it ends.
 */
export async function cancelledOnInterrupt<T>(client: StewardClient, backfill: Promise<T>): Promise<{ result: T; interrupted: boolean }> {
  let settled = false;
  let interrupted = false;
  const cancel = async () => {
    while (!settled) {
      const asked = await client.call('Backfill.Cancel', {}).catch(() => ({ cancelled: 0 }));
      if (asked.cancelled > 0) return;
      await sleep(RETRY_MS);
    }
  };
  const onInterrupt = () => {
    interrupted = true;
    void cancel();
  };
  process.once('SIGINT', onInterrupt);
  try {
    return { result: await backfill, interrupted };
  } finally {
    settled = true;
    process.off('SIGINT', onInterrupt);
  }
}

/**
 * `steward backfill --cancel` when no owner runs but a one-shot `steward backfill` of this home holds
 * the store: it is sent SIGINT (its Ctrl-C, cancelledOnInterrupt) and waited for. Only a live holder
 * the lock names as a backfill is signalled (the lock's pid identity rules out a reused pid); anything
 * else is undefined, and the caller goes on as before (an owner is asked; another command refuses).
 * Windows has no SIGINT to send to another process: there the words stay "a steward command is using the store".
 */
export async function cancelOneShotBackfill(io: CliIo, json: boolean | undefined): Promise<number | undefined> {
  if (process.platform === 'win32' || (await runningOwner(io.env))) return undefined;
  const home = resolveHome(io.env).dir;
  const holder = lockHolder(home);
  if (holder?.role !== 'command' || holder.verb !== BACKFILL_VERB) return undefined;
  try {
    process.kill(holder.pid, 'SIGINT');
  } catch {
    // It ended between reading the lock and the signal: nothing is importing now.
    return undefined;
  }
  if (!(await waitForExit(holder.pid, STOP_WAIT_MS))) {
    throw new StewardError('busy', `Asked the running import (pid ${holder.pid}) to stop; it has not stopped after ${STOP_WAIT_MS / 1000} s (it stops between batches). Try \`steward backfill --cancel\` again in a moment.`, { pid: holder.pid });
  }
  if (json) printJson(io, { cancelled: 1, pid: holder.pid, stopped: true });
  else io.stdout(`Asked the running import (pid ${holder.pid}) to stop; it stopped. What it had imported stays.\n`);
  return EXIT.ok;
}
