import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StewardError } from '../../api/index.js';

export const LOCK_FILE = 'steward.lock';

/**
 * What the holder is doing with the store: an owner (the app, `steward serve`) keeps it until stopped;
 * a one-shot command (a CLI verb with no owner to talk to) lets it go when it finishes, so an owner
 * starting meanwhile waits for it rather than refusing.
 */
export type LockRole = 'owner' | 'command';

/** Why a lock left behind was taken over (the owner logs it). */
export type TakeoverReason = 'dead' | 'pid_reused' | 'previous_boot' | 'unreadable';

export interface OwnerLock {
  readonly pid: number;
  /** Set when this lock replaced one left behind: whose it was and why it no longer counted. */
  readonly takenOver: { pid: number | null; reason: TakeoverReason } | undefined;
  release(): void;
}

/**
 * Who a pid is, beyond the number: its start time (clock ticks since boot) and the boot it belongs to.
 * After a crash the pid in a lock can be reused by an unrelated process; the identity tells them apart.
 * Linux only (from /proc); elsewhere it is undefined and a live pid counts as the owner, as before.
 */
interface ProcessIdentity {
  startTime: string;
  bootId: string;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // No /proc (macOS, Windows) or no such process: there is no identity to compare.
    return undefined;
  }
}

/**
 * Whether the process has exited and waits only for its parent to collect it (Linux: state Z in
 * /proc). Its parent's event loop may be busy for seconds (a test running the CLI synchronously), and
 * until then signal 0 still reaches it; elsewhere, or when /proc says nothing, it is not.
 */
function isZombie(pid: number): boolean {
  const stat = readProc(`/proc/${pid}/stat`);
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
}

function identityOf(pid: number | 'self'): ProcessIdentity | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  const bootId = readProc('/proc/sys/kernel/random/boot_id')?.trim();
  if (stat === undefined || !bootId) return undefined;
  // Field 22 is the start time; field 2 (the command name, in parentheses) may itself hold spaces and ')'.
  const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return startTime && /^\d+$/.test(startTime) ? { startTime, bootId } : undefined;
}

/** Whether a process of this pid exists (one of another user's counts); an exited one not yet reaped (a zombie) does not. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still a live owner.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LockRecord {
  pid: number | undefined;
  /** Absent in a lock written by a version before identities were recorded, or where /proc is absent. */
  identity: ProcessIdentity | undefined;
  /** A lock from a version before roles were recorded counts as an owner's: it is refused, as it was then. */
  role: LockRole;
  /** The CLI verb a command's lock was taken for (`backfill`: `steward backfill --cancel` may ask it to stop); absent in an owner's or an older lock. */
  verb: string | undefined;
  /**
   * A random word written once per lock taken: who took this lock, where /proc gives no identity (macOS,
   * Windows). A request naming it reaches only that holder, never a later process that got its pid. Absent in an older lock.
   */
  marker: string | undefined;
}

/**
 * `<pid>\n{"startTime":…,"bootId":…}\n<role>\n<verb>\n<marker>\n`: the pid line stays first and the identity
 * second, so older versions still read both; the role, the verb and the marker come after what they read.
 */
function readLock(file: string): LockRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // Gone or unreadable: nobody's lock to honour (the exclusive create decides what happens next).
    return { pid: undefined, identity: undefined, role: 'owner', verb: undefined, marker: undefined };
  }
  const [first = '', second = '', third = '', fourth = '', fifth = ''] = text.split('\n');
  const pid = Number.parseInt(first.trim(), 10);
  const role = third.trim() === 'command' ? 'command' : 'owner';
  const verb = role === 'command' && /^[a-z-]+$/.test(fourth.trim()) ? fourth.trim() : undefined;
  return { pid: Number.isFinite(pid) ? pid : undefined, identity: parseIdentity(second), role, verb, marker: /^[\w-]{1,100}$/.test(fifth.trim()) ? fifth.trim() : undefined };
}

