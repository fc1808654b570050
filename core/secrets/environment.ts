import { StewardError } from '../api/index.js';
import { REMOTE_CURATORS, type RemoteCurator } from '../api/index.js';
import { KEY_ENV_NAMES, type KeyStore, type SecretName } from './keys.js';

/** The variable a named secret comes from: a curator's documented one, else the name itself (GITHUB_TOKEN). */
function envVarOf(name: RemoteCurator | SecretName): string {
  return (REMOTE_CURATORS as readonly string[]).includes(name) ? KEY_ENV_NAMES[name as RemoteCurator] : name;
}

/** A refusal that names the variable to set; it never carries the key. */
export function readOnlyKeyError(curator: RemoteCurator | SecretName): StewardError {
  const name = envVarOf(curator);
  return new StewardError(
    'key_store_unavailable',
    `Steward keeps no API keys in headless mode: set ${name} in the environment of the Steward process and restart it`,
    { curator, envVar: name },
  );
}

function present(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Headless mode's store: keys come from the environment and cannot be written from here. */
export function environmentKeyStore(env: NodeJS.ProcessEnv): KeyStore {
  return {
    kind: 'environment',
    status: () => ({ writable: false, message: 'Headless mode reads API keys from the environment only.' }),
    get: (name) => present(env[envVarOf(name)]),
    set: (curator) => Promise.reject(readOnlyKeyError(curator)),
  };
}

/** The environment's key for a curator, whatever the store: the app falls back to it. */
export function environmentKey(env: NodeJS.ProcessEnv, curator: RemoteCurator): string | undefined {
  return present(env[KEY_ENV_NAMES[curator]]);
}
