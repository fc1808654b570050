import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { HOME_FILES, PRIVATE_FILE_MODE } from '../config/index.js';

const KEY_SHAPE = /^[0-9a-f]{64}$/;

/**
 * The key search cursors mark their search under (searchMark), one per home: a cursor seen in a log or
 * a transcript then tells nothing of what was searched for, a guessed query cannot be checked against
 * it, while the owner and a CLI or MCP server reading the same home in-process page each other's cursors.
 * Made once, exclusively (two processes starting at once agree on one key), mode 0600. A damaged file is
 * replaced: the cursors under the old key are refused as another search's, and the caller starts again.
 * A home that cannot hold it (read-only) gets a key for this process alone, with the same refusal across processes.
 */
export function searchCursorKey(home: string): Buffer {
  const file = join(home, HOME_FILES.searchCursorKey);
  const held = readKey(file);
  if (held) return held;
  try {
    const fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, randomBytes(32).toString('hex'));
    } finally {
      closeSync(fd);
    }
    return readKey(file) ?? randomBytes(32);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return randomBytes(32);
  }
  // There, but damaged (or being written by another process this instant): read once more, else replace it.
  const again = readKey(file);
  if (again) return again;
  const fresh = randomBytes(32);
  try {
    writeFileAtomic.sync(file, fresh.toString('hex'), { mode: PRIVATE_FILE_MODE });
  } catch {
    // This process's key alone, as above.
  }
  return fresh;
}

function readKey(file: string): Buffer | undefined {
  try {
    const hex = readFileSync(file, 'utf8').trim();
    return KEY_SHAPE.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
}
