import { errorCode } from './codes/index.js';

type ConsoleStream = NodeJS.WritableStream & { destroyed?: boolean; writable?: boolean };

/** Why each console stream went away (its error's code); a stream not in it is still there. */
const gone = new WeakMap<ConsoleStream, string>();
/** The mirrors of each stream, each told at the stream's error that it went away (see consoleMirror). */
const mirrors = new WeakMap<ConsoleStream, Set<() => void>>();

/**
 * One listener per stream, however many loggers mirror to it. Heard from the first mirror on: a
 * closed pipe's EPIPE comes as this event after the write that met it, and unheard it ended the
 * process (`steward serve | head -1` died at its next log line, leaving daemon.json behind).
 */
function listen(stream: ConsoleStream): Set<() => void> {
  const heard = mirrors.get(stream);
  if (heard) return heard;
  const tellers = new Set<() => void>();
  mirrors.set(stream, tellers);
  stream.on('error', (error: unknown) => {
    if (!gone.has(stream)) gone.set(stream, errorCode(error));
    for (const tell of tellers) tell();
  });
  return tellers;
}

function tryWrite(stream: ConsoleStream, text: string): void {
  // Closed without an error event (its reader went before this write): gone all the same.
  if (stream.destroyed === true || stream.writable === false) {
    gone.set(stream, 'ERR_STREAM_DESTROYED');
    return;
  }
  try {
    stream.write(text);
  } catch (error) {
    gone.set(stream, errorCode(error));
  }
}

/**
 * Writes log lines to a console (a daemon's stderr) while it is there. A daemon outlives its console:
 * once its reader goes away (EPIPE, a closed or broken stream, a full disk) lines are no longer written
 * there, and `onGone` is told once, with the error's code, at the error or at the first line that missed
 * it, whichever comes first (a console written once, serve's panel line on stdout, has no line after the
 * one that failed). The file logger notes it in its file, so the console's silence is explained. Nothing
 * here throws or ends the process.
 */
export function consoleMirror(stream: ConsoleStream, onGone: (code: string) => void = () => undefined): (text: string) => void {
  let told = false;
  const tell = () => {
    const code = gone.get(stream);
    if (code === undefined || told) return;
    told = true;
    onGone(code);
  };
  listen(stream).add(tell);
  return (text) => {
    if (!gone.has(stream)) tryWrite(stream, text);
    tell();
  };
}
