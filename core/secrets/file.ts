import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { StewardError } from '../api/index.js';
import { SECRET_NAME } from './keys.js';

/** In STEWARD_HOME, mode 0600: named secrets for a headless owner (one started at login has no shell environment). */
export const SECRETS_FILE = 'secrets.json';

const SecretsFile = z.strictObject({ version: z.literal(1), secrets: z.record(z.string().regex(SECRET_NAME), z.string().min(1).max(8_192)) });

function read(home: string): Record<string, string> {
  try {
    const parsed = SecretsFile.safeParse(JSON.parse(readFileSync(join(home, SECRETS_FILE), 'utf8')));
    return parsed.success ? parsed.data.secrets : {};
  } catch {
    return {};
  }
}

export function readSecretFile(home: string, name: string): string | undefined {
  const value = read(home)[name];
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Stores (or with null, removes) one secret; the file is rewritten atomically with mode 0600. */
export function writeSecretFile(home: string, name: string, value: string | null): void {
  if (!SECRET_NAME.test(name)) throw new StewardError('invalid_params', 'A secret name is letters, digits, _ . - and starts with a letter.');
  const secrets = { ...read(home) };
  if (value === null) delete secrets[name];
  else secrets[name] = value;
  writeFileAtomic.sync(join(home, SECRETS_FILE), `${JSON.stringify({ version: 1, secrets })}\n`, { mode: 0o600 });
}
