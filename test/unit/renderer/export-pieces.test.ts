import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MethodName, Params, Result, StewardClient } from '../../../core/api/index.js';
import { exportConversation } from '../../../renderer/src/places/sessions/export.js';

/**
 * A long export as the panel fetches it: Sessions.Export, then Sessions.ExportNext per piece. 112 MB of
 * Markdown held as strings and turned into one Blob at the end took 2.2 s in one step (Node, 112 pieces
 * of PIECE_CHARS); each piece made a Blob of its own when it arrives takes a few ms, and the Blob of
 * those is made at once. So the pieces are never one string, nor kept as strings until the end.
 */

const PIECES = ['# Conversation\n\n', 'é part two\n', 'part three\n'];

/** Every call in order; `during` runs while the piece of that index (1 = first ExportNext) is asked for. */
function fakeClient(asked: string[], during: Record<number, () => void> = {}): StewardClient {
  let served = 0;
  const call = async <M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> => {
    asked.push(method);
    const index = served++;
    during[index]?.();
    const next = index + 1 < PIECES.length ? `token-${index + 1}` : null;
    if (method === 'Sessions.Export') return { filename: 'session-s1.md', mediaType: 'text/markdown', content: PIECES[0]!, redacted: true, next } as Result<M>;
    expect(params).toEqual({ next: `token-${index}` });
    return { content: PIECES[index]!, next } as Result<M>;
  };
  return { call, on: () => () => undefined } as StewardClient;
}

afterEach(() => vi.restoreAllMocks());

describe('a long export', () => {
  it('makes each piece a Blob when it comes and the file a Blob of those, never one string', async () => {
    const made: BlobPart[][] = [];
    const RealBlob = Blob;
    vi.spyOn(globalThis, 'Blob').mockImplementation(function (parts?: BlobPart[], options?: BlobPropertyBag) {
      made.push([...(parts ?? [])]);
      return new RealBlob(parts, options);
    } as unknown as () => Blob);
    const outcome = await exportConversation(fakeClient([]), { sessionId: 's1', format: 'markdown' }, { pause: async () => undefined });
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    // One Blob per piece, of that piece alone; the last of Blobs only.
    expect(made.slice(0, PIECES.length)).toEqual(PIECES.map((p) => [p]));
    expect(made.at(-1)!.every((part) => part instanceof RealBlob)).toBe(true);
    expect(made).toHaveLength(PIECES.length + 1);
    expect(await outcome.file.text()).toBe(PIECES.join(''));
    expect(outcome.file.type).toBe('text/markdown');
    expect(outcome).toMatchObject({ filename: 'session-s1.md', redacted: true });
  });

  it('gives the page a turn before each next piece, after saying how much has come', async () => {
    const steps: string[] = [];
    const client = fakeClient(steps);
    await exportConversation(client, { sessionId: 's1' }, {
      pause: async () => void steps.push('turn'),
      onProgress: (filename, chars) => steps.push(`${filename} ${chars}`),
    });
    const first = PIECES[0]!.length;
    const second = first + PIECES[1]!.length;
    expect(steps).toEqual(['Sessions.Export', `session-s1.md ${first}`, 'turn', 'Sessions.ExportNext', `session-s1.md ${second}`, 'turn', 'Sessions.ExportNext']);
  });

  it('asks for no further piece once cancelled, even while a piece is on its way', async () => {
    const asked: string[] = [];
    const cancel = new AbortController();
    // Cancelled while the first ExportNext is answered: that piece is dropped, no other asked for.
    const outcome = await exportConversation(fakeClient(asked, { 1: () => cancel.abort() }), { sessionId: 's1' }, { pause: async () => undefined, signal: cancel.signal });
    expect(outcome).toEqual({ kind: 'cancelled' });
    expect(asked).toEqual(['Sessions.Export', 'Sessions.ExportNext']);
  });

  it('cancelled during the turn between pieces, asks for none', async () => {
    const asked: string[] = [];
    const cancel = new AbortController();
    const outcome = await exportConversation(fakeClient(asked), { sessionId: 's1' }, { pause: async () => cancel.abort(), signal: cancel.signal });
    expect(outcome).toEqual({ kind: 'cancelled' });
    expect(asked).toEqual(['Sessions.Export']);
  });
});
