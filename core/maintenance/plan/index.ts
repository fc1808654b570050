// Plans: spec 004's setup surface — plan (read-only, deterministic), confirm, apply — over enrollment and reconciliation, with idempotency.
// Never: changes anything while planning, applies a plan other than the one confirmed, or lets an agent confirm a service, a download or a remote transfer.
export { Setup, operationKeyOf, type ApplyParams } from './setup.js';
export { planReadOnly } from './read-only.js';
export { builtinFacts, type PlanFacts, type ProfileFacts, type ServiceFacts, type ModelState } from './facts.js';
export { setupStatusOf } from './words.js';
export { providerFacts, snapshotsOf, type ConfiguredProfile } from './providers.js';
