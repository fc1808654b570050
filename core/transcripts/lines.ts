import { hash } from 'node:crypto';
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { SkipReason } from '../api/index.js';
import type { LineStats, ReadCheckpoint, TranscriptBatch } from './types.js';

const NEWLINE = 0x0a;
const CR = 0x0d;
const ZERO = 0x00;
/** The head hash covers this many bytes (or the whole file when shorter), as does the hash before the offset. */
const HASHED_BYTES = 4096;

/**
 * Whether chunk reads block this thread (see `blockOnReads`). Only a worker's reads ever do.
 */
let blockingReads = false;

/**
 * Makes this thread's chunk reads synchronous; the owner's thread is never made to block. The read
 * worker has nothing else to do while a chunk is read, and each asynchronous read waited its turn on
 * libuv's thread pool with the owner's I/O: in a 1 GB cold import on two cores the worker waited
 * 0.8–1.5 s on reads, and with blocking reads 0.01–0.03 s (a 256 KiB read from the page cache).
 */
export function blockOnReads(): void {
  blockingReads = !isMainThread;
}

export interface LineReadOptions {
  maxLineBytes: number;
  chunkBytes?: number;
  /** Byte offset of the first line to read (a verified checkpoint's offset); 0 by default. */
  start?: number;
  /** Bytes at or after this offset are left for a later read (the size the walk saw); EOF by default. */
  end?: number;
  /** The verified head hash of a resumed read: its bytes are not read again for the new checkpoint. */
  headHash?: string;
}

/**
 * One read chunk's complete lines, in file order. A line above the cap is `null` (already counted):
 * it keeps its place, so a line's index in the file stays the same however the file is read.
 */
export interface LineChunk {
  lines: Array<string | null>;
  /** Byte offset in the file of each line's first byte. */
  offsets: number[];
}

/** JSON's whitespace but the newline: a line of only these holds nothing a parser could read. */
const BLANK = /^[ \t\r]*$/;

/**
 * A complete line's text, the one rule of every line reader (readCompleteLines, archiveLines): without the
 * `\r` of a CRLF ending, so a file written on Windows reads as one written elsewhere, and empty when it holds
 * only whitespace (spaces, tabs, a stray CR), so every provider counts it `empty`, as a bare newline, not
 * `malformed`. A JSON line opens with `{`: only one that opens with whitespace is looked at further.
 */
export function lineText(text: string): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  const first = line.charCodeAt(0);
  return (first === 0x20 || first === 0x09 || first === CR) && BLANK.test(line) ? '' : line;
}

/**
 * Where a file's first line starts in `buffer`, which holds the file from its byte 0 (`to` bytes of it):
 * past a UTF-8 byte order mark (EF BB BF), which Windows editors and some tools write before the first
 * line and which is no part of it (JSON.parse refuses it). Only a file's byte 0 is looked at: a BOM
 * anywhere else is a line's own bytes. The line's offset stays 0, as the zeros before a line stay in its
 * offset (zerosEnd), so checkpoints and hashes cover the file's bytes as they are.
 * The one rule for every line reader: a plain file's (readCompleteLines) and an archive's (archiveLines).
 */
export function bomEnd(buffer: Buffer, to: number): number {
  return to >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
}

/**
 * A document read whole (a legacy Gemini chat, a registry, a sidecar, Codex's thread index) as its text,
 * by bomEnd's rule: one UTF-8 byte order mark at its start is no part of it (JSON.parse refuses it);
 * one anywhere else is the document's own. Files read as lines go through bomEnd instead.
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Any byte but a zero, in a latin1 string (one character per byte). */
const NOT_ZERO = /[^\0]/;
/** Bytes looked at first for the end of a run of zeros; each further look doubles, up to the largest. */
const FIRST_ZERO_LOOK = 64;
const LARGEST_ZERO_LOOK = 64 * 1024;

/**
 * Where the zeros that start at `from` end (`to` when they fill the range). A crash or power loss can
 * leave a file's last pages zeros (its size was written, its bytes were not), often more than the line
 * cap; the agent then writes on after them, so its next line starts behind the zeros and is whole. The
 * zeros before a line are skipped as no part of it, so they never count against the cap (a line of
 * zeros alone is blank); a fragment behind them still fails to parse, and is counted. Zeros are rare:
 * the looks double, so a few zeros cost a few bytes and a long run about twice its length, in native scans.
 * The one rule for every line reader: a plain file's (readCompleteLines) and an archive's (archiveLines).
 */
