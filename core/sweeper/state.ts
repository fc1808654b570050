import { createHash } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { SweeperOutcome, SweeperStateDegraded } from '../api/index.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../config/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { queueWrite, writesLanded } from './file-queue.js';

/** sweep-state.json: the activity gate's watermark, the failure budget and what the panel shows. */
export const SweeperState = z.object({
  version: z.literal(1).default(1),
  /** Newest activity (UTC ms) a successful sweep covered; the gate compares against it. */
  watermark: z.number().int().nullable().default(null),
  scratch: z.boolean().default(false),
  lastSweepAt: z.number().int().nullable().default(null),
  lastOutcome: SweeperOutcome.nullable().default(null),
  lastError: z.object({ code: z.string(), message: z.string() }).nullable().default(null),
  lastMode: z.string().nullable().default(null),
  lastModel: z.string().nullable().default(null),
  /**
   * Which endpoint (base URL) the last remote sweep went to, as a short hash (endpointHash), never the
   * URL: a backoff earned against one endpoint does not hold another. Null in older files: it holds any.
   */
  lastEndpoint: z.string().nullable().default(null),
  consecutiveFailures: z.number().int().min(0).default(0),
  /** Until then, an un-forced sweep of this project backs off. */
  nextAttemptAt: z.number().int().nullable().default(null),
  tokensIn: z.number().int().min(0).default(0),
  tokensOut: z.number().int().min(0).default(0),
  /** Set when the last write left OVERVIEW.md alone because the user had edited it. */
  overviewPreserved: z.boolean().default(false),
  /**
   * OVERVIEW.md as Steward last wrote it: its hash, and a short hash of each line (never the text), so
   * the next write tells a person's edit apart from Steward's own file and keeps the lines they added.
   */
  overviewWritten: z.object({ sha256: z.string(), lines: z.array(z.string()) }).nullable().default(null),
  /**
   * A damaged file kept aside: the project started afresh except for its scratch flag, which is never
   * dropped silently. Cleared by the next successful sweep or by the user setting scratch.
   */
  degraded: SweeperStateDegraded.nullable().default(null),
  /**
   * When a conversation of the project was forgotten (UTC ms) and the notes may still name it: until
   * the next sweep rebuilds them from what is still stored, nothing hands them out (context.ts, Projects.Get).
   */
  notesStaleSince: z.number().int().nullable().default(null),
  /**
   * The first local day (YYYY-MM-DD) a forgotten conversation was active: changelog days before it
   * cannot describe it and are kept as they are, hand edits included; that day and every later one
   * are rebuilt. Null while notes are stale: every day is rebuilt (a forget that named no day).
   */
  notesStaleFromDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().default(null),
  /**
   * How many forgets ever marked the notes stale (never reset: a rebuild in another process may
   * still compare against it). A rebuild clears the mark only if none came since it began: a later
   * forget may move neither `notesStaleSince` nor `notesStaleFromDay`, yet the rebuild may have read
   * its conversation. Kept on disk, so a forget made by another process (the CLI) counts too.
   */
  notesStaleMarks: z.number().int().min(0).default(0),
});
export type SweeperState = z.infer<typeof SweeperState>;

