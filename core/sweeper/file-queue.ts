import { resolve } from 'node:path';

/**
 * The tail of each file's queue of writes: one queue per file for every writer in this process, so
 * writes land in the order they were made and a later one never lands under an older one. Writes
 * are atomic and durable off the event loop (write-file-atomic's async form): the fsync waits on the
 * disk, which a busy one held for 0.2-0.6 s, and a `.sync` write held the owner's loop (the panel,
 * the RPCs and capture) that long.
 */
const queues = new Map<string, Promise<void>>();

/** Queues `write` after every earlier write of `file`; settles as it does. */
export function queueWrite(file: string, write: () => Promise<void>): Promise<void> {
  const key = resolve(file);
  const written = (queues.get(key) ?? Promise.resolve()).then(write);
  const tail = written.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return written;
}

/** Settles once the writes queued so far, of `file` or of every file, have landed or failed. */
export async function writesLanded(file?: string): Promise<void> {
  if (file !== undefined) await queues.get(resolve(file));
  else await Promise.all(queues.values());
}
