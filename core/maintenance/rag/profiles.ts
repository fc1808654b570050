import { StewardError, type EmbeddingBoundary, type EmbeddingProvider } from '../../api/index.js';
import { hashOf, opaqueId } from '../hashing.js';
import type { ConfigSnapshot, Policy } from '../schema.js';
import { allowedBoundary, assertBoundary, boundaryOfEndpoint } from './boundary.js';
import { chunkPolicyOf, type ChunkPolicy } from './chunking.js';
import { HASH_DEFAULT_DIMENSIONS, HASH_MAX_DIMENSIONS, HASH_MODEL, HASH_REVISION, hashEmbed, normalize as unit } from './embedders/hash.js';
import { loadTransformers, localEmbedder, localModelRevision, type ModuleLoader } from './embedders/onnx.js';
import { OLLAMA_DEFAULT_ENDPOINT, ollamaEmbedder, ollamaRevision } from './embedders/ollama.js';
import { OPENAI_DEFAULT_ENDPOINT, openAiEmbedder, openAiRevision } from './embedders/openai.js';
import type { Embedder } from './embedders/types.js';

/** Everything a vector depends on (spec 004's namespace key), plus where its text went. */
export interface NamespaceKey {
  provider: EmbeddingProvider;
  model: string;
  revision: string;
  dimensions: number;
  normalize: boolean;
  chunkPolicy: string;
  boundary: EmbeddingBoundary;
}

export interface ResolvedProfile {
  profile: string;
  key: NamespaceKey;
  chunkPolicy: ChunkPolicy;
  /** Null for `none`: words only. */
  embedder: Embedder | null;
}

export interface ProfileDeps {
  /** Where `local` ONNX model folders live (STEWARD_HOME/models). */
  modelsDir: string;
  /** The OpenAI-compatible key, from the key store; sent only to a remote endpoint. */
  apiKey?: () => string | undefined;
  /** Tests point this at a loader without the optional package; production imports it. */
  loadModule?: ModuleLoader;
}

export type Snapshot = ConfigSnapshot;
type PolicyLike = Pick<Policy, 'embeddingBoundary'>;

export function endpointOf(snapshot: Snapshot): string | null {
  const { provider, endpoint } = snapshot.embedding;
  if (provider === 'ollama') return endpoint ?? OLLAMA_DEFAULT_ENDPOINT;
  if (provider === 'openai-compatible') return endpoint ?? OPENAI_DEFAULT_ENDPOINT;
  return null;
}

/** The profile's data boundary, decided from configuration alone: nothing is contacted to learn it. */
export function boundaryOf(snapshot: Snapshot): { boundary: EmbeddingBoundary; host: string | null } {
  const endpoint = endpointOf(snapshot);
  if (endpoint === null) return { boundary: 'local_process', host: null };
  return { boundary: boundaryOfEndpoint(endpoint), host: new URL(endpoint).hostname };
}

export function namespaceIdOf(repoId: string, key: NamespaceKey): string {
  return opaqueId('ns', { repoId, ...key }, 20);
}

/** Refuses before any request when the profile's boundary is wider than the policy allows. */
export function checkBoundary(snapshot: Snapshot, policy: PolicyLike): EmbeddingBoundary {
  const { boundary, host } = boundaryOf(snapshot);
  assertBoundary(boundary, allowedBoundary(policy), host);
  return boundary;
}

function hashDimensions(snapshot: Snapshot): number {
  const dims = snapshot.embedding.dimensions ?? HASH_DEFAULT_DIMENSIONS;
  if (dims < 32 || dims > HASH_MAX_DIMENSIONS || dims % 8 !== 0) {
    throw new StewardError('config_invalid', `The hash profile takes 32 to ${HASH_MAX_DIMENSIONS} dimensions in steps of 8; the configuration asks for ${dims}.`);
  }
  return dims;
}

/** The embedder for a profile with known dimensions; builds no connection and sends nothing. */
export async function embedderFor(snapshot: Snapshot, dimensions: number, deps: ProfileDeps): Promise<Embedder | null> {
  const { provider, model } = snapshot.embedding;
  const normalize = snapshot.embedding.normalize ?? true;
  const requested = snapshot.embedding.dimensions;
  switch (provider) {
    case 'none':
      return null;
    case 'hash':
      return { batchSize: 32, embed: async (texts) => texts.map((t) => hashEmbed(t, dimensions)) };
    case 'local':
      return withNormalize(await localEmbedder(deps.modelsDir, model, deps.loadModule), normalize);
    case 'ollama':
      return withNormalize(ollamaEmbedder({ endpoint: endpointOf(snapshot)!, model, dimensions: requested }), normalize);
    case 'openai-compatible': {
      const endpoint = endpointOf(snapshot)!;
      const apiKey = boundaryOfEndpoint(endpoint) === 'remote' ? deps.apiKey?.() : undefined;
      return withNormalize(openAiEmbedder({ endpoint, model, dimensions: requested, apiKey }), normalize);
    }
  }
}

