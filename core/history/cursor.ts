import { createHash, createHmac } from 'node:crypto';
import type { z } from 'zod';
import { StewardError } from '../api/index.js';

/**
 * Cursors are opaque to callers: base64url JSON, checked with a schema when they come back. A cursor
 * carries a fingerprint of the request it continues, so it cannot be replayed against another query.
 */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new StewardError('invalid_params', 'The cursor is not one this request gave out; start again without it');
  return parsed.data;
}

/**
 * A short fingerprint of what a page continues (the query and its filters, without the cursor). Under
 * `key` (searchCursorKey) when what it continues holds words someone typed: a guess of them cannot be
 * checked against a fingerprint seen in a log.
 */
export function fingerprint(request: Record<string, unknown>, key?: Buffer): string {
  const { cursor: _cursor, limit: _limit, ...rest } = request;
  const stable = Object.keys(rest)
    .sort()
    .map((name) => [name, rest[name]]);
  const hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  return hash.update(JSON.stringify(stable)).digest('base64url').slice(0, 12);
}
