import { StewardError } from '../api/index.js';
import { followRedirects } from './identity.js';
import type { Registration, RegistryV2 } from './schema.js';

/** A registration by id, legacy id (through redirects) or a unique alias; a held one names its conflict. */
export function findRegistration(registry: RegistryV2, registrationId: string): Registration {
  const id = followRedirects(registry.redirects, registrationId) ?? registrationId;
  const found = registry.registrations.find((r) => r.registrationId === id);
  if (found) return found;
  // Aliases are lookup metadata only: they find a registration when exactly one carries them.
  const byAlias = registry.registrations.filter((r) => r.aliases.some((a) => a.toLowerCase() === registrationId.toLowerCase()));
  if (byAlias.length === 1) return byAlias[0]!;
  if (byAlias.length > 1) throw new StewardError('invalid_params', 'That alias names several registrations; use a registration id.');
  const held = registry.conflicts.find((c) => c.candidates.some((k) => k.bundles.some((b) => b.registration?.registrationId === id)));
  if (held) throw new StewardError(held.kind, 'That registration is held by an open conflict; resolve it first.', { conflictId: held.conflictId });
  throw new StewardError('not_found', 'No registration has that id or alias.');
}
