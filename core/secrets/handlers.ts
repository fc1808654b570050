import type { Handlers } from '../api/index.js';
import type { NamedSecrets } from './named.js';

/** The forge tokens Steward knows by name; `Secrets.List` reports these and nothing of their values. */
export const FORGE_TOKEN_NAMES = ['GITHUB_TOKEN', 'GITEA_TOKEN', 'GITCODE_TOKEN'] as const;

export function secretsHandlers(secrets: NamedSecrets): Pick<Handlers, 'Secrets.Set' | 'Secrets.List'> {
  return {
    'Secrets.Set': async ({ name, value }) => ({ name, ...(await secrets.set(name, value)) }),
    'Secrets.List': () => ({
      secrets: FORGE_TOKEN_NAMES.map((name) => {
        const { value, source } = secrets.lookup(name);
        return { name, present: value !== undefined, source };
      }),
    }),
  };
}
