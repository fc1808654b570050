import { z } from 'zod';

/**
 * Named secrets (forge tokens such as GITHUB_TOKEN): set through the owner, which keeps them in the
 * OS keychain (the app) or its 0600 secrets file (headless). Values go in, never out: results carry
 * presence and source only.
 */
const SecretName = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'expected a name of letters, digits, _ . - starting with a letter');
const SecretSource = z.enum(['keychain', 'file', 'environment', 'none']);

export const secretsMethods = {
  'Secrets.Set': {
    params: z.strictObject({ name: SecretName, value: z.string().min(1).max(8_192).nullable() }),
    result: z.strictObject({ name: z.string(), stored: z.boolean(), source: SecretSource }),
  },
  'Secrets.List': {
    params: z.strictObject({}),
    result: z.strictObject({ secrets: z.array(z.strictObject({ name: z.string(), present: z.boolean(), source: SecretSource })) }),
  },
} as const;