function withNormalize(embedder: Embedder, normalize: boolean): Embedder {
  if (!normalize) return embedder;
  return {
    batchSize: embedder.batchSize,
    embed: async (texts, signal) => (await embedder.embed(texts, signal)).map(unit),
  };
}

/** The provider's current revision of the profile's model; asking changes nothing (a missing model is `model_missing`). */
export async function revisionOf(snapshot: Snapshot, deps: ProfileDeps, signal?: AbortSignal): Promise<string> {
  const { provider, model, revision } = snapshot.embedding;
  switch (provider) {
    case 'none':
      return 'none';
    case 'hash':
      return HASH_REVISION;
    case 'local':
      // The package is the first thing a person must install; the model folder comes second.
      await loadTransformers(deps.loadModule);
      return revision ?? localModelRevision(deps.modelsDir, model);
    case 'ollama': {
      // The digest is the model's true revision; a configured one is kept beside it, not instead.
      const digest = await ollamaRevision({ endpoint: endpointOf(snapshot)!, model }, signal);
      return revision ? `${revision}@${digest}` : digest;
    }
    case 'openai-compatible': {
      const endpoint = endpointOf(snapshot)!;
      const apiKey = boundaryOfEndpoint(endpoint) === 'remote' ? deps.apiKey?.() : undefined;
      return openAiRevision({ endpoint, model, apiKey }, revision, signal);
    }
  }
}

/**
 * Resolves the configured profile into its namespace key: the data boundary first (a refused one
 * contacts nothing), then the provider's current model revision and the vector size (asked of the
 * model with one short probe when the configuration does not fix it).
 */
export async function resolveProfile(snapshot: Snapshot, policy: PolicyLike, deps: ProfileDeps, signal?: AbortSignal): Promise<ResolvedProfile> {
  const boundary = checkBoundary(snapshot, policy);
  const chunkPolicy = chunkPolicyOf(snapshot.chunk);
  const { provider } = snapshot.embedding;
  const model = provider === 'hash' ? HASH_MODEL : snapshot.embedding.model;
  const revision = await revisionOf(snapshot, deps, signal);
  let dimensions = provider === 'none' ? 0 : provider === 'hash' ? hashDimensions(snapshot) : (snapshot.embedding.dimensions ?? 0);
  const embedder = await embedderFor(snapshot, dimensions, deps);
  if (embedder && dimensions === 0) {
    const [probe] = await embedder.embed(['dimension probe'], signal);
    dimensions = probe!.length;
  }
  const key: NamespaceKey = { provider, model, revision, dimensions, normalize: snapshot.embedding.normalize ?? true, chunkPolicy: chunkPolicy.id, boundary };
  return { profile: snapshot.profile, key, chunkPolicy, embedder };
}

/**
 * Periodic re-resolution: a profile is resolved again once `intervalMs` has passed, even when the
 * index is current, so a re-pulled model or a changed server is noticed; a changed configuration
 * (another hash) is resolved at once.
 */
export class ProfileResolver {
  readonly #deps: ProfileDeps;
  readonly #intervalMs: number;
  readonly #clock: () => number;
  readonly #cache = new Map<string, { at: number; resolved: ResolvedProfile }>();

  constructor(deps: ProfileDeps, intervalMs: number, clock: () => number = Date.now) {
    this.#deps = deps;
    this.#intervalMs = intervalMs;
    this.#clock = clock;
  }

  get deps(): ProfileDeps {
    return this.#deps;
  }

  /** When this profile is next resolved again: now for one never resolved (or configured differently). */
  nextResolutionAt(snapshot: Snapshot, policy: PolicyLike): number {
    const cached = this.#cache.get(hashOf([snapshot, allowedBoundary(policy)]));
    return cached ? cached.at + this.#intervalMs : this.#clock();
  }

  async resolve(snapshot: Snapshot, policy: PolicyLike, signal?: AbortSignal): Promise<ResolvedProfile> {
    // The boundary is checked on every call, cached or not: a narrowed policy takes effect at once.
    checkBoundary(snapshot, policy);
    const id = hashOf([snapshot, allowedBoundary(policy)]);
    const cached = this.#cache.get(id);
    const now = this.#clock();
    if (cached && now - cached.at < this.#intervalMs) return cached.resolved;
    const resolved = await resolveProfile(snapshot, policy, this.#deps, signal);
    this.#cache.set(id, { at: now, resolved });
    return resolved;
  }
}
