import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** A small document read whole (a sidecar, an index, a registry, a cold archive), with the facts of the handle it was read from. */
export interface SmallFile {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * Why a small document was not read: it is no regular file (a FIFO, a device, a socket: a FIFO's read
 * waits for a writer forever, `/dev/zero` never ends), or it holds more than the cap. Either way it is
 * taken as absent; a provider that counts an absent document says so with its own reason.
 */
export interface SmallFileRefused {
  refused: 'not_a_file' | 'too_large';
}

/**
 * Opening a FIFO for reading waits for a writer unless it is opened non-blocking; a regular file
 * reads as ever with the flag. Windows has no FIFOs to open this way (and no such flag).
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const FIRST_READ = 64 * 1024;

/**
 * The one reader of a document read whole beside the transcripts: the open handle's own facts say what
 * it is (no race with a stat by path), anything but a regular file is refused unread, and at most
 * `maxBytes` bytes are ever read, even from a file that grows during the read or says it is smaller
 * than it is (a /proc file says 0). Errors opening it (gone, denied) are thrown, as readFile's were.
 */
export async function readSmallFile(path: string, maxBytes: number): Promise<SmallFile | SmallFileRefused> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { refused: 'not_a_file' };
    if (info.size > maxBytes) return { refused: 'too_large' };
    const bytes = await readUpTo(handle, maxBytes, info.size);
    // A read that filled the cap ended at the file's end only if the file is now exactly that long.
    if (bytes.length === maxBytes && (await handle.stat()).size !== maxBytes) return { refused: 'too_large' };
    return { bytes, size: info.size, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

/** The file's bytes from its start up to its end or `maxBytes`, whichever comes first. */
async function readUpTo(handle: FileHandle, maxBytes: number, size: number): Promise<Buffer> {
  let buffer: Buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(size, FIRST_READ)));
  let filled = 0;
  while (filled < maxBytes) {
    if (filled === buffer.length) buffer = grown(buffer, filled, Math.min(maxBytes, buffer.length * 2));
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function grown(buffer: Buffer, filled: number, length: number): Buffer {
  const next = Buffer.allocUnsafe(length);
  buffer.copy(next, 0, 0, filled);
  return next;
}

/** Whether `read` was refused rather than read. */
export function refused(read: SmallFile | SmallFileRefused): read is SmallFileRefused {
  return 'refused' in read;
}
