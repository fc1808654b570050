import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { ollamaEmbedder, ollamaRevision } from '../../../core/maintenance/rag/embedders/ollama.js';
import { loadTransformers, TRANSFORMERS_PACKAGE } from '../../../core/maintenance/rag/embedders/onnx.js';
import { openAiEmbedder, openAiRevision } from '../../../core/maintenance/rag/embedders/openai.js';
import { embedAll } from '../../../core/maintenance/rag/embedders/types.js';
import { embedderFor, resolveProfile } from '../../../core/maintenance/rag/profiles.js';
import { fakeVector, FakeOllama, FakeOpenAi } from '../../support/fake-embedders.js';

const texts = (n: number) => Array.from({ length: n }, (_, i) => `issue ${i} sync fails with error code E${i * 7}`);

async function codeOf(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'no error';
  } catch (error) {
    return error instanceof StewardError ? error.code : `untyped: ${String(error)}`;
  }
}

function close(a: Float32Array, b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-6);
}

describe('the Ollama embedder against a loopback /api/embed', () => {
  let fake: FakeOllama;
  afterEach(async () => fake?.stop());

  it('sends inputs in batches, keeps their order and asks for no silent truncation', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 48, revision: 'sha256:aaaa1111' }).start();
    const inputs = texts(70);
    const { vectors, truncated } = await embedAll(ollamaEmbedder({ endpoint: fake.url, model: 'nomic-embed-text' }), inputs);
    expect(fake.calls.map((c) => c.inputs.length)).toEqual([32, 32, 6]);
    expect(fake.calls.every((c) => c.body['truncate'] === false)).toBe(true);
    expect(truncated).toBe(0);
    inputs.forEach((text, i) => expect(close(vectors[i]!, fakeVector(text, 48, 'sha256:aaaa1111'))).toBe(true));
  });

  it('waits out a busy server (503 with Retry-After) and fails typed when it stays busy', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 16, revision: 'd1' }).start();
    fake.rateLimitNext = 2;
    const embedder = ollamaEmbedder({ endpoint: fake.url, model: 'nomic-embed-text' });
    expect(await embedder.embed(['one'])).toHaveLength(1);
    expect(fake.rateLimitNext).toBe(0);
    fake.rateLimitNext = 10;
    expect(await codeOf(() => embedder.embed(['two']))).toBe('embedder_rate_limited');
  });

  it('cuts an input the model refuses as too long, alone, and counts it', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 16, revision: 'd1', maxInputChars: 100 }).start();
    const long = `${'word '.repeat(50)}tail`;
    const { vectors, truncated } = await embedAll(ollamaEmbedder({ endpoint: fake.url, model: 'nomic-embed-text' }), ['short one', long, 'short two']);
    expect(truncated).toBe(1);
    expect(vectors).toHaveLength(3);
    expect(close(vectors[0]!, fakeVector('short one', 16, 'd1'))).toBe(true);
    expect(close(vectors[2]!, fakeVector('short two', 16, 'd1'))).toBe(true);
    // The long input was halved until it fit: its vector is the shortened text's, not another input's.
    const accepted = fake.calls.filter((c) => c.inputs.length === 1 && c.inputs[0] !== long && long.startsWith(c.inputs[0]!) && c.inputs[0]!.length <= 100);
    expect(accepted).toHaveLength(1);
    expect(close(vectors[1]!, fakeVector(accepted[0]!.inputs[0]!, 16, 'd1'))).toBe(true);
  });

  it('reads the model revision from /api/tags, names a missing model, and reports an unreachable server', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 16, revision: 'sha256:0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f' }).start();
    expect(await ollamaRevision({ endpoint: fake.url, model: 'nomic-embed-text' })).toBe('0a109f422b47e3a3');
    fake.options.revision = 'sha256:ffff000000000000';
    expect(await ollamaRevision({ endpoint: fake.url, model: 'nomic-embed-text' })).toBe('ffff000000000000');
    const missing = await ollamaRevision({ endpoint: fake.url, model: 'mxbai-embed-large' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StewardError);
    expect((missing as StewardError).code).toBe('model_missing');
    expect((missing as StewardError).message).toContain('ollama pull mxbai-embed-large');
    const url = fake.url;
    await fake.stop();
    expect(await codeOf(() => ollamaEmbedder({ endpoint: url, model: 'nomic-embed-text' }).embed(['x']))).toBe('embedder_unavailable');
  });
});

