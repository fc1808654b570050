import { errorCode } from './codes/index.js';

type ConsoleStream = NodeJS.WritableStream & { destroyed?: boolean; writable?: boolean };

/** Why each console stream went away (its error's code); a stream not in it is still there. */
const gone = new WeakMap<ConsoleStream, string>();
const heard = new WeakSet<ConsoleStream>();

/**
 * One listener per stream, however many loggers mirror to it. Heard from the first mirror on: a
 * closed pipe's EPIPE comes as this event after the write that met it, and unheard it ended the
 * process (`steward serve | head -1` died at its next log line, leaving daemon.json behind).
 */
function listen(stream: ConsoleStream): void {
  if (heard.has(stream)) return;
  heard.add(stream);
  stream.on('error', (error: unknown) => {
    if (!gone.has(stream)) gone.set(stream, errorCode(error));
  });
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
 * once its reader goes away (EPIPE, a closed or broken stream) lines are no longer written there, and
 * `onGone` is told once, with the error's code, at the first line that missed it (the file logger notes
 * it in its file, so the console's silence is explained). Nothing here throws or ends the process.
 */
export function consoleMirror(stream: ConsoleStream, onGone: (code: string) => void = () => undefined): (text: string) => void {
  listen(stream);
  let told = false;
  return (text) => {
    if (!gone.has(stream)) tryWrite(stream, text);
    const code = gone.get(stream);
    if (code === undefined || told) return;
    told = true;
    onGone(code);
  };
}
