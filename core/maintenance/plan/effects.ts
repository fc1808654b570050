import { folderWords, type DataBoundary, type SetupEffect } from '../../api/index.js';
import type { ConfigSnapshot, Policy } from '../schema.js';
import type { ModelState } from './facts.js';

export type PlanAction = 'create' | 'update' | 'resume' | 'none';

/** Everything the sentences of a plan are made from; nothing here is a path, an address or a secret. */
export interface EffectInputs {
  action: PlanAction;
  repo: string;
  forgeHost: string | null;
  policy: Policy;
  previous: { policy: Policy; configHash: string; enabled: boolean; repair: boolean } | null;
  configHash: string;
  snapshot: ConfigSnapshot;
  boundary: { boundary: DataBoundary; host: string | null };
  /** Null when RAG is off: the provider was not asked. */
  model: ModelState | null;
  ownerRunning: boolean;
  /** Start at login is planned: it is off, supported here, and the request did not leave it out. */
  installLogin: boolean;
  download: boolean;
  /** Local document folders a new registration reads: counted, never named. */
  documentFolders: number;
}

const COLLECTION_WORDS: Record<string, string> = {
  issues: 'issues',
  'issue-comments': 'issue comments',
  pulls: 'pull requests',
  'pr-comments': 'pull request comments',
  wiki: 'the wiki',
};

const SYNC_WORDS: Record<Policy['sync'], string> = { off: 'no sync', head: 'recent changes only', 'head-and-backfill': 'recent changes and all history' };

export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const collectionsWords = (collections: readonly string[]) => listWords(collections.map((c) => COLLECTION_WORDS[c] ?? c));

const BOUNDARY_WORDS: Record<DataBoundary, string> = {
  local_process: 'inside Steward on this computer',
  local_network: "on this computer or its local network",
  remote: 'a remote service',
  unknown: 'a destination Steward cannot classify',
};

const effect = (cls: SetupEffect['class'], description: string, needsPerson = false): SetupEffect => ({ class: cls, description, needsPerson });

function configWrites(i: EffectInputs): SetupEffect[] {
  const { previous, policy, repo } = i;
  if (i.action === 'create') {
    const documents = i.documentFolders > 0 ? `; ${folderWords(i.documentFolders)}` : '';
    return [effect('local_config_write', `Creates a new repository cache for ${repo} in Steward's data folder and registers it for maintenance (${SYNC_WORDS[policy.sync]}; ${collectionsWords(policy.collections)}${documents}; search indexing ${policy.rag === 'maintain' ? `on, profile ${policy.profile}` : 'off'}).`)];
  }
  if (!previous) return [];
  const out: SetupEffect[] = [];
  const before = previous.policy;
  if (before.sync !== policy.sync) out.push(effect('local_config_write', `Changes what is synced for ${repo} from ${SYNC_WORDS[before.sync]} to ${SYNC_WORDS[policy.sync]}.`));
  const added = policy.collections.filter((c) => !before.collections.includes(c));
  const removed = before.collections.filter((c) => !policy.collections.includes(c));
  if (added.length > 0) out.push(effect('local_config_write', `Adds ${collectionsWords(added)} to what is kept for ${repo}.`));
  if (removed.length > 0) out.push(effect('local_config_write', `Stops syncing ${collectionsWords(removed)} for ${repo}; what is already cached stays in the cache.`));
  if (before.rag !== policy.rag) out.push(effect('local_config_write', policy.rag === 'maintain' ? `Turns on search indexing for ${repo} with profile ${policy.profile}.` : `Turns off search indexing for ${repo}; the index already built stays in the cache.`));
  else if (before.profile !== policy.profile) out.push(effect('local_config_write', `Switches ${repo} from embedding profile ${before.profile} to ${policy.profile}.`));
  if (previous.repair) out.push(effect('local_config_write', `Repairs the configuration snapshot of ${repo}, which no longer matched its hash, and lets it run again.`));
  else if (previous.configHash !== i.configHash && before.profile === policy.profile) {
    out.push(effect('local_config_write', `Applies the changed configuration of profile ${policy.profile} to ${repo} (configuration ${i.configHash.slice(0, 12)}).`));
  }
  if (!previous.enabled && !previous.repair) out.push(effect('local_config_write', `Resumes maintenance of ${repo}, which is paused.`));
  return out;
}

