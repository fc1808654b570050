import { describe, expect, it } from 'vitest';
import { remainingWords, timeLeftMs } from '../../../renderer/src/places/projects/importing.js';

/**
 * QA: the first-run import of everything said "about 8.3 s left" for an import that took 0.6 s. The time
 * left was the time since the click over the files done, times the files still to do: the first
 * progress event (1 of 14 files, a file counted once its read begins) came after the folders were
 * listed, so the listing's time was paid again for each of the 13 files left. A time left is said only
 * once the import has read long enough, and enough files, to measure its own pace.
 */
describe('the time an import has left', () => {
  it('is not said from the first progress event, whatever the time before it', () => {
    // The QA case: 0.64 s after the click, the first file's read had just begun.
    expect(timeLeftMs({ at: 640, done: 1 }, { at: 640, done: 1 }, 14)).toBeUndefined();
    expect(remainingWords(timeLeftMs({ at: 640, done: 1 }, { at: 640, done: 1 }, 14))).toBe('');
  });

  it('is not said until enough reading was measured: a second and a few files', () => {
    // A quarter of a second of progress: too short to tell a pace.
    expect(timeLeftMs({ at: 640, done: 1 }, { at: 890, done: 9 }, 14)).toBeUndefined();
    // A second, but one file: one file's size is no pace.
    expect(timeLeftMs({ at: 640, done: 1 }, { at: 2_640, done: 2 }, 14)).toBeUndefined();
  });

  it('goes by the pace read between progress events, not by the listing before them', () => {
    // 10 files in a second: 100 ms each, 20 left.
    expect(timeLeftMs({ at: 640, done: 1 }, { at: 1_640, done: 11 }, 31)).toBe(2_000);
    // The same pace after a slow listing (5 s before the first file): the same time left.
    expect(timeLeftMs({ at: 5_000, done: 1 }, { at: 6_000, done: 11 }, 31)).toBe(2_000);
  });

  it('says nothing once every file is under way', () => {
    expect(timeLeftMs({ at: 0, done: 1 }, { at: 2_000, done: 14 }, 14)).toBeUndefined();
  });
});
