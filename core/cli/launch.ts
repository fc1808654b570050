import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROTOCOL_VERSION, StewardError } from '../api/index.js';
import { packageRoot, resolveHome } from '../config/index.js';
import { readDaemonInfo, type DaemonInfo } from '../server/daemon/index.js';
import { isAlive, lockOwnerPid } from '../store/lock/index.js';

const START_TIMEOUT_MS = 30_000;

/** The owner this home has now, when its daemon.json and its lock agree (read without loading the server or the stores). */
export async function runningOwner(env: NodeJS.ProcessEnv): Promise<DaemonInfo | undefined> {
  const home = resolveHome(env);
  const daemon = readDaemonInfo(home.dir);
  return daemon && lockOwnerPid(home.dir) === daemon.pid ? daemon : undefined;
}

/**
 * Waits until an owner advertises itself and speaks this CLI's protocol: the maintenance methods a
 * plan is applied with are the ones this CLI was built against. `exited` tells when a launched
 * owner already gave up (another owner took the lock, a broken configuration), so that fails fast.
 */
export async function waitForOwner(env: NodeJS.ProcessEnv, exited: () => number | null = () => null, timeoutMs = START_TIMEOUT_MS): Promise<DaemonInfo> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const daemon = await runningOwner(env);
    if (daemon) {
      if (daemon.protocol !== PROTOCOL_VERSION) {
        throw new StewardError('unsupported', `The running Steward speaks protocol ${daemon.protocol}, this command ${PROTOCOL_VERSION}; run the same version of both (\`steward stop\`, then this command again).`);
      }
      return daemon;
    }
    const code = exited();
    if (code !== null) throw new StewardError('internal', `Steward could not start in the background (exit ${code}); run \`steward serve\` in a terminal to see why.`);
    if (Date.now() > deadline) throw new StewardError('internal', 'Steward did not start in the background in time; run `steward serve` in a terminal to see why.');
    await sleep(100);
  }
}

/**
 * Starts `steward serve` in the background, detached from this terminal, and waits for it. Its
 * output goes nowhere (it logs to its own files; the panel address with its token never lands in
 * a log); `steward info` shows the address and `steward stop` stops it.
 */
export async function launchOwner(env: NodeJS.ProcessEnv): Promise<void> {
  const bin = join(packageRoot(), 'bin', 'steward.js');
  const child = spawn(process.execPath, [bin, 'serve'], { env, detached: true, stdio: 'ignore', windowsHide: true });
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  child.once('error', () => (exited = 1));
  child.unref();
  await waitForOwner(env, () => exited);
}

/**
 * Waits, up to `timeoutMs`, until process `pid` has ended; whether it has. A process lets go of the
 * lock before it exits (closing its stores and workers takes a moment more): what a verb says of it
 * waits for the end, not for the lock.
 */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  // The owner ran in this very process (a test's in-process owner): it let go, and no process can outlive itself.
  if (pid === process.pid) return true;
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}
