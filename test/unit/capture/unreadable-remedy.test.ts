import { describe, expect, it } from 'vitest';
import { byRemedy, remedyOf, remedyWords, whatIsWrong } from '../../../core/api/index.js';
import * as panel from '../../../renderer/src/places/telemetry/unreadable-words.js';

/**
 * The one rule for what can be done about a file Steward could not read, and its words: the CLI
 * (`steward sweep`, `backfill`, `info`) and the panel (Telemetry, Home) say the same.
 */

describe('what is said of a file Steward could not read, by the CLI and the panel alike', () => {
  it('is one rule: the panel says what core/api says, not words of its own', () => {
    expect(panel.remedyOf).toBe(remedyOf);
    expect(panel.whatIsWrong).toBe(whatIsWrong);
    expect(panel.remedyWords).toBe(remedyWords);
    expect(panel.byRemedy).toBe(byRemedy);
  });

  it('says what is wrong in words, never the code (that waits under Details)', () => {
    expect(whatIsWrong('malformed')).toBe('nothing of it could be read: it may be in the middle of being written, or cut short');
    expect(whatIsWrong('damaged')).toBe('damaged: parts of it were overwritten with zeros, as a crash can leave a file');
    expect(whatIsWrong('read_failed')).toBe('its contents could not be read');
    expect(whatIsWrong('SQLITE_CORRUPT_INDEX')).toBe('a damaged database');
    expect(whatIsWrong('SQLITE_NOTADB')).toBe('not a database');
    expect(whatIsWrong('EISDIR')).toBe('a folder, not a file');
    expect(whatIsWrong('ENAMETOOLONG')).toBe('its path is too long to open');
    expect(whatIsWrong('SQLITE_BUSY')).toBe('busy: another program held it locked while Steward read it');
    expect(whatIsWrong('SQLITE_LOCKED')).toBe('busy: another program held it locked while Steward read it');
    expect(whatIsWrong('store_changed')).toBe('it was written to while Steward read it');
    // A code without words of its own is not said as "error E…" here.
    expect(whatIsWrong('EWHATEVER')).toBe('its contents could not be read');
  });

  it('tells by the code what can be done: wait for one caught mid-write, replace a damaged one, move one that is no transcript, shorten a long path', () => {
    expect(remedyOf('malformed')).toBe('wait');
    // An OpenClaw store another process held locked, or wrote while it was read: it is let go, or done.
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED', 'store_changed']) expect(remedyOf(code), code).toBe('wait');
    for (const code of ['read_failed', 'damaged', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'EWHATEVER']) expect(remedyOf(code)).toBe('replace');
    expect(remedyOf('SQLITE_NOTADB')).toBe('move');
    expect(remedyOf('EISDIR')).toBe('move');
    expect(remedyOf('ENAMETOOLONG')).toBe('shorten');
  });

  it('a file caught mid-write is not called damaged, and needs nothing unless it stays so', () => {
    const one = remedyWords('wait', 1);
    expect(one).toBe(
      'It may have been caught in the middle of being written: Steward reads it again once it changes, so there is nothing to do unless it stays like this. Then replace it with a good copy, or move it out of the agent’s folder.',
    );
    expect(one).not.toContain('damaged');
    expect(remedyWords('wait', 2)).toContain('Steward reads each again once it changes');
  });

  it('says each remedy for one file and for several', () => {
    expect(remedyWords('replace', 1)).toBe(
      'It may be damaged. Replace it with a good copy (from a backup, or the computer it came from), or move it out of the agent’s folder if it is not needed. Steward tries again once it changes.',
    );
    expect(remedyWords('replace', 3)).toBe(
      'They may be damaged. Replace each with a good copy (from a backup, or the computer it came from), or move them out of the agent’s folder if they are not needed. Steward tries again once one changes.',
    );
    expect(remedyWords('move', 1)).toBe('It is named like a transcript but is not one: move it out of the agent’s folder, or rename it.');
    expect(remedyWords('move', 2)).toBe('They are named like a transcript but are not one: move them out of the agent’s folder, or rename them.');
    expect(remedyWords('shorten', 1)).toBe('The system cannot open a path this long: shorten the names of the folders it is in, or move it to a folder with a shorter path.');
  });

  it('groups the files by remedy, in the order their newest failure came, each group keeping its files’ order', () => {
    const files = [
      { path: 'a', code: 'malformed' },
      { path: 'b', code: 'read_failed' },
      { path: 'c', code: 'malformed' },
      { path: 'd', code: 'SQLITE_CORRUPT' },
    ];
    expect(byRemedy(files)).toEqual([
      { remedy: 'wait', files: [files[0], files[2]] },
      { remedy: 'replace', files: [files[1], files[3]] },
    ]);
  });
});
