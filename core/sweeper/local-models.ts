import { z } from 'zod';
import type { Result } from '../api/index.js';
import { curatorBoundary } from './sweeper.js';

const Tags = z.looseObject({ models: z.array(z.looseObject({ name: z.string().min(1).max(200) })).max(500) });

const PROBE_TIMEOUT_MS = 1_500;

/**
 * Asks a local Ollama server which models it has (`GET /api/tags`), so Settings can offer them as an
 * OpenAI-compatible curator at `…/v1`. It only looks: choosing one is the user's act.
 */
export async function localModels(ollamaUrl: string): Promise<Result<'Settings.LocalModels'>> {
  const root = ollamaUrl.replace(/\/+$/, '');
  const baseUrl = `${root}/v1`;
  const dataBoundary = curatorBoundary({ curator: 'openai-compatible', baseUrl });
  const none = (message: string) => ({ available: false, baseUrl, models: [], dataBoundary, message });
  let response: Response;
  try {
    response = await fetch(`${root}/api/tags`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch {
    return none('No Ollama server answered on this computer.');
  }
  if (!response.ok) return none(`The Ollama server answered HTTP ${response.status}.`);
  const parsed = Tags.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return none('The server on that port does not answer like Ollama.');
  const models = [...new Set(parsed.data.models.map((m) => m.name))].sort();
  return {
    available: models.length > 0,
    baseUrl,
    models,
    dataBoundary,
    message: models.length > 0 ? `Ollama has ${models.length} model${models.length === 1 ? '' : 's'}; transcripts would go to it, on this computer's network, not to the internet.` : 'Ollama answers but has no models yet (ollama pull llama3.2).',
  };
}
