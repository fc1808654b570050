import { lastCheckOf, nobodyImportsNote, type StewardClient } from '../api/index.js';

/**
 * What an answer served with no Steward running says beside itself (nobodyImportsNote): nothing imports
 * the agents' new transcripts while the stores are open for one call, so "No matches." may be stale.
 * Undefined when an owner answers: it imports on its schedule.
 */
export async function nobodyImports(client: StewardClient, via: 'owner' | 'in-process' | undefined): Promise<string | undefined> {
  if (via !== 'in-process') return undefined;
  return nobodyImportsNote(lastCheckOf(await client.call('Sweep.Status', {})));
}