function serviceChanges(i: EffectInputs): SetupEffect[] {
  const out: SetupEffect[] = [];
  if (!i.ownerRunning) out.push(effect('local_service_change', 'Starts Steward in the background (`steward serve`) so the cache keeps itself current after this command ends; `steward stop` stops it.', true));
  if (i.installLogin) out.push(effect('local_service_change', 'Turns on start at login, so maintenance goes on after you log in again; `steward service uninstall` turns it off.', true));
  return out;
}

function providerEffects(i: EffectInputs): SetupEffect[] {
  if (i.policy.rag !== 'maintain') return [];
  const out: SetupEffect[] = [];
  const { provider, model } = i.snapshot.embedding;
  const where = i.boundary.host ? ` at ${i.boundary.host}` : '';
  if (i.download) out.push(effect('large_download', `Asks the ${provider} server${where} to download the model ${model} (often hundreds of megabytes).`, true));
  if (i.boundary.boundary !== 'local_process' && provider !== 'none') {
    const remote = i.boundary.boundary !== 'local_network';
    out.push(
      effect(
        'provider_data_transfer',
        `Sends the text of ${i.repo}'s ${collectionsWords([...i.policy.collections, ...(i.documentFolders > 0 ? ['local documents'] : [])])} to the ${provider} embedding server${where} (${BOUNDARY_WORDS[i.boundary.boundary]}) to index it, starting with one short test request.`,
        remote,
      ),
    );
  }
  return out;
}

function jobs(i: EffectInputs): SetupEffect[] {
  if (i.action === 'none') return [effect('job_enqueue', `Runs one maintenance pass for ${i.repo} now; work already running for it is joined, not repeated.`)];
  const out: SetupEffect[] = [];
  const from = i.forgeHost ? ` from ${i.forgeHost}` : '';
  const forgeCollections = i.policy.collections;
  if (i.policy.sync !== 'off' && forgeCollections.length > 0) {
    out.push(effect('job_enqueue', `Refreshes recent changes of ${collectionsWords(forgeCollections)}${from} now, then on every maintenance pass.`));
    if (i.policy.sync === 'head-and-backfill') out.push(effect('job_enqueue', 'Reads older history in bounded windows in the background; the cache says when it is complete, not before.'));
  }
  if (i.documentFolders > 0) out.push(effect('job_enqueue', `Reads the documents of ${folderWords(i.documentFolders)} on this computer now, then on every maintenance pass; the folders stay where they are.`));
  if (i.policy.rag === 'maintain') {
    const place = i.snapshot.embedding.provider === 'none' ? 'for search by words' : `with profile ${i.policy.profile} (${i.snapshot.embedding.provider}, ${i.snapshot.embedding.model})`;
    out.push(effect('job_enqueue', `Indexes the cache ${place} after each sync.`));
  }
  return out;
}

/** A plan's effects by class, in the order they would happen, each a sentence a person understands. */
export function effectsOf(i: EffectInputs): SetupEffect[] {
  const inspect: SetupEffect[] = [
    effect('inspect', i.action === 'create' ? `Checks that ${i.repo} is not maintained yet and that its forge token is stored.` : `Checks the cache identity and repository binding of ${i.repo}.`),
  ];
  if (i.model !== null && i.boundary.host !== null) inspect.push(effect('inspect', `Asks the embedding server at ${i.boundary.host} which revision of ${i.snapshot.embedding.model} it serves.`));
  return [...inspect, ...configWrites(i), ...serviceChanges(i), ...providerEffects(i), ...jobs(i)];
}
