import { lastCheckOf, nobodyImportsNote, type StewardClient } from '../api/index.js';

/** Where no Steward runs (the stores were opened for this one call): when the agents' folders were last checked. */
export interface Alone {
  lastCheckAt: number | null;
}

/** Alone, when the stores were opened for this call; undefined when an owner answers: it imports on its schedule. */
export async function checkedAlone(client: StewardClient, via: 'owner' | 'in-process' | undefined): Promise<Alone | undefined> {
  if (via !== 'in-process') return undefined;
  return { lastCheckAt: lastCheckOf(await client.call('Sweep.Status', {})) };
}

/**
 * What an answer served with no Steward running says beside itself (nobodyImportsNote): nothing imports
 * the agents' new transcripts while the stores are open for one call, so "No matches." may be stale.
 * Undefined when an owner answers.
 */
export async function nobodyImports(client: StewardClient, via: 'owner' | 'in-process' | undefined): Promise<string | undefined> {
  const alone = await checkedAlone(client, via);
  return alone && nobodyImportsNote(alone.lastCheckAt);
}
