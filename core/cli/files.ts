import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, lstat, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StewardError } from '../api/index.js';

/** A filesystem without hard links (FAT, some network shares) answers link() with one of these. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** The refusal to replace a file nobody said to replace, naming it as the person typed it. */
function fileExists(file: string): StewardError {
  return new StewardError('confirmation_required', `${file} already exists; pass --force to replace it`);
}

/** What is at `file`: nothing (missing, or unreadable: the write itself says why when it cannot go on), a folder, or something else. */
async function whatIsAt(file: string): Promise<'nothing' | 'folder' | 'file'> {
  try {
    // A link to a folder is a folder to write into (the write would fail there); a broken link is a name taken.
    const at = await lstat(file);
    return at.isDirectory() || (at.isSymbolicLink() && (await stat(file).catch(() => at)).isDirectory()) ? 'folder' : 'file';
  } catch {
    return 'nothing';
  }
}

/** A path ending in a separator names a folder (as a shell's completion writes one): `exports/`. */
const TRAILING_SEPARATORS = process.platform === 'win32' ? /[\\/]+$/ : /\/+$/;

const noFolder = (folder: string) => new StewardError('invalid_params', `The folder ${folder} does not exist; create it first, or give the path of a file to write`);

/**
 * Where `--output` writes: into it when it is a folder (or a link to one), under the name the export
 * gives, else a file at it. Asked before any work, so a place that cannot be written costs nothing and is said in
 * words naming what the person typed: a folder that does not exist, a file named as a folder, a folder
 * this process may not write in. (A file that is there already is refuseExisting's.)
 */
export async function outputPlace(output: string): Promise<'folder' | 'file'> {
  const bare = output.replace(TRAILING_SEPARATORS, '');
  const namedFolder = bare !== output && bare !== '';
  const at = await whatIsAt(namedFolder ? bare : output);
  if (namedFolder && at === 'nothing') throw noFolder(output);
  if (namedFolder && at === 'file') throw new StewardError('invalid_params', `${output} is a file, not a folder; give a folder to write into, or the file's path without the trailing ${output.at(-1)}`);
  const folder = at === 'folder' ? output : dirname(output);
  await refuseUnwritable(folder);
  return at === 'folder' ? 'folder' : 'file';
}

/** Refuses a folder that is not there, or that this process may not create a file in. */
async function refuseUnwritable(folder: string): Promise<void> {
  try {
    await access(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? 'EACCES');
    if (code === 'ENOENT') throw noFolder(folder);
    if (code === 'ENOTDIR') throw new StewardError('invalid_params', `${folder} is not a folder; give the path of a file in a folder that exists`);
    throw new StewardError('invalid_params', `The folder ${folder} cannot be written here (${code}); choose another folder`);
  }
}

async function taken(file: string): Promise<boolean> {
  return (await whatIsAt(file)) !== 'nothing';
}

/**
 * Refuses a name that is taken unless `force`, and a folder always (--force replaces a file, never a
 * folder): asked before any work, so a refusal costs nothing.
 */
export async function refuseExisting(file: string, force: boolean): Promise<void> {
  const at = await whatIsAt(file);
  if (at === 'folder') throw new StewardError('invalid_params', `${file} is a folder; give the path of a file to write (one inside it, for instance)`);
  if (!force && at === 'file') throw fileExists(file);
}

/** What a writer hands each piece to, in order: the next one is asked for once this one is written. */
export type WritePiece = (piece: string) => Promise<void>;

/** The signals that interrupt a verb (Ctrl-C, a kill), and the exit code a shell gives a process each one ends (128 + its number). */
const INTERRUPTS = { SIGINT: 130, SIGTERM: 143 } as const;
type Interrupt = keyof typeof INTERRUPTS;

/** The exit code of the interrupt that stopped this process's work, once one has (see whileInterruptible). */
let interruptedCode: number | undefined;

/** The exit code this process ends with when an interrupt stopped its work (130 for Ctrl-C); undefined otherwise. */
export function interruptedExit(): number | undefined {
  return interruptedCode;
}

