import type { StewardClient } from '../../api/index.js';
import { percentDown } from '../../api/index.js';
import type { Connection } from '../connect.js';
import type { CliIo } from '../output.js';

/** How often the wait asks how far the walk has come, and how often a line says it. */
const POLL_MS = 250;
const SAY_EVERY_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Hands the wait's stop to another asker than Ctrl-C (`steward backfill --cancel`); returns how to take it back. */
export type StopHook = (stop: () => void) => () => void;

/**
 * After an import in this process (no owner runs), waits for the index walk the import started, so
 * what it imported is searchable when the verb ends: with no owner nothing else would index it, and
 * `steward search` would find none of it. Says how far it has come on stderr; Ctrl-C (or `onStop`'s
 * asker) stops the wait, and the walk stops between pieces (the next sweep or a running Steward goes on from there). An
 * owner indexes in the background, and a verb it answered does not wait.
 */
export async function awaitIndexing(io: CliIo, client: StewardClient, via: Connection['via'], onStop?: StopHook): Promise<void> {
  if (via !== 'in-process') return;
  let state = await client.call('Search.Indexing', {});
  // Only what was imported and not yet indexed: an upgrade's re-tag walk over what is searchable already
  // may take long, and a scheduled sweep (cron, a script) is not held for it.
  if (!state.walking || state.indexing?.phase !== 'index') return;
  const say = ({ indexedParts, totalParts }: { indexedParts: number; totalParts: number }) => io.stderr(`Making the imported history searchable: ${percentDown(indexedParts, totalParts)}…\n`);
  let stopped = false;
  const stop = () => (stopped = true);
  process.once('SIGINT', stop);
  const unhook = onStop?.(stop);
  const started = performance.now();
  let said = started;
  try {
    say(state.indexing);
    while (!stopped && state.walking && state.indexing?.phase === 'index') {
      await sleep(POLL_MS);
      state = await client.call('Search.Indexing', {});
      if (state.indexing?.phase !== 'index' || performance.now() - said < SAY_EVERY_MS) continue;
      said = performance.now();
      say(state.indexing);
    }
  } finally {
    process.off('SIGINT', stop);
    unhook?.();
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  if (state.indexing?.phase !== 'index') io.stderr(`All of it is searchable now (indexed in ${seconds} s).\n`);
  else if (stopped) io.stderr('Stopped before the imported history was all searchable: the next `steward sweep`, or a running Steward (`steward serve`), goes on from there.\n');
  else io.stderr('Indexing stopped before the imported history was all searchable (the log says why): the next `steward sweep`, or a running Steward (`steward serve`), tries again from there.\n');
}
