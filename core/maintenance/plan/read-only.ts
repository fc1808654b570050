import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StewardError, type SetupPlan, type SetupRequest } from '../../api/index.js';
import type { Logger } from '../../log/index.js';
import { WriterAdmission } from '../admission.js';
import { cacheInspector } from '../cache.js';
import { Enrollment } from '../enrollment.js';
import { loadInstallSecret, SECRET_FILE } from '../hashing.js';
import { canonicalize } from '../identity.js';
import { migrateV1 } from '../migrate.js';
import { RegistryStore } from '../registry.js';
import type { Room } from '../room.js';
import type { PlanFacts } from './facts.js';
import { Setup } from './setup.js';

/** The install secret as it is: read when there, never created (a missing one matches no registration, as a new one would). */
function secretAsItIs(home: string): Buffer | null {
  return existsSync(join(home, SECRET_FILE)) ? loadInstallSecret(home) : randomBytes(32);
}

/**
 * A plan from what STEWARD_HOME holds, changing nothing: no owner lock, no install secret, no
 * registry migrated or rewritten, no folder created. `maintenance_plan` answers with it when no
 * owner runs, so a read-only question never sets up a home. With the same facts it is the plan
 * the coordinator renders (the same id), so a person can apply it with `steward maintenance enable`.
 */
export async function planReadOnly(home: string, facts: PlanFacts, request: SetupRequest, logger: Logger, signal?: AbortSignal): Promise<SetupPlan> {
  const secret = secretAsItIs(home);
  const { fingerprint, inspect, tryInspect } = cacheInspector(secret);
  const store = new RegistryStore(home, (legacy) => migrateV1(legacy, tryInspect), canonicalize, undefined, secret ? undefined : 'install_secret_damaged', { readOnly: true });
  const room: Room = { home, store, admission: new WriterAdmission(), logger, clock: Date.now, fingerprint, inspect };
  const refuse = (): never => {
    throw new StewardError('internal', 'A read-only plan is never applied here.');
  };
  return new Setup(room, new Enrollment(room), facts, async () => refuse(), refuse).plan(request, signal);
}
