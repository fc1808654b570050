import { join } from 'node:path';
import { headlessStartAtLogin } from '../app/index.js';
import { loadConfig, packageRoot } from '../config/index.js';
import { consoleMirror, formatLogLine, type Logger } from '../log/index.js';
import { planReadOnly, profileDeps, providerFacts, snapshotsOf, type PlanFacts } from '../maintenance/index.js';
import { environmentKeyStore, KeyRing, NamedSecrets } from '../secrets/index.js';
import type { PlanHere } from '../mcp/index.js';

/**
 * What an in-process Core would tell a plan about this machine (the same facts, so the same plan
 * id), read without opening the stores: not an owner, start at login as it is, the configured
 * profiles, and whether a forge token is stored.
 */
function factsHere(home: string, env: NodeJS.ProcessEnv): PlanFacts {
  const keys = new KeyRing(environmentKeyStore(env), env);
  const secrets = new NamedSecrets(keys.store, home, env);
  const startAtLogin = headlessStartAtLogin(env, process.platform, join(packageRoot(), 'bin', 'steward.js'));
  const apiKey = () => keys.lookup('openai-compatible').key ?? undefined;
  return {
    service: {
      ownerRunning: false,
      startAtLogin: () => {
        const view = startAtLogin.read();
        return { enabled: view.enabled, supported: view.supported };
      },
      installStartAtLogin: () => {
        throw new Error('a read-only plan installs nothing');
      },
    },
    profiles: providerFacts(() => snapshotsOf(loadConfig(home, env).maintenance.profiles), profileDeps({ home, apiKey })),
    tokenPresent: (name) => secrets.lookup(name).value !== undefined,
  };
}

// Listened to at the first line, not at import (see pipeWriter): a closed stderr must not end `steward mcp`.
let mirror: ((text: string) => void) | undefined;
const toStderr = (text: string) => (mirror ??= consoleMirror(process.stderr))(text);
/** stderr only: `steward mcp` owns stdout, and a read-only plan writes no log file. */
const stderrLogger: Logger = {
  info: () => undefined,
  warn: (message, fields) => toStderr(`warn ${formatLogLine(message, fields)}\n`),
  error: (message, fields) => toStderr(`error ${formatLogLine(message, fields)}\n`),
};

/** The read-only plan planHere makes when no owner runs; its own module, so the maintenance room loads only when a plan is asked for. */
export function planWithoutOwner(home: string, env: NodeJS.ProcessEnv, request: Parameters<PlanHere>[0]): ReturnType<PlanHere> {
  return planReadOnly(home, factsHere(home, env), request, stderrLogger);
}
