import { StewardError } from '../../../api/index.js';

/** Turns texts into vectors, one per text and in order. Implementations never reorder or drop. */
export interface Embedder {
  /** Texts per request. */
  readonly batchSize: number;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** The provider refused an input as longer than its context: the caller cuts it and counts it. */
export class InputTooLong extends Error {
  constructor() {
    super('input longer than the model context');
  }
}

export interface Embedded {
  vectors: Float32Array[];
  /** Inputs that had to be shortened to fit the model's context (counted, never silent). */
  truncated: number;
}

const MAX_HALVINGS = 4;

/**
 * Embeds in provider-sized batches. A batch refused for length is split until the culprit is
 * alone; that one input is halved (at most four times) and counted as truncated — its words stay
 * fully searchable, only its vector sees the shortened text.
 */
export async function embedAll(embedder: Embedder, texts: readonly string[], signal?: AbortSignal): Promise<Embedded> {
  const vectors: Float32Array[] = [];
  let truncated = 0;
  const one = async (text: string): Promise<Float32Array> => {
    let input = text;
    for (let cut = 0; ; cut += 1) {
      try {
        const [vector] = await embedder.embed([input], signal);
        if (cut > 0) truncated += 1;
        return vector!;
      } catch (error) {
        if (!(error instanceof InputTooLong) || cut >= MAX_HALVINGS) throw error instanceof InputTooLong ? tooLong() : error;
        input = input.slice(0, Math.ceil(input.length / 2));
      }
    }
  };
  const batch = async (items: readonly string[]): Promise<Float32Array[]> => {
    try {
      return await embedder.embed(items, signal);
    } catch (error) {
      if (!(error instanceof InputTooLong)) throw error;
      if (items.length === 1) return [await one(items[0]!)];
      const half = Math.ceil(items.length / 2);
      return [...(await batch(items.slice(0, half))), ...(await batch(items.slice(half)))];
    }
  };
  for (let i = 0; i < texts.length; i += embedder.batchSize) {
    vectors.push(...(await batch(texts.slice(i, i + embedder.batchSize))));
    // An in-process embedder answers synchronously: yield between batches so the loop keeps breathing.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { vectors, truncated };
}

function tooLong(): StewardError {
  return new StewardError('embedder_failed', 'The embedding model refused an input even after shortening it to a sixteenth.');
}

/** Every vector must have the namespace's dimensions and finite values: a malformed reply never reaches the index. */
export function checkVectors(vectors: Float32Array[], count: number, dimensions: number | null): Float32Array[] {
  if (vectors.length !== count) throw new StewardError('embedder_failed', `The embedder returned ${vectors.length} vectors for ${count} inputs.`);
  for (const v of vectors) {
    if (dimensions !== null && v.length !== dimensions) throw new StewardError('embedder_failed', `The embedder returned a ${v.length}-dimensional vector; the namespace has ${dimensions}.`);
    if (!v.every(Number.isFinite)) throw new StewardError('embedder_failed', 'The embedder returned a vector with a non-finite value.');
  }
  return vectors;
}
