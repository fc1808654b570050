import { open } from 'node:fs/promises';
import type { SkipReason } from '../api/index.js';
import type { LineStats } from './types.js';

const NEWLINE = 0x0a;

export interface LineReadOptions {
  maxLineBytes: number;
  chunkBytes?: number;
}

/**
 * Streams the complete lines of a file in groups (one group per read chunk). Only bytes through
 * the last `\n` are consumed: a partial last line waits for a later pass. A line above the cap is
 * skipped without ever being held whole, and counted.
 */
export async function* readCompleteLines(path: string, options: LineReadOptions, stats: LineStats): AsyncGenerator<string[]> {
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const handle = await open(path, 'r');
  // Two buffers: the next read is in flight while the current chunk is split and parsed.
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] as const;
  let position = 0;
  const readInto = (index: 0 | 1) => {
    const pending = handle.read(buffers[index], 0, chunkBytes, position);
    return pending.then((r) => {
      position += r.bytesRead;
      return r.bytesRead;
    });
  };
  let next: Promise<number> | undefined;
  try {
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let skipping = false;
    let current: 0 | 1 = 0;
    next = readInto(current);
    for (;;) {
      const bytesRead = await next;
      next = undefined;
      if (bytesRead === 0) break;
      const buffer = buffers[current];
      current = current === 0 ? 1 : 0;
      next = readInto(current);
      const lines: string[] = [];
      let start = 0;
      for (;;) {
        const end = buffer.indexOf(NEWLINE, start);
        if (end === -1 || end >= bytesRead) break;
        if (skipping) {
          skipping = false;
          stats.oversizeLines += 1;
        } else if (carryBytes + (end - start) > options.maxLineBytes) {
          stats.oversizeLines += 1;
        } else {
          const slice = buffer.subarray(start, end);
          const text = carryBytes > 0 ? Buffer.concat([...carry, slice]).toString('utf8') : slice.toString('utf8');
          lines.push(text.endsWith('\r') ? text.slice(0, -1) : text);
        }
        carry = [];
        carryBytes = 0;
        start = end + 1;
      }
      if (start < bytesRead && !skipping) {
        const rest = bytesRead - start;
        if (carryBytes + rest > options.maxLineBytes) {
          carry = [];
          carryBytes = 0;
          skipping = true;
        } else {
          carry.push(Buffer.from(buffer.subarray(start, bytesRead)));
          carryBytes += rest;
        }
      }
      stats.lines += lines.length;
      if (lines.length > 0) yield lines;
    }
  } finally {
    // A consumer that stops early may leave one read in flight; it must finish before the close.
    await next?.catch(() => 0);
    await handle.close();
  }
}

/** Counts a complete line that yields no part, with its reason: nothing is dropped silently. */
export function countSkip(stats: LineStats, reason: SkipReason): void {
  stats.skipped ??= {};
  stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
}

/** A complete line that does not parse: counted failed (as before) and skipped as malformed. */
export function countMalformed(stats: LineStats): void {
  stats.failedLines += 1;
  countSkip(stats, 'malformed');
}
