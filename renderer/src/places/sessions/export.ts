import type { Params, StewardClient } from '../../../../core/api/index.js';

/**
 * A conversation's export, fetched a piece at a time (Sessions.Export, then Sessions.ExportNext until
 * `next` is null), as a file. Measured with 112 pieces of the owner's million characters (112 MB):
 * the pieces kept as strings and made one Blob at the end held the page 2.2 s in that one step, and
 * joined into one string 1.2 s; each piece made a Blob when it comes takes a few ms, the Blob of
 * those well under one, and no string outlives its piece.
 */
export type ExportOutcome = { kind: 'done'; filename: string; file: Blob; redacted: boolean } | { kind: 'cancelled' };

export interface ExportOptions {
  /** Aborted: no further piece is asked for, and one on its way is dropped. */
  signal?: AbortSignal;
  /** The characters that have come so far, said before the next piece is asked for. */
  onProgress?: (filename: string, chars: number) => void;
  /** A turn for the page between pieces (nextTask unless a test says otherwise). */
  pause?: () => Promise<void>;
}

/** A turn of the page's own: the notice is painted and a click on Cancel is heard before the next piece. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export async function exportConversation(client: StewardClient, params: Params<'Sessions.Export'>, { signal, onProgress, pause = nextTask }: ExportOptions = {}): Promise<ExportOutcome> {
  const first = await client.call('Sessions.Export', params);
  if (signal?.aborted) return { kind: 'cancelled' };
  const parts = [new Blob([first.content])];
  let chars = first.content.length;
  for (let next = first.next; next !== null; ) {
    onProgress?.(first.filename, chars);
    await pause();
    if (signal?.aborted) return { kind: 'cancelled' };
    const piece = await client.call('Sessions.ExportNext', { next });
    if (signal?.aborted) return { kind: 'cancelled' };
    parts.push(new Blob([piece.content]));
    chars += piece.content.length;
    next = piece.next;
  }
  return { kind: 'done', filename: first.filename, file: new Blob(parts, { type: first.mediaType }), redacted: first.redacted };
}

/** Hands the file to the browser to download (SessionHeader's `download`, for a file already a Blob). */
export function saveFile(name: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
