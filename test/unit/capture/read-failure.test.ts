import { describe, expect, it } from 'vitest';
import { readFailure } from '../../../core/backfill/index.js';

/**
 * Which read failures are the file's (remembered, not read again until it changes) and which pass
 * (tried again next tick): a file refused, on a dropped mount or a store SQLite cannot open yet is as it
 * was, so remembering it would keep it out after a chmod or a remount lifts the cause.
 */
describe('readFailure', () => {
  it('remembers what the bytes caused, by one code whichever thread read them', () => {
    expect(readFailure('read_failed')).toEqual({ code: 'read_failed', unreadable: true });
    expect(readFailure('internal')).toEqual({ code: 'read_failed', unreadable: true });
    // The in-thread reader's JavaScript error is the worker's read_failed.
    expect(readFailure('TypeError')).toEqual({ code: 'read_failed', unreadable: true });
    expect(readFailure('SQLITE_NOTADB')).toEqual({ code: 'SQLITE_NOTADB', unreadable: true });
    expect(readFailure('SQLITE_CORRUPT')).toEqual({ code: 'SQLITE_CORRUPT', unreadable: true });
  });

  it('names a store another process held or wrote while it was read, as one caught mid-write (the next tick reads it again, changed or not)', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'store_changed']) expect(readFailure(code), code).toEqual({ code, unreadable: true });
  });

  it('passes what a chmod, a remount or a quieter system lifts', () => {
    for (const code of ['EACCES', 'EPERM', 'EMFILE', 'ESTALE', 'ENOTCONN', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'worker_exit', 'cancelled', 'AbortError']) {
      expect(readFailure(code), code).toEqual({ code, unreadable: false });
    }
  });
});
