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

/** The most characters of the title a file name keeps: enough to tell conversations apart in a Downloads folder. */
const TITLE_CHARS = 56;

/**
 * The name an export is saved under: the conversation's title as lower-case words joined by hyphens
 * (letters with their marks, and digits, of any script; whatever a file system or a shell stumbles on
 * dropped), cut at a word, then the first characters of its id so two of the same title stay apart, in the extension of
 * `apiName` (the name Sessions.Export gave, which says the format). `title` undefined (it may hold a
 * secret the export redacts): "conversation" instead.
 */
export function exportFileName(session: { title: string | undefined; sessionId: string }, apiName: string): string {
  const dot = apiName.lastIndexOf('.');
  const extension = dot === -1 ? '' : apiName.slice(dot);
  const words = session.title?.normalize('NFC').toLowerCase().match(/[\p{L}\p{M}\p{N}_]+/gu) ?? [];
  let name = '';
  for (const word of words) {
    const longer = name === '' ? word : `${name}-${word}`;
    if (longer.length > TITLE_CHARS) break;
    name = longer;
  }
  if (name === '' && words[0] !== undefined) name = words[0].slice(0, TITLE_CHARS);
  const short = session.sessionId.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 8).replace(/^-+|-+$/g, '');
  return `${name || 'conversation'}${short ? `-${short}` : ''}${extension}`;
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