function parseIdentity(line: string): ProcessIdentity | undefined {
  try {
    const value = JSON.parse(line) as Partial<ProcessIdentity> | null;
    return typeof value?.startTime === 'string' && typeof value.bootId === 'string' ? { startTime: value.startTime, bootId: value.bootId } : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's text for this process in `role`, for `verb` (an empty identity line where there is no /proc), with a new marker. */
function lockText(role: LockRole, verb: string | undefined): string {
  const identity = identityOf('self');
  return `${process.pid}\n${identity ? JSON.stringify(identity) : ''}\n${role}\n${verb ?? ''}\n${randomUUID()}\n`;
}

function readOwner(file: string): number | undefined {
  return readLock(file).pid;
}

/** A lock younger than this without a pid is being written by its creator (open, then write), not abandoned. */
const FRESH_LOCK_MS = 5_000;

function isFresh(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < FRESH_LOCK_MS;
  } catch {
    return false;
  }
}

/** A live holder: its pid, its role, and for a command the verb it was taken for (when it said). */
export interface LockHolder {
  pid: number;
  role: LockRole;
  verb?: string;
}

type Holder = LockHolder | 'writing' | { stale: TakeoverReason; pid: number | null };

/**
 * Who holds `file`: a live owner (its pid), a creator still writing it, or nobody (stale, and why). A
 * live pid whose start time or boot differs from the one the lock recorded is not the process that
 * took the lock: the pid was reused after a crash.
 */
function holderOf(file: string): Holder {
  const { pid, identity, role, verb } = readLock(file);
  if (pid === undefined) return isFresh(file) ? 'writing' : { stale: 'unreadable', pid: null };
  // Our own pid in a lock we are only now taking was another process's before us.
  if (pid === process.pid) return { stale: 'pid_reused', pid };
  if (!isAlive(pid)) return { stale: 'dead', pid };
  const now = identity ? identityOf(pid) : undefined;
  if (identity && now) {
    if (now.bootId !== identity.bootId) return { stale: 'previous_boot', pid };
    if (now.startTime !== identity.startTime) return { stale: 'pid_reused', pid };
  }
  return { pid, role, ...(verb ? { verb } : {}) };
}

const isStale = (holder: Holder): holder is { stale: TakeoverReason; pid: number | null } => typeof holder === 'object' && 'stale' in holder;

/**
 * Removes a stale lock by moving it aside first: if two processes found the same stale lock, the
 * slower one may move the faster one's fresh lock instead, and then puts it back rather than deleting it.
 */
function clearStale(file: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  if (!isStale(holderOf(aside))) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone created a new lock meanwhile; it is the owner now.
    }
  }
  rmSync(aside, { force: true });
}

/** The refusal when a live process holds the lock: a one-shot command is named as one (it finishes soon). */
function heldBy(holder: LockHolder): StewardError {
  const details = { pid: holder.pid, role: holder.role, ...(holder.verb ? { verb: holder.verb } : {}) };
  if (holder.role === 'command') return new StewardError('already_running', `A steward command (pid ${holder.pid}) is using the store; try again when it finishes.`, details);
  return new StewardError('already_running', `Steward is already running (pid ${holder.pid}).`, details);
}

/**
 * The single-owner lock: created with O_EXCL so two processes racing for it cannot both win. A lock
 * left by a dead pid (a crash, kill -9) is taken over rather than blocking the user forever. `role`
 * is written with the pid, so no reader (`steward info`, an owner starting) ever sees an owner's lock
 * as a one-shot command's: a command by default, an owner (the app, `steward serve`) says so here.
 * `verb`: the CLI verb a command takes it for, so `steward backfill --cancel` knows a backfill it may interrupt.
 */
export function acquireOwnerLock(home: string, role: LockRole = 'command', verb?: string): OwnerLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = join(home, LOCK_FILE);
  let takenOver: OwnerLock['takenOver'];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, lockText(role, role === 'command' ? verb : undefined));
      closeSync(fd);
      let released = false;
      return {
        pid: process.pid,
        takenOver,
        release() {
          if (released) return;
          released = true;
          if (readOwner(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      if (holder === 'writing') throw new StewardError('already_running', 'Steward is already running (another process is taking the owner lock).');
      if (!isStale(holder)) throw heldBy(holder);
      // Stale (a dead pid, a reused one, a previous boot's, or unreadable and old): remove and retry the exclusive create.
      takenOver = { pid: holder.pid, reason: holder.stale };
      clearStale(file);
    }
  }
  throw new StewardError('already_running', 'Steward is already running (the owner lock could not be taken).');
}

/** The pid of the one-shot command holding the lock, when that is why `error` refused it; undefined for any other refusal (a running owner). */
export function commandHolding(error: unknown): number | undefined {
  if (!(error instanceof StewardError) || error.code !== 'already_running') return undefined;
  const details = error.details as { pid?: unknown; role?: unknown } | undefined;
  return details?.role === 'command' && typeof details.pid === 'number' ? details.pid : undefined;
}

/** The live process holding the lock and its role, if any: a lock naming a reused pid has no holder. */
export function lockHolder(home: string): LockHolder | undefined {
  const file = join(home, LOCK_FILE);
  const { pid, role, verb } = readLock(file);
  if (pid === undefined) return undefined;
  // Our own pid is alive by definition; holderOf treats it as stale only for taking the lock.
  if (pid === process.pid) return { pid, role, ...(verb ? { verb } : {}) };
  const holder = holderOf(file);
  return typeof holder === 'object' && !isStale(holder) ? holder : undefined;
}

/** The pid of the live owner, if any: a lock naming a reused pid has no owner. */
export function lockOwnerPid(home: string): number | undefined {
  return lockHolder(home)?.pid;
}

/**
 * The pid and the marker the lock names now, whoever that is (alive or not): what a request to its holder
 * quotes, and how the holder knows a request is its own. Undefined when there is no lock or it has no marker (an older one).
 */
export function lockMarker(home: string): { pid: number; marker: string } | undefined {
  const { pid, marker } = readLock(join(home, LOCK_FILE));
  return pid !== undefined && marker !== undefined ? { pid, marker } : undefined;
}
