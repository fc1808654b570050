import { readFile, stat } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import { bomEnd, countSkip, lineText, zerosEnd } from './lines.js';
import type { LineStats } from './types.js';

const CHUNK = 64 * 1024;
/** A compressed transcript is read into memory before it is decoded step by step. */
const MAX_COMPRESSED_BYTES = 256 * 1024 * 1024;
const MAX_DECODED_BYTES = 2 * 1024 * 1024 * 1024;
const NEWLINE = 0x0a;

export class ArchiveTooLarge extends Error {
  constructor() {
    super('archive above its decoded size bound');
  }
}

/** zstd's magic number, little-endian: how an archive says it is compressed whatever its recorded encoding. */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
}

/**
 * The lines of an archive (a JSONL transcript, plain or one zstd stream), decoded in 64 KiB steps so
 * memory holds one step's lines, never the whole transcript; above `maxBytes` decoded it stops
 * with ArchiveTooLarge. A last line without `\n` is complete here: an archive is never appended to.
 */
export function* archiveLines(bytes: Uint8Array, maxBytes: number): Generator<string[]> {
  let decoded = 0;
  let carry = Buffer.alloc(0);
  let ready: Buffer[] = [];
  // Whether `carry` still begins at the archive's first decoded byte: where a BOM is skipped (bomEnd), once.
  let atFileStart = true;
  const take = (chunk: Uint8Array): void => {
    decoded += chunk.length;
    if (decoded > maxBytes) throw new ArchiveTooLarge();
    ready.push(Buffer.from(chunk));
  };
  const split = (final: boolean): string[] => {
    const joined = Buffer.concat([carry, ...ready]);
    ready = [];
    const lines: string[] = [];
    // A BOM at the archive's start and zeros before a line are no part of it, as in a plain file (bomEnd,
    // zerosEnd): never held, never against the cap.
    let start = zerosEnd(joined, atFileStart ? bomEnd(joined, joined.length) : 0, joined.length);
    for (let end = joined.indexOf(NEWLINE, start); end !== -1; end = joined.indexOf(NEWLINE, start)) {
      lines.push(lineText(joined.subarray(start, end).toString('utf8')));
      start = zerosEnd(joined, end + 1, joined.length);
    }
    // A step may decode fewer bytes than a BOM's: they wait in `carry`, still at the start, for the next.
    atFileStart &&= start === 0 && joined.length < 3;
    carry = joined.subarray(start);
    if (final && carry.length > 0) lines.push(lineText(carry.toString('utf8')));
    return lines;
  };
  const stream = isZstd(bytes) ? new Decompress(take) : undefined;
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    const chunk = bytes.subarray(offset, offset + CHUNK);
    const last = offset + CHUNK >= bytes.length;
    if (stream) stream.push(chunk, last);
    else take(chunk);
    yield split(last);
  }
  if (bytes.length === 0) yield [];
}

/**
 * The lines of a zstd-compressed transcript file (a cold Codex rollout, an OpenClaw
 * `.jsonl.deleted.<ts>.zst` sibling), counted like `readCompleteLines` counts them: a line above the
 * cap is `null` (counted `too_large`) and keeps its place, so a line's index is the one it has in the
 * plain file (an OpenClaw v1 entry's identity). Such a file is never appended to, so its last line
 * is complete even without `\n`.
 */
export async function* readCompressedLines(path: string, options: { maxLineBytes: number }, stats: LineStats): AsyncGenerator<Array<string | null>> {
  if ((await stat(path)).size > MAX_COMPRESSED_BYTES) {
    stats.oversizeLines += 1;
    return countSkip(stats, 'too_large');
  }
  const bytes = await readFile(path);
  // The file's own bytes, as a line file's reads are counted: what reading the archive cost the disk.
  stats.bytesRead = (stats.bytesRead ?? 0) + bytes.length;
  try {
    for (const lines of archiveLines(bytes, MAX_DECODED_BYTES)) {
      const kept = lines.map((line) => {
        if (Buffer.byteLength(line) <= options.maxLineBytes) return line;
        stats.oversizeLines += 1;
        countSkip(stats, 'too_large');
        return null;
      });
      stats.lines += kept.length;
      if (kept.length > 0) yield kept;
    }
  } catch (error) {
    if (!(error instanceof ArchiveTooLarge)) throw error;
    stats.oversizeLines += 1;
    countSkip(stats, 'too_large');
  }
}