export function zerosEnd(buffer: Buffer, from: number, to: number): number {
  // A line that starts with no zero costs one compare (a caller need not look first).
  if (buffer[from] !== ZERO) return from;
  let look = FIRST_ZERO_LOOK;
  for (let at = from; at < to; at += look, look = Math.min(look * 2, LARGEST_ZERO_LOOK)) {
    const found = buffer.toString('latin1', at, Math.min(to, at + look)).search(NOT_ZERO);
    if (found !== -1) return at + found;
  }
  return to;
}

/** Whether a line ending at `newline` (held in `carry`, then `buffer` from `start`) ends in a CR. */
function endsInCr(buffer: Buffer, start: number, newline: number, carry: Buffer[]): boolean {
  if (newline > start) return buffer[newline - 1] === CR;
  const last = carry.at(-1);
  return last !== undefined && last[last.length - 1] === CR;
}

/** Counts a complete line that yields no part, with its reason: nothing is dropped silently. */
export function countSkip(stats: LineStats, reason: SkipReason): void {
  stats.skipped ??= {};
  stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
}

/**
 * The one rule for a file none of whose lines had any shape of its agent's (notes left under a
 * transcript's name), every provider alike: the lines it counted of unknown kind were lines of a file
 * that is no transcript, said so (`not_a_transcript`) rather than as a kind not imported; same count.
 */
export function recountNotATranscript(stats: LineStats): void {
  const unknown = stats.skipped?.unknown_type ?? 0;
  if (unknown === 0) return;
  delete stats.skipped!.unknown_type;
  stats.skipped!.not_a_transcript = (stats.skipped!.not_a_transcript ?? 0) + unknown;
}

async function hashRange(handle: FileHandle, from: number, to: number, stats: LineStats): Promise<string> {
  const length = Math.max(0, to - from);
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, from + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  stats.bytesRead = (stats.bytesRead ?? 0) + filled;
  return hash('sha256', buffer.subarray(0, filled), 'hex').slice(0, 32);
}

/** The head and pre-offset hashes of a checkpoint at `offset` (a head already known past its range is reused). */
async function hashesAt(handle: FileHandle, offset: number, stats: LineStats, knownHead?: string): Promise<{ headHash: string; tailHash: string }> {
  const headHash = knownHead ?? (await hashRange(handle, 0, Math.min(HASHED_BYTES, offset), stats));
  const tailHash = offset <= HASHED_BYTES ? headHash : await hashRange(handle, offset - HASHED_BYTES, offset, stats);
  return { headHash, tailHash };
}

/**
 * Where a read of `path` starts: the checkpoint's offset when the bytes before it are still the bytes
 * that were read (head and pre-offset hashes match, the file is not shorter), else 0 — a rewritten,
 * truncated or replaced file is read again whole, and idempotent part ids absorb what was seen.
 */
export async function resumeOffset(path: string, resume: ReadCheckpoint | undefined, size: number, stats: LineStats): Promise<number> {
  if (!resume || resume.offset <= 0 || resume.offset > size) return 0;
  const handle = await open(path, 'r');
  try {
    const now = await hashesAt(handle, resume.offset, stats);
    return now.headHash === resume.headHash && now.tailHash === resume.tailHash ? resume.offset : 0;
  } finally {
    await handle.close();
  }
}

/**
 * Streams the complete lines of a file in groups (one group per read chunk). Only bytes through
 * the last `\n` are consumed: a partial last line waits for a later pass. A line above the cap is
 * skipped without ever being held whole, and counted. When the file was read through, `stats.checkpoint`
 * holds the offset after the last complete line and its hashes (the provider adds its state).
 */
