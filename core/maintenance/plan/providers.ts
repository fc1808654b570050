import { StewardError } from '../../api/index.js';
import { boundaryOf, endpointOf, resolveProfile, revisionOf, type ProfileDeps } from '../rag/index.js';
import { DEFAULT_CONFIG_SNAPSHOT, type ConfigSnapshot } from '../schema.js';
import type { ModelState, ProfileFacts } from './facts.js';

/** A profile as configuration names it (`maintenance.profiles.<name>`); secrets never live there. */
export interface ConfiguredProfile {
  provider: ConfigSnapshot['embedding']['provider'];
  model: string;
  endpoint?: string | undefined;
  dimensions?: number | undefined;
  revision?: string | undefined;
  normalize?: boolean | undefined;
  chunk?: ConfigSnapshot['chunk'] | undefined;
}

/** The non-secret snapshot a named profile stands for; `default` is built in unless configured. */
export function snapshotsOf(configured: Record<string, ConfiguredProfile>): Record<string, ConfigSnapshot> {
  const out: Record<string, ConfigSnapshot> = { default: DEFAULT_CONFIG_SNAPSHOT };
  for (const [name, p] of Object.entries(configured)) {
    const embedding: ConfigSnapshot['embedding'] = { provider: p.provider, model: p.model };
    if (p.endpoint !== undefined) embedding.endpoint = p.endpoint;
    if (p.dimensions !== undefined) embedding.dimensions = p.dimensions;
    if (p.revision !== undefined) embedding.revision = p.revision;
    if (p.normalize !== undefined) embedding.normalize = p.normalize;
    out[name] = { profile: name, embedding, chunk: p.chunk ?? DEFAULT_CONFIG_SNAPSHOT.chunk };
  }
  return out;
}

/** Ollama pulls a model in one request when asked without streaming; a large model takes a while. */
const PULL_TIMEOUT_MS = 60 * 60_000;

async function ollamaPull(snapshot: ConfigSnapshot, signal?: AbortSignal): Promise<void> {
  const url = `${endpointOf(snapshot)!.replace(/\/+$/, '')}/api/pull`;
  const timeout = AbortSignal.timeout(PULL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: snapshot.embedding.model, stream: false }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch {
    if (signal?.aborted) throw new StewardError('cancelled', 'The model download was cancelled.');
    const why = timeout.aborted ? 'did not finish the download within an hour' : 'did not answer the download request';
    throw new StewardError('embedder_unavailable', `The Ollama server ${why}; check it (\`ollama serve\`) and try again.`);
  }
  const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
  if (!response.ok || body?.status !== 'success') {
    throw new StewardError('embedder_failed', `The Ollama server could not download the model ${snapshot.embedding.model} (HTTP ${response.status}).`, { model: snapshot.embedding.model });
  }
}

/**
 * The configured profiles and their providers, as plans see them: the data boundary from
 * configuration alone, the model's revision asked read-only (Ollama can be asked to download a
 * missing one; other providers cannot), one real embedding request for the smoke check.
 */
export function providerFacts(profiles: () => Record<string, ConfigSnapshot>, deps: ProfileDeps): ProfileFacts {
  return {
    profiles,
    boundary: (snapshot) => boundaryOf(snapshot),
    async model(snapshot, signal): Promise<ModelState> {
      try {
        return { present: true, revision: await revisionOf(snapshot, deps, signal) };
      } catch (error) {
        if (error instanceof StewardError && error.code === 'model_missing') return { present: false, downloadable: snapshot.embedding.provider === 'ollama' };
        throw error;
      }
    },
    async download(snapshot, signal) {
      if (snapshot.embedding.provider !== 'ollama') throw new StewardError('unsupported', 'Only an Ollama server can be asked to download a model.');
      await ollamaPull(snapshot, signal);
    },
    async smoke(snapshot, policy, signal) {
      const resolved = await resolveProfile(snapshot, policy, deps, signal);
      if (!resolved.embedder) return { dimensions: 0 };
      const [vector] = await resolved.embedder.embed(['Steward checks that this embedding profile answers.'], signal);
      if (!vector || vector.length === 0) throw new StewardError('embedder_failed', 'The embedding profile answered the test request without a vector.');
      return { dimensions: vector.length };
    },
  };
}
