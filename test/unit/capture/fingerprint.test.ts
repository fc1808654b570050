import { describe, expect, it } from 'vitest';
import { FingerprintMap, type TranscriptFile } from '../../../core/transcripts/index.js';

const file = (over: Partial<TranscriptFile> = {}): TranscriptFile => ({ path: '/s/openclaw-agent.sqlite', dev: 1n, ino: 7n, size: 100, mtimeMs: 1_000, source: 'openclaw-store', ...over });

describe('the fingerprint map keeps where a resumable read stopped', () => {
  it('hands a changed file back with the position its last committed read reported', () => {
    const map = new FingerprintMap();
    expect(map.resumable(file())).toEqual(file());
    map.advance(file(), 'openclaw', 'mark-1');
    const grown = file({ size: 180, mtimeMs: 2_000 });
    expect(map.isUnchanged(grown)).toBe(false);
    expect(map.resumable(grown)).toEqual({ ...grown, resume: 'mark-1' });
  });

  it('a skipped unchanged file keeps its position; a read that reports none, or another file at the path, has none', () => {
    const map = new FingerprintMap();
    map.advance(file(), 'openclaw', 'mark-1');
    map.advance(file(), 'openclaw');
    expect(map.resumable(file({ size: 200 })).resume).toBe('mark-1');
    // The store was replaced (a restored backup): its rows are not the ones the mark counted.
    expect(map.resumable(file({ ino: 8n })).resume).toBeUndefined();
    map.advance(file({ size: 200 }), 'openclaw');
    expect(map.resumable(file({ size: 300 })).resume).toBeUndefined();
  });
});
