import { describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { secretsHandlers } from '../../../core/secrets/handlers.js';
import type { NamedSecrets } from '../../../core/secrets/named.js';

/** A store that records what it was asked to keep, so a refused call can be seen to change nothing. */
function recordingStore(): { store: NamedSecrets; sets: Array<[string, string | null]> } {
  const sets: Array<[string, string | null]> = [];
  const store = {
    lookup: () => ({ value: undefined, source: 'none' }),
    set: async (name: string, value: string | null) => {
      sets.push([name, value]);
      return { stored: value !== null, source: value === null ? 'none' : 'file' };
    },
  } as unknown as NamedSecrets;
  return { store, sets };
}

describe('Secrets.Set', () => {
  it('keeps a forge token, refuses a name no forge reads and stores nothing, and still forgets any name', async () => {
    const { store, sets } = recordingStore();
    const set = secretsHandlers(store)['Secrets.Set'];
    await expect(set({ name: 'GITEA_TOKEN', value: 'a-token-value' }, undefined as never)).resolves.toMatchObject({ name: 'GITEA_TOKEN', stored: true });

    const refused = await Promise.resolve(set({ name: 'GITHUB_TOKN', value: 'a-token-value' }, undefined as never)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StewardError);
    expect(refused).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('GITHUB_TOKEN, GITEA_TOKEN, GITCODE_TOKEN') });

    // A typo an older Steward stored can be forgotten.
    await set({ name: 'GITHUB_TOKN', value: null }, undefined as never);
    expect(sets).toEqual([
      ['GITEA_TOKEN', 'a-token-value'],
      ['GITHUB_TOKN', null],
    ]);
  });
});
