import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { packBatch, unpackBatch } from '../../../core/transcripts/packed.js';
import type { TranscriptBatch } from '../../../core/transcripts/index.js';
import { partRow, sessionRow } from '../../support/rows.js';

/** What the owner receives: the packed batch through the structured clone postMessage uses. */
function throughWorker(batch: TranscriptBatch): TranscriptBatch {
  return unpackBatch(deserialize(serialize(packBatch(batch))) as ReturnType<typeof packBatch>);
}

describe('a batch posted by the read worker', () => {
  it('arrives as it left: every field of every part, nulls, empty strings and text beyond Latin-1 included', () => {
    const batch: TranscriptBatch = {
      sessions: [sessionRow({ sessionId: 's1' }), sessionRow({ sessionId: 's2', title: 'Fix the uploader' })],
      titleClaims: [{ leafPartPrefix: 'cc:abc:', fallbackSessionId: 's1', title: 'A title', source: 'summary' }],
      parts: [
        partRow({ partId: 'cc:a:0', sessionId: 's1', role: 'user', kind: 'text', ts: 1_700_000_000_000, text: 'hello', meta: null, flags: 8 }),
        partRow({ partId: 'cc:a:1', sessionId: 's1', role: null, kind: 'tool_use', ts: null, text: null, meta: '{"name":"Bash"}', flags: 0 }),
        partRow({ partId: 'cc:b:0', sessionId: 's2', role: 'assistant', kind: 'text', ts: 0, text: '', meta: '', flags: 15 }),
        partRow({ partId: 'cc:c:0', sessionId: 's2', role: 'assistant', kind: 'thinking', ts: -5, text: 'naïve 😀 日本語 \u0000 end', meta: '{"x":"é"}', flags: 4, contentKey: 'k1' }),
        partRow({ partId: 'oc:d:0', sessionId: 's1', provider: 'openclaw', role: 'user', kind: 'text', ts: 1.5, text: 'last', meta: null, flags: 1, contentKey: 'k2' }),
      ],
    };
    expect(throughWorker(batch)).toStrictEqual(batch);
  });

  it('keeps a batch without title claims without them, and an empty batch empty', () => {
    const batch: TranscriptBatch = { sessions: [sessionRow({ sessionId: 's' })], parts: [partRow({ partId: 'cc:x:0', sessionId: 's', text: 'x' })] };
    expect(throughWorker(batch)).toStrictEqual(batch);
    expect('titleClaims' in throughWorker(batch)).toBe(false);
    expect(throughWorker({ sessions: [], parts: [] })).toStrictEqual({ sessions: [], parts: [] });
  });

  it('sends each repeated name once per batch, not once per part', () => {
    const parts = Array.from({ length: 500 }, (_, i) => partRow({ partId: `cc:${i}:0`, sessionId: 'one-session', role: i % 2 ? 'user' : 'assistant', kind: 'text', text: `t${i}` }));
    const packed = packBatch({ sessions: [], parts });
    expect([...packed.names].sort()).toEqual(['assistant', 'claude', 'one-session', 'text', 'user'].sort());
    expect(unpackBatch(packed).parts).toStrictEqual(parts);
  });

  it('cuts texts back whole where they fill, cross and overflow the joined pieces', () => {
    // Sizes around the 32 Ki-character piece: exact fits, a one-character overflow, a value larger
    // than a piece, empty strings and nulls at piece edges, and two-byte text.
    const sizes = [32 * 1024, 0, 1, 32 * 1024 - 1, 2, 100_000, 0, 16 * 1024, 16 * 1024, 16 * 1024 + 1, 5];
    const parts = sizes.flatMap((size, i) => [
      partRow({ partId: `cc:${i}:0`, sessionId: 's', text: (i % 2 ? 'é' : 'a').repeat(size), meta: i % 3 ? null : 'x'.repeat(size) }),
      partRow({ partId: `cc:${i}:1`, sessionId: 's', text: null, meta: '' }),
    ]);
    const batch: TranscriptBatch = { sessions: [], parts };
    expect(throughWorker(batch)).toStrictEqual(batch);
    const packed = packBatch(batch);
    expect(packed.text.pieces.length).toBeGreaterThan(4);
    expect(Math.max(...packed.text.pieces.filter((piece) => piece.length !== 100_000).map((piece) => piece.length))).toBeLessThanOrEqual(32 * 1024);
  });
});