/**
 * Runs `work` with a signal that SIGINT or SIGTERM aborts, for work that must clean up before the
 * process ends (a temp file beside the one it writes); the process then ends with the interrupt's
 * exit code (interruptedExit). Outside it, and at a second interrupt, they end the process as ever.
 * `signals`: where they are heard (the process; a test's emitter).
 */
export async function whileInterruptible<T>(work: (signal: AbortSignal) => Promise<T>, signals: NodeJS.EventEmitter = process): Promise<T> {
  const stop = new AbortController();
  const interrupted = (name: Interrupt) => {
    quiet();
    interruptedCode = INTERRUPTS[name];
    stop.abort();
  };
  const quiet = () => Object.keys(INTERRUPTS).forEach((name) => signals.off(name, interrupted));
  Object.keys(INTERRUPTS).forEach((name) => signals.once(name, interrupted));
  try {
    return await work(stop.signal);
  } finally {
    quiet();
  }
}

/** Settles as `work` does, or rejects at once when `signal` aborts: an interrupt does not wait for a piece in flight. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(interruptedError());
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

const interruptedError = () => new StewardError('cancelled', 'Interrupted: the file was not written');

/**
 * A new file filled by `fill`, piece by piece, on disk before it is put in place. Once `signal` aborts,
 * no piece more is written, nor the file opened.
 */
async function writeFlushed<T>(temp: string, fill: (write: WritePiece) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  const goOn = () => {
    if (signal?.aborted) throw interruptedError();
  };
  goOn();
  const handle = await open(temp, 'wx', 0o600);
  try {
    // writeFile, unlike write, goes on until all of a piece is written (from where the last one ended).
    const filled = await fill(async (piece) => {
      goOn();
      await handle.writeFile(piece);
    });
    goOn();
    await handle.sync();
    return filled;
  } finally {
    await handle.close();
  }
}

/** Puts the temp file in at `file` only while that name is free: link() refuses a taken name in the same step. */
async function placeNew(temp: string, file: string): Promise<void> {
  try {
    await link(temp, file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') throw fileExists(file);
    if (typeof code !== 'string' || !NO_HARD_LINKS.has(code)) throw error;
    if (await taken(file)) throw fileExists(file);
    await rename(temp, file);
  }
}

/**
 * Writes a file the person named as `fill` hands it the pieces, whole or not at all: the pieces go to a
 * temp file beside it as they come (so memory holds one piece, not the document), put in place at the
 * end. A failure (or an interrupted write) never leaves half a file under its name, nor where a good
 * one was. `force` replaces what is there (renamed over it); otherwise a file that appeared since
 * refuseExisting looked is refused, not replaced. `signal` (an interrupt, see whileInterruptible) stops
 * it at once (`cancelled`): the temp file goes, and nothing is put in place.
 */
export async function writeInPieces<T>(named: string, force: boolean, fill: (write: WritePiece) => Promise<T>, signal?: AbortSignal): Promise<T> {
  // Replacing a link replaces the file it names, as write-file-atomic did for --force; a new name is taken as it is.
  const file = force ? await realpath(named).catch(() => named) : named;
  // Beside the target, so putting it in place never crosses filesystems; hidden, and named after it.
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const writing = writeFlushed(temp, fill, signal);
  try {
    const filled = await untilAborted(writing, signal);
    if (signal?.aborted) throw interruptedError();
    await (force ? rename(temp, file) : placeNew(temp, file));
    return filled;
  } finally {
    await rm(temp, { force: true });
    // Interrupted with a piece in flight, the write ends later (writing nothing more): its temp file goes then too.
    if (signal?.aborted) void writing.catch(() => undefined).then(() => rm(temp, { force: true }).catch(() => undefined));
  }
}

/** writeInPieces for content already whole. */
export function writeWhole(file: string, content: string, force: boolean): Promise<void> {
  return writeInPieces(file, force, (write) => write(content));
}
