import { FORGE_TOKEN_NAMES, StewardError, type Handlers } from '../api/index.js';
import type { NamedSecrets } from './named.js';

/** The forge tokens Steward knows by name (the contract's one list); `Secrets.List` reports these and nothing of their values. */
const TOKEN_NAMES = Object.values(FORGE_TOKEN_NAMES);

export function secretsHandlers(secrets: NamedSecrets): Pick<Handlers, 'Secrets.Set' | 'Secrets.List'> {
  return {
    'Secrets.Set': async ({ name, value }) => {
      // Storing a name no forge reads (a typo) would keep a secret nothing uses and Secrets.List never shows;
      // forgetting one (value null) stays possible, so a typo stored by an older Steward can be removed.
      if (value !== null && !TOKEN_NAMES.includes(name)) throw new StewardError('invalid_params', `Steward reads no secret named ${name}: a forge token is ${TOKEN_NAMES.join(', ')}`);
      return { name, ...(await secrets.set(name, value)) };
    },
    'Secrets.List': () => ({
      secrets: TOKEN_NAMES.map((name) => {
        const { value, source } = secrets.lookup(name);
        return { name, present: value !== undefined, source };
      }),
    }),
  };
}
