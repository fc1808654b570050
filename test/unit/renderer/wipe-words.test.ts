import { describe, expect, it } from 'vitest';
import type { ScrubStatus } from '../../../core/api/index.js';
import { wipeLine, wipingSentence } from '../../../renderer/src/places/projects/wipe-words.js';

const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);
const idle: ScrubStatus = { pending: false, running: false, progress: null, lastWipedAt: null, failed: null, estimatedMs: 1200 };

describe('the line about wiping forgotten text from the disk', () => {
  it('says nothing before any wipe was asked for or run here', () => {
    expect(wipeLine(undefined, NOW)).toBeUndefined();
    expect(wipeLine(idle, NOW)).toBeUndefined();
  });

  it('a running wipe says how far it has come, or that it waits for the disk before its first piece', () => {
    expect(wipeLine({ ...idle, pending: true, running: true, progress: { phase: 'free', percent: 42 } }, NOW)).toEqual({
      tone: 'running',
      text: 'Wiping forgotten text from the disk… 42%',
      retry: false,
    });
    const waiting = wipeLine({ ...idle, pending: true, running: true }, NOW)!;
    expect(waiting.tone).toBe('running');
    expect(waiting.text).toMatch(/waiting for the disk/);
    expect(waiting.text).not.toMatch(/%/);
  });

  it('a running wipe wins over an older one done and an older failure', () => {
    const line = wipeLine({ ...idle, pending: true, running: true, progress: { phase: 'index', percent: 5 }, lastWipedAt: NOW - 3_600_000, failed: { at: NOW - 60_000, code: 'SQLITE_FULL' } }, NOW);
    expect(line?.tone).toBe('running');
  });

  it('one owed but not running says when it runs, never that it was wiped', () => {
    const line = wipeLine({ ...idle, pending: true, lastWipedAt: NOW - 86_400_000 }, NOW)!;
    expect(line.tone).toBe('waiting');
    expect(line.text).toMatch(/waiting to be wiped/);
    expect(line.text).not.toMatch(/was wiped/);
  });

  it('one done says when', () => {
    expect(wipeLine({ ...idle, lastWipedAt: NOW - 10_000 }, NOW)?.text).toBe('Forgotten text was wiped from the disk just now.');
    expect(wipeLine({ ...idle, lastWipedAt: NOW - 5 * 60_000 }, NOW)?.text).toBe('Forgotten text was wiped from the disk 5 minutes ago.');
  });

  it('one failed says so with its code and what to do, and offers to wipe again; a full disk asks for space first', () => {
    const full = wipeLine({ ...idle, pending: true, lastWipedAt: NOW - 86_400_000, failed: { at: NOW - 120_000, code: 'SQLITE_FULL' } }, NOW)!;
    expect(full).toMatchObject({ tone: 'failed', retry: true });
    expect(full.text).toMatch(/could not be wiped from the disk \(2 minutes ago, SQLITE_FULL\)/);
    expect(full.text).toMatch(/Free some disk space, then wipe it again/);
    expect(full.text).toMatch(/steward forget --scrub/);
    expect(full.text).toMatch(/next starts/);
    expect(wipeLine({ ...idle, pending: true, failed: { at: NOW, code: 'SQLITE_BUSY' } }, NOW)!.text).toMatch(/still reading the cache: wipe it again in a moment/);
    const other = wipeLine({ ...idle, pending: true, failed: { at: NOW, code: 'internal' } }, NOW)!;
    expect(other.text).toMatch(/Wipe it again/);
    expect(other.text).not.toMatch(/disk space/);
  });
});

describe("what a forget's own line says of the wipe asked with it", () => {
  it('nothing before its rows are gone; then that the wipe waits for the disk; then each phase; then that it is done', () => {
    expect(wipingSentence(undefined, false)).toBeUndefined();
    expect(wipingSentence(undefined, true)).toMatch(/waiting for the disk/);
    expect(wipingSentence({ phase: 'index', done: 3, total: 12, complete: false }, true)).toBe('Wiping it from the disk: rewriting the search index… 25%');
    expect(wipingSentence({ phase: 'journal', done: 0, total: 1, complete: false }, true)).toBe('Wiping it from the disk: emptying the journal…');
    expect(wipingSentence({ phase: 'journal', done: 1, total: 1, complete: true }, true)).toBe('Forgotten and wiped from the disk.');
  });
});