export async function* readCompleteLines(path: string, options: LineReadOptions, stats: LineStats): AsyncGenerator<LineChunk> {
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const end = options.end ?? Number.POSITIVE_INFINITY;
  const handle = await open(path, 'r');
  // Two buffers: the next read is in flight while the current chunk is split and parsed.
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] as const;
  let position = options.start ?? 0;
  // Past the start is a read going on from a checkpoint: its counts add to those of the reads before.
  if (position > 0) stats.resumed = true;
  const readInto = (index: 0 | 1): Promise<{ at: number; bytesRead: number }> => {
    const at = position;
    const length = Math.min(chunkBytes, end - at);
    if (length <= 0) return Promise.resolve({ at, bytesRead: 0 });
    const read = blockingReads
      ? new Promise<{ bytesRead: number }>((resolve) => resolve({ bytesRead: readSync(handle.fd, buffers[index], 0, length, at) }))
      : handle.read(buffers[index], 0, length, at);
    return read.then((r) => {
      position = at + r.bytesRead;
      stats.bytesRead = (stats.bytesRead ?? 0) + r.bytesRead;
      return { at, bytesRead: r.bytesRead };
    });
  };
  let next: Promise<{ at: number; bytesRead: number }> | undefined;
  let completed = false;
  // The offset after the last complete line: where a later read resumes.
  let consumed = options.start ?? 0;
  try {
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let skipping = false;
    let current: 0 | 1 = 0;
    next = readInto(current);
    for (;;) {
      const { at: chunkStart, bytesRead } = await next;
      next = undefined;
      if (bytesRead === 0) break;
      const buffer = buffers[current];
      current = current === 0 ? 1 : 0;
      next = readInto(current);
      const lines: Array<string | null> = [];
      const offsets: number[] = [];
      // The file's first chunk (never a resumed read's): its BOM is skipped once, not looked for per line.
      // A chunk holds the BOM's 3 bytes whole (a chunk is kilobytes; a file of under 3 bytes has no line behind one).
      let start = chunkStart === 0 ? bomEnd(buffer, bytesRead) : 0;
      for (;;) {
        // Nothing of this line seen yet: zeros before it are skipped, not held (see zerosEnd).
        if (carryBytes === 0 && !skipping && start < bytesRead && buffer[start] === ZERO) start = zerosEnd(buffer, start, bytesRead);
        const newline = buffer.indexOf(NEWLINE, start);
        if (newline === -1 || newline >= bytesRead) break;
        // A line's offset is its first byte, zeros before it included: where the last complete line ended.
        offsets.push(consumed);
        // A CRLF line's CR is no part of its text (lineText): a line written on Windows has the cap of one written elsewhere.
        const bytes = carryBytes + (newline - start);
        if (skipping || bytes > options.maxLineBytes + 1 || (bytes === options.maxLineBytes + 1 && !endsInCr(buffer, start, newline, carry))) {
          skipping = false;
          stats.oversizeLines += 1;
          countSkip(stats, 'too_large');
          lines.push(null);
        } else {
          const slice = buffer.subarray(start, newline);
          const text = carryBytes > 0 ? Buffer.concat([...carry, slice]).toString('utf8') : slice.toString('utf8');
          lines.push(lineText(text));
        }
        carry = [];
        carryBytes = 0;
        start = newline + 1;
        consumed = chunkStart + start;
      }
      if (start < bytesRead) {
        const rest = bytesRead - start;
        // An oversize line is only counted by its length from here on, never held; one byte past the cap may be a CRLF's CR.
        if (skipping || carryBytes + rest > options.maxLineBytes + 1) {
          if (!skipping) carry = [];
          skipping = true;
          carryBytes += rest;
        } else {
          carry.push(Buffer.from(buffer.subarray(start, bytesRead)));
          carryBytes += rest;
        }
      }
      stats.lines += lines.length;
      if (lines.length > 0) yield { lines, offsets };
    }
    completed = true;
  } finally {
    // A consumer that stops early may leave one read in flight; it must finish before the close.
    await next?.catch(() => undefined);
    try {
      // A resumed read's head is the verified one whenever the old offset already covered its range.
      const knownHead = options.headHash !== undefined && (options.start ?? 0) >= HASHED_BYTES ? options.headHash : undefined;
      if (completed) stats.checkpoint = { offset: consumed, ...(await hashesAt(handle, consumed, stats, knownHead)), state: null };
    } finally {
      await handle.close();
    }
  }
}

/** Adds a read's accounting (from the read worker, or one file's) to a running total. */
export function addLineStats(into: LineStats, from: LineStats): void {
  into.lines += from.lines;
  into.failedLines += from.failedLines;
  into.oversizeLines += from.oversizeLines;
  if (from.bytesRead) into.bytesRead = (into.bytesRead ?? 0) + from.bytesRead;
  for (const [reason, n] of Object.entries(from.skipped ?? {}) as Array<[SkipReason, number]>) {
    into.skipped ??= {};
    into.skipped[reason] = (into.skipped[reason] ?? 0) + n;
  }
  if (from.checkpoint) into.checkpoint = from.checkpoint;
  if (from.resumed) into.resumed = true;
}

/** A complete line that does not parse: counted failed (as before) and skipped as malformed. */
export function countMalformed(stats: LineStats): void {
  stats.failedLines += 1;
  countSkip(stats, 'malformed');
}

/**
 * The one rule for an error thrown while one record (a line, a legacy chat's message, a store row) is
 * projected: a stack overflow (V8's RangeError "Maximum call stack size exceeded") is that record's own,
 * counted `malformed`, and the read goes on; anything else, another RangeError too ("Invalid string
 * length": memory, not the record's shape), is the reader's, and fails the file as before. JSON.parse does not recurse, so a line of 100 KB
 * parses however deep it nests (60,000 levels); a parser's JSON.stringify, String() or Array#join of
 * such a value recurses and overflows the stack. Caught rather than looked for: a depth walk would cost
 * every line, a try/catch costs nothing until a record throws.
 */
