import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { HOME_FILES, PRIVATE_FILE_MODE } from '../config/index.js';

const KEY_SHAPE = /^[0-9a-f]{64}$/;

/**
 * The key search cursors mark their search under (searchMark), and listing cursors their listing
 * (listingMark), one per home: a cursor seen in a log or a transcript then tells nothing of what was searched for, a guessed query cannot be checked against
 * it, while the owner and a CLI or MCP server reading the same home in-process page each other's cursors.
 * Made once, exclusively and whole (two processes starting at once agree on one key), mode 0600. A damaged
 * file is replaced: the cursors under the old key are refused as another search's, and the caller starts again.
 * A home that cannot hold it (read-only) gets a key for this process alone, with the same refusal across processes.
 */
export function searchCursorKey(home: string): Buffer {
  const file = join(home, HOME_FILES.searchCursorKey);
  const held = readKey(file);
  if (held) return held;
  const made = createKey(file);
  if (made !== 'exists') return made;
  // Another process made it first: its key. Or it is there but damaged: replace it.
  const theirs = readKey(file);
  if (theirs) return theirs;
  const fresh = randomBytes(32);
  try {
    writeFileAtomic.sync(file, fresh.toString('hex'), { mode: PRIVATE_FILE_MODE });
  } catch {
    // This process's key alone, as above.
  }
  return fresh;
}

/**
 * A new key put in place with its content, or 'exists' when a file is there already. Written to a temp
 * file of the same folder and hard-linked to its name: the link fails when the name is taken, and the
 * name never shows an empty or half-written file, which a second process reading it then would take
 * for damage and replace with its own key. A home that refuses the temp file gets this process's key alone.
 */
function createKey(file: string): Buffer | 'exists' {
  const fresh = randomBytes(32);
  const hex = fresh.toString('hex');
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, hex, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch {
    return fresh;
  }
  try {
    linkSync(temp, file);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    // A file system without hard links (FAT, some shares): made exclusively in one write instead.
    return createInOneWrite(file, hex, fresh);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // Left behind (the home turned read-only this instant): a stray private file, never read as the key.
    }
  }
}

function createInOneWrite(file: string, hex: string, fresh: Buffer): Buffer | 'exists' {
  try {
    writeFileSync(file, hex, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return fresh;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists' : fresh;
  }
}

function readKey(file: string): Buffer | undefined {
  try {
    const hex = readFileSync(file, 'utf8').trim();
    return KEY_SHAPE.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
}
