import { decompress } from 'fzstd';
import type { EventRow } from './store.js';

/** OpenClaw compresses an event of at most 4 MiB; a frame that claims more is not one of its rows. */
const MAX_EVENT_BYTES = 4 * 1024 * 1024;

/**
 * An event row as the JSONL line it was: `event_json`, or its zstd frame decompressed and checked
 * against the exact length OpenClaw recorded (`undefined` when either is missing or they disagree).
 * OpenClaw's own SQL decode function does not exist in this connection, so the frame is decoded here.
 */
export function eventText(row: EventRow): string | undefined {
  if (typeof row.event_json === 'string') return row.event_json;
  const frame = row.event_zstd;
  const expected = row.event_utf8_bytes;
  if (!frame || typeof expected !== 'number' || expected < 1 || expected > MAX_EVENT_BYTES) return undefined;
  try {
    const bytes = decompress(frame);
    return bytes.length === expected ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}