/** An address with no name around it to tell it by: IPv4, IPv6 (bracketed or as Node prints it) or a name with a port, each port optional where the form allows. */
const ADDRESS = String.raw`\[[0-9a-f:.]+\](?::\d{1,5})?|\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,5}|[a-z0-9-]*[a-z][a-z0-9-]*:\d{1,5}`;
/** A host as a curator's message names it: an address, localhost, or a name with a dot (api.example.com). */
const HOST = String.raw`${ADDRESS}|(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d{1,5})?`;
/** "… at api.example.com …", "… for 127.0.0.1:11434: …": where the message says it tried, dropped with its preposition. */
const AT_HOST = new RegExp(String.raw`\s(?:at|for)\s(?:${HOST})(?=[\s:;,.)]|$)`, 'gi');
const URL_ANY = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)"']+/gi;
/** The host a failed name lookup names (`getaddrinfo ENOTFOUND ollama.lan`). */
const LOOKED_UP = /(?<=\b(?:ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)\s)[^\s)"']+/g;
/** An address anywhere else; a bare name with a dot is left (a model name, OVERVIEW.md), only the forms above go. */
const ADDRESS_ANY = new RegExp(String.raw`(?<![\w.:-])(?:${ADDRESS})(?![\w.:-]*[\w-])`, 'gi');
/** An absolute, home or Windows path: starts a word, and holds something after its first separator. */
const PATH_ANY = /(?<=^|[\s("'=])(?:~|[a-z]:)?[\\/][^\s)"']+/gi;

/**
 * A failure's message as sweep-state.json may keep it: status never says where the curator endpoint is
 * (its host and port, a URL) nor a path; what failed and its HTTP status stay. Applied as the file is
 * written and as it is read, so a file written before this rule shows no address either.
 */
export function withoutAddresses(message: string): string {
  return message
    .replace(AT_HOST, '')
    .replace(URL_ANY, '(an address)')
    .replace(LOOKED_UP, '(an address)')
    .replace(PATH_ANY, '(a path)')
    .replace(ADDRESS_ANY, '(an address)');
}

function cleanError(state: SweeperState): SweeperState {
  const error = state.lastError;
  if (!error) return state;
  const message = withoutAddresses(error.message);
  return message === error.message ? state : { ...state, lastError: { ...error, message } };
}

/** A base URL as sweep-state.json names it: 12 hex of its SHA-256, so the file never holds the URL. */
export function endpointHash(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 12);
}

export function emptyState(): SweeperState {
  return SweeperState.parse({});
}

/** `"scratch": true|false` as far as the damaged text still says it; undefined when it does not. */
function scratchIn(text: string): boolean | undefined {
  const said = [...text.matchAll(/"scratch"\s*:\s*(true|false)\b/g)].map((m) => m[1] === 'true');
  // Two different answers are no answer.
  return said.length > 0 && said.every((v) => v === said[0]) ? said[0] : undefined;
}

/** `sweep-state.json.corrupt-2026-12-01T10-20-30-456Z`: sortable, and a valid name on every platform. */
function asideName(file: string, now: number): string {
  return `${file}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}

/** Moves a damaged file aside under a `.corrupt-<time>` name; returns that name, or null when it could not. */
export function keepAside(file: string, logger: Logger | undefined, now = Date.now()): string | null {
  const aside = asideName(file, now);
  try {
    renameSync(file, aside);
    return basename(aside);
  } catch (error) {
    logger?.warn('damaged file could not be kept aside', { code: errorCode(error) });
    return null;
  }
}

/**
 * The newest state of each file whose write has not landed yet (file-queue.ts orders the writes).
 * One queue for every writer in this process (sweeps, the user's scratch choice, a damaged file's
 * fresh copy): a change shows at once in every read here, and is applied again, under the file's
 * lock, to the file as it then is on disk (another process may have changed it meanwhile).
 */
const pending = new Map<string, SweeperState>();

/** A change as the locked write applies it: to the file as it is (null: there is none); null writes nothing. */
type Change = (current: SweeperState | null) => SweeperState | null;

/** A read of the file: its state, whether there was one, and the repair it needs written (if any). */
interface Loaded {
  state: SweeperState;
  found: boolean;
  repair: Change | null;
}

/**
 * The state as it stands: a change still being written reads as written. A missing file reads as a
 * fresh state: the next sweep simply runs. A damaged one is moved aside, logged by its code and
 * replaced by a fresh state that carries the scratch flag and says it is degraded; an unreadable one
 * is left in place and reads as degraded and scratch.
 */
export function readState(file: string, logger?: Logger, now = Date.now()): SweeperState {
  const key = resolve(file);
  const shown = pending.get(key);
  if (shown) return shown;
  const { state, repair } = load(key, logger, now);
  if (repair) enqueue(key, state, repair, logger).catch((error: unknown) => logger?.warn('sweep state could not be repaired', { code: errorCode(error) }));
  return state;
}

function load(file: string, logger: Logger | undefined, now: number): Loaded {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { state: emptyState(), found: false, repair: null };
    logger?.warn('sweep state unreadable; the project is held as scratch', { code });
    const state: SweeperState = { ...emptyState(), scratch: true, degraded: { code: 'state_unreadable', since: now, keptAs: null, scratch: 'assumed' } };
    return { state, found: true, repair: null };
  }
  const parsed = SweeperState.safeParse(parseJson(text));
  if (!parsed.success) return recoverCorrupt(file, text, logger, now);
  const clean = cleanError(parsed.data);
  // A file written before addresses were kept out is written again without them (the write cleans it).
  return { state: clean, found: true, repair: clean === parsed.data ? null : (current) => current };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function recoverCorrupt(file: string, text: string, logger: Logger | undefined, now: number): Loaded {
  const scratch = scratchIn(text);
  const keptAs = keepAside(file, logger, now);
  const state: SweeperState = { ...emptyState(), scratch: scratch ?? true, degraded: { code: 'state_corrupt', since: now, keptAs, scratch: scratch === undefined ? 'assumed' : 'recovered' } };
  logger?.warn('sweep state damaged; kept aside and started afresh', { code: 'state_corrupt', scratch: state.degraded!.scratch, keptAside: keptAs !== null });
  // Only once the damaged file is safe (otherwise the next read tries again), and only where no
  // other process has written a file since.
  return { state, found: true, repair: keptAs === null ? null : (current) => current ?? state };
}

/**
 * Applies `change` to the newest state at once (so every later read and change here sees it) and
 * queues its write, which applies it again to the file as it is then, under a lock no other Steward
 * process's write holds: what they changed meanwhile stays. `change` may run twice, so it is pure.
 * Settles with the state written once it is on disk; rejects when its write failed or the lock was
 * not had in time (StateLockTimeout), and then the file is what the state is again (unless a later
 * change, which carries this one, is still to be written).
 */
export async function updateState(file: string, change: (state: SweeperState) => SweeperState, logger?: Logger): Promise<SweeperState> {
  const key = resolve(file);
  return enqueue(key, change(readState(key, logger)), (current) => change(current ?? emptyState()), logger);
}

/**
 * Changes made here whose write has not landed, in order. Each write applies all of them to the file as
 * it is then, so a later write already queued carries one whose own write failed (a full disk, the lock
 * not had in time), as `readState` shows it; a change leaves once a write that applied it has landed.
 */
const owed = new Map<string, Change[]>();

function enqueue(key: string, shown: SweeperState, change: Change, logger: Logger | undefined): Promise<SweeperState> {
  const next = cleanError(shown);
  pending.set(key, next);
  owed.set(key, [...(owed.get(key) ?? []), change]);
  let landed = next;
  const written = queueWrite(key, async () => {
    const applying = owed.get(key) ?? [];
    // An earlier write, queued before this one ran, carried this change already.
    if (!applying.includes(change)) return;
    landed = await withStateLock(key, () => rewrite(key, inOrder(applying), logger), LOCK_TIMING, logger);
    const left = (owed.get(key) ?? []).filter((c) => !applying.includes(c));
    if (left.length > 0) owed.set(key, left);
    else owed.delete(key);
  }).finally(() => {
    if (pending.get(key) !== next) return;
    // The newest change's write ended: reads go back to the file, and a change it failed to write is
    // dropped with it, never written later by some unrelated write (its caller was told it failed).
    pending.delete(key);
    owed.delete(key);
  });
  return written.then(() => landed);
}

/** The changes one after another; null (nothing to write) when none of them changes anything. */
function inOrder(changes: readonly Change[]): Change {
  return (current) => {
    let state = current;
    let changed = false;
    for (const change of changes) {
      const next = change(state);
      if (next === null) continue;
      [state, changed] = [next, true];
    }
    return changed ? state : null;
  };
}

/** Read, change, write: the caller holds the file's lock. */
async function rewrite(file: string, change: Change, logger: Logger | undefined): Promise<SweeperState> {
  // A damage found here is kept aside here; its repair is this very write.
  const { state, found } = load(file, logger, Date.now());
  const next = change(found ? state : null);
  if (next === null) return state;
  const clean = cleanError(next);
  await writeFileAtomic(file, `${JSON.stringify(clean, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  return clean;
}

/** How the lock around a read-modify-write of the file waits. */
export interface StateLockTiming {
  /** Waited at most this long, then StateLockTimeout. */
  timeoutMs: number;
  /** A lock untouched this long was left by a process that died holding it: taken over. */
  staleMs: number;
  /** Tried again this often: an async wait, the event loop runs meanwhile. */
  pollMs: number;
}

/**
 * A holder reads a small file and writes it durably: 0.2-0.6 s on a busy disk. A lock older than
 * `staleMs` is far past that; the wait outlasts it, so a dead holder's lock is taken over in time.
 */
const LOCK_TIMING: StateLockTiming = { timeoutMs: 15_000, staleMs: 10_000, pollMs: 25 };

/** Another process held the state file's lock past the wait: the change was not written. */
export class StateLockTimeout extends Error {
  readonly code = 'state_lock_timeout';

  constructor() {
    super('Another Steward process kept the sweep state busy too long; the change was not written');
    this.name = 'StateLockTimeout';
  }
}

/**
 * Runs `work` holding the file's lock (proper-lockfile: a `<file>.lock` folder whose time the holder
 * keeps fresh, so only a dead holder's goes stale), so no other process's read-modify-write of `file`
 * interleaves with it. Waits in async retries, then StateLockTimeout; released however `work` ends.
 */
export async function withStateLock<T>(file: string, work: () => Promise<T>, timing: StateLockTiming = LOCK_TIMING, logger?: Logger): Promise<T> {
  ensurePrivateDir(dirname(file));
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      lockfilePath: `${file}.lock`,
      realpath: false,
      stale: timing.staleMs,
      retries: { retries: Math.ceil(timing.timeoutMs / timing.pollMs), factor: 1, minTimeout: timing.pollMs, maxTimeout: timing.pollMs },
      // A lock taken over while held (its holder stalled past `stale`): said, never thrown from a timer.
      onCompromised: (error) => logger?.warn('sweep state lock was taken over while held', { code: errorCode(error) }),
    });
  } catch (error) {
    if (errorCode(error) === 'ELOCKED') throw new StateLockTimeout();
    throw error;
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}

/** Settles once the writes queued so far, of `file` or of every sweeper file (state, pauses, budget), have landed or failed. */
export async function stateWritten(file?: string): Promise<void> {
  await writesLanded(file);
}