export function countRecordError(stats: LineStats, error: unknown): void {
  if (!isStackOverflow(error)) throw error;
  countMalformed(stats);
}

/** V8 says "Maximum call stack size exceeded"; matched loosely, as other engines word it "too much recursion". */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack|recursion/i.test(error.message);
}

/**
 * Thrown by a provider reading a file that is one document (a legacy Gemini chat) when the document
 * does not parse: nothing of the file could be read, so it is the file that failed (`malformed`, named
 * to the person as a file that could not be read), not one line of it. A line file's line that does
 * not parse is counted (countMalformed); a line file in which no line could be read fails so too
 * (see `failWhenNothingRead`).
 */
export class MalformedFile extends Error {
  readonly code = 'malformed';
  constructor() {
    super('transcript file is not a whole document');
  }
}

/**
 * Thrown for a line file in which no line could be read whose first bytes are not JSON at all (a page
 * of HTML, random bytes): not a transcript caught mid-write, which always starts as one (`{`), but a
 * file named like one. Its remedy is to move or rename it, not to wait for it to change.
 */
export class NotATranscript extends Error {
  readonly code = 'not_transcript';
  constructor() {
    super('file named like a transcript holds no JSON');
  }
}

/**
 * Thrown for a line file in which no line could be read whose head is zeros: a transcript a crash or power
 * loss left zero-filled, not a file named like one. Waiting will not mend it; a good copy does.
 */
export class DamagedFile extends Error {
  readonly code = 'damaged';
  constructor() {
    super('transcript file was overwritten with zeros');
  }
}

/** Bytes of a file's head looked at to tell a transcript cut short from a file that is none. */
const HEAD_BYTES = 256;

/**
 * What a `.jsonl` file's first character (past a BOM and blanks) says of it: JSON opens (`json`), a zero
 * (`zeros`: a transcript a crash zero-filled), or anything else (`other`). Any other line file (a
 * compressed one, an OpenClaw `.reset`/`.deleted` copy) is taken as JSON: said cut short, never "not a transcript".
 */
async function headOf(path: string): Promise<'json' | 'zeros' | 'other'> {
  if (!/\.jsonl$/i.test(path)) return 'json';
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').trimStart();
    if (head === '' || head.startsWith('{') || head.startsWith('[')) return 'json';
    return head.startsWith('\0') ? 'zeros' : 'other';
  } finally {
    await handle.close();
  }
}

/** Why a line file none of whose lines could be read failed, by its head. */
const FAILURE_BY_HEAD = { json: MalformedFile, zeros: DamagedFile, other: NotATranscript } as const;

/** A file of lines, each standing alone (JSONL, plain or compressed, an OpenClaw reset or deleted copy); a store or a whole document is not. */
const LINE_FILE = /\.jsonl(\.|$)/i;

/**
 * Whether a line file read from its start held no line that could be read: at least one line failed to
 * parse, and every other was empty or above the cap. A read that went on from a checkpoint followed
 * lines that were read; a last line still being written is no line yet (readCompleteLines), so no failure.
 */
export function nothingRead(path: string, stats: LineStats): boolean {
  if (stats.resumed || !LINE_FILE.test(basename(path))) return false;
  const malformed = stats.skipped?.malformed ?? 0;
  const unread = malformed + (stats.skipped?.empty ?? 0) + (stats.skipped?.too_large ?? 0);
  return malformed > 0 && unread >= stats.lines;
}

/**
 * A line file's batches, every provider's alike: one in which no line could be read is a file that
 * could not be read (MalformedFile; DamagedFile when it begins with zeros, NotATranscript when with anything else not JSON), as a document
 * that does not parse, not a file "read" with only unreadable lines. Its lines are then not counted again as lines that failed. A batch without parts
 * (a session a sidecar describes) waits for the next one, so nothing of a file that fails is written;
 * the counts are only whole once the read ended (the read worker sends them last).
 */
export async function* failWhenNothingRead(path: string, batches: AsyncGenerator<TranscriptBatch>, stats: LineStats): AsyncGenerator<TranscriptBatch> {
  let held: TranscriptBatch | undefined;
  for await (const batch of batches) {
    if (held) yield held;
    held = undefined;
    if (batch.parts.length > 0) yield batch;
    else held = batch;
  }
  if (nothingRead(path, stats)) {
    Object.assign(stats, { lines: 0, failedLines: 0, oversizeLines: 0, skipped: {} });
    throw new FAILURE_BY_HEAD[await headOf(path)]();
  }
  if (held) yield held;
}