describe('the OpenAI-compatible embedder through the openai SDK against a loopback /v1/embeddings', () => {
  let fake: FakeOpenAi;
  const saved = process.env.OPENAI_API_KEY;
  afterEach(async () => {
    await fake?.stop();
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  });

  it('batches, puts replies back in input order by index, and asks for floats', async () => {
    fake = await new FakeOpenAi({ model: 'text-embedding-3-small', dimensions: 32, revision: 'r1' }).start();
    const inputs = texts(70);
    const { vectors } = await embedAll(openAiEmbedder({ endpoint: `${fake.url}/v1`, model: 'text-embedding-3-small' }), inputs);
    expect(fake.calls.map((c) => c.inputs.length)).toEqual([64, 6]);
    expect(fake.calls.every((c) => c.body['encoding_format'] === 'float')).toBe(true);
    inputs.forEach((text, i) => expect(close(vectors[i]!, fakeVector(text, 32, 'r1'))).toBe(true));
  });

  it('retries 429 as told by Retry-After, then fails typed when the limit holds', async () => {
    fake = await new FakeOpenAi({ model: 'text-embedding-3-small', dimensions: 8, revision: 'r1' }).start();
    fake.rateLimitNext = 2;
    const embedder = openAiEmbedder({ endpoint: `${fake.url}/v1`, model: 'text-embedding-3-small' });
    expect(await embedder.embed(['a'])).toHaveLength(1);
    fake.rateLimitNext = 10;
    expect(await codeOf(() => embedder.embed(['b']))).toBe('embedder_rate_limited');
  });

  it('splits a batch refused for context length and shortens only the culprit', async () => {
    fake = await new FakeOpenAi({ model: 'text-embedding-3-small', dimensions: 8, revision: 'r1', maxInputChars: 80 }).start();
    const { vectors, truncated } = await embedAll(openAiEmbedder({ endpoint: `${fake.url}/v1`, model: 'text-embedding-3-small' }), ['a b c', 'x '.repeat(100), 'd e f']);
    expect(truncated).toBe(1);
    expect(close(vectors[0]!, fakeVector('a b c', 8, 'r1'))).toBe(true);
    expect(close(vectors[2]!, fakeVector('d e f', 8, 'r1'))).toBe(true);
  });

  it('reads the model revision from /v1/models, so a replaced model is a new revision', async () => {
    fake = await new FakeOpenAi({ model: 'nomic-embed-text-v1.5', dimensions: 8, revision: 'r1' }).start();
    const options = { endpoint: `${fake.url}/v1`, model: 'nomic-embed-text-v1.5' };
    const first = await openAiRevision(options, undefined);
    fake.created += 3600;
    const second = await openAiRevision(options, undefined);
    expect(first).toMatch(/^c\d+$/);
    expect(second).not.toBe(first);
    expect(await openAiRevision(options, 'pinned-2024-05')).toBe('pinned-2024-05');
  });

  it('never sends a stored or environment API key to a local server', async () => {
    fake = await new FakeOpenAi({ model: 'm', dimensions: 8, revision: 'r1' }).start();
    process.env.OPENAI_API_KEY = 'sk-from-the-environment-0000000000';
    const snapshot = { profile: 'p', embedding: { provider: 'openai-compatible' as const, model: 'm', endpoint: `${fake.url}/v1` }, chunk: { max_chars: 2000, overlap: 200 } };
    const embedder = await embedderFor(snapshot, 8, { modelsDir: '/nonexistent', apiKey: () => 'sk-stored-key-1111111111111111' });
    await embedder!.embed(['hello']);
    expect(fake.calls[0]!.authorization).toBe('Bearer unused');
  });
});

describe('the local ONNX profile without its optional package', () => {
  it('is a clear error naming the package and how to install it, never a download', async () => {
    const error = await loadTransformers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StewardError);
    expect((error as StewardError).code).toBe('optional_dependency_missing');
    expect((error as StewardError).message).toContain(TRANSFORMERS_PACKAGE);
    expect((error as StewardError).message).toContain('--ignore-scripts');
    const snapshot = { profile: 'onnx', embedding: { provider: 'local' as const, model: 'Xenova/all-MiniLM-L6-v2' }, chunk: { max_chars: 2000, overlap: 200 } };
    expect(await codeOf(() => resolveProfile(snapshot, {}, { modelsDir: '/nonexistent/models' }))).toBe('optional_dependency_missing');
  });
});
