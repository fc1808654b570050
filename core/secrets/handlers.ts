import { FORGE_TOKEN_NAMES, type Handlers } from '../api/index.js';
import type { NamedSecrets } from './named.js';

/** The forge tokens Steward knows by name (the contract's one list); `Secrets.List` reports these and nothing of their values. */
const TOKEN_NAMES = Object.values(FORGE_TOKEN_NAMES);

export function secretsHandlers(secrets: NamedSecrets): Pick<Handlers, 'Secrets.Set' | 'Secrets.List'> {
  return {
    'Secrets.Set': async ({ name, value }) => ({ name, ...(await secrets.set(name, value)) }),
    'Secrets.List': () => ({
      secrets: TOKEN_NAMES.map((name) => {
        const { value, source } = secrets.lookup(name);
        return { name, present: value !== undefined, source };
      }),
    }),
  };
}
