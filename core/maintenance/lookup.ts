import { StewardError } from '../api/index.js';
import { followRedirects } from './identity.js';
import type { Registration, RegistryV2 } from './schema.js';
import { publicRepoId } from './status.js';

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

/**
 * The registrations that maintain the repository a person names: its canonical id (HOST/OWNER/NAME),
 * OWNER/NAME, or an alias. Several caches of one repository come back together (the caller picks
 * among copies of the same thing); the same OWNER/NAME on two hosts is two repositories, so it is
 * refused with the names that tell them apart rather than answered from whichever sorts first.
 */
export function registrationsNamed(registrations: readonly Registration[], repo: string): Registration[] {
  const q = repo.toLowerCase();
  const exact = registrations.filter((r) => r.canonicalRepoId.toLowerCase() === q);
  if (exact.length > 0) return exact;
  const named = registrations.filter((r) => r.canonicalRepoId.toLowerCase().endsWith(`/${q}`) || r.aliases.some((a) => a.toLowerCase() === q));
  if (named.length === 0) throw new StewardError('not_found', 'No registered repository cache holds that repository.');
  const choices = [...new Set(named.map((r) => publicRepoId(r.canonicalRepoId)))].sort();
  if (choices.length > 1) {
    throw new StewardError('repository_ambiguous', `${publicRepoId(repo)} names ${choices.length} maintained repositories; name one as HOST/OWNER/NAME: ${choices.join(', ')}.`, { choices });
  }
  return named;
}
