import { describe, expect, it } from 'vitest';
import { FingerprintMap, type TranscriptFile } from '../../../core/transcripts/index.js';

function file(path: string, ino = 1n): TranscriptFile {
  return { path, dev: 1n, ino, size: 10, mtimeMs: 1_000, ctimeMs: 1_000, source: 'code' };
}

describe('FingerprintMap.retainOnly', () => {
  it('forgets exactly the paths of that provider a walk did not find again', () => {
    const map = new FingerprintMap();
    for (const path of ['/a/1', '/a/2', '/a/3']) map.advance(file(path), 'claude');
    map.advance(file('/b/1'), 'codex');
    // Everything found: nothing to forget.
    expect(map.retainOnly('claude', [file('/a/1'), file('/a/2'), file('/a/3')])).toEqual([]);
    // A path listed twice does not stand in for one that is gone; another provider's path is not touched.
    expect(map.retainOnly('claude', [file('/a/1'), file('/a/1'), file('/a/2'), file('/b/1')])).toEqual(['/a/3']);
    expect(map.size).toBe(3);
    expect(map.isUnchanged(file('/a/3'))).toBe(false);
    // The count followed the sweep: the next complete walk forgets nothing more.
    expect(map.retainOnly('claude', [file('/a/1'), file('/a/2')])).toEqual([]);
    expect(map.retainOnly('codex', [])).toEqual(['/b/1']);
    expect(map.size).toBe(2);
  });

  it('counts a path once when it is advanced again, and under its new provider when it moves', () => {
    const map = new FingerprintMap();
    map.advance(file('/x/1'), 'claude');
    map.advance(file('/x/1', 2n), 'claude');
    map.advance(file('/x/2'), 'claude');
    expect(map.retainOnly('claude', [file('/x/2')])).toEqual(['/x/1']);
    map.advance(file('/x/2'), 'gemini');
    expect(map.retainOnly('claude', [])).toEqual([]);
    expect(map.retainOnly('gemini', [])).toEqual(['/x/2']);
    expect(map.size).toBe(0);
  });

  it('looks at no listed file for a provider it knows nothing of (the first tick after a start)', () => {
    const map = new FingerprintMap();
    map.advance(file('/b/1'), 'codex');
    let looked = 0;
    const listed = Array.from({ length: 1_000 }, (_, i) => {
      const f = file(`/a/${i}`);
      return Object.defineProperty(f, 'path', { get: () => ((looked += 1), `/a/${i}`) });
    });
    // A restart's walk of 20,000 files was looked up path by path here, at once, before planning began.
    expect(map.retainOnly('claude', listed)).toEqual([]);
    expect(looked).toBe(0);
    expect(map.size).toBe(1);
  });
});
