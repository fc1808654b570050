import { describe, expect, it } from 'vitest';
import { type StewardError } from '../../../core/api/index.js';
import { assertBoundary, boundaryOfEndpoint } from '../../../core/maintenance/rag/boundary.js';
import { chunkDocument, chunkPolicyOf } from '../../../core/maintenance/rag/chunking.js';
import { hashEmbed, HASH_MAX_DIMENSIONS } from '../../../core/maintenance/rag/embedders/hash.js';
import { namespaceIdOf, resolveProfile, type NamespaceKey } from '../../../core/maintenance/rag/profiles.js';
import { ftsQuery } from '../../../core/maintenance/rag/retrieval.js';
import { DEFAULT_CONFIG_SNAPSHOT } from '../../../core/maintenance/schema.js';

const policy = chunkPolicyOf({ max_chars: 400, overlap: 60 });

// An issue body as GitHub's issue forms write it: template prompts in HTML comments, headings, a log fence.
const ISSUE = `<!-- Thanks for reporting! Please fill in the sections below. -->
### What happened?
Every time I start the app the sync engine produces conflicted copies.

<!-- Describe the steps -->
### Steps to reproduce
1. Open the vault on two machines
2. Start the app on machine B

### Logs
\`\`\`
[sync] comparing mtime 1709370000123 with 1709370000000
[sync] conflict: Meeting notes.md
\`\`\`
`;

describe('chunking under a versioned, Markdown-aware chunk policy', () => {
  it('names the chunker version and sizes in the policy id', () => {
    expect(chunkPolicyOf({ max_chars: 2000, overlap: 200 }).id).toBe('md1:2000:200');
    // An overlap as large as a chunk could never advance.
    expect(chunkPolicyOf({ max_chars: 500, overlap: 900 }).id).toBe('md1:500:250');
  });

  it('cuts at headings, keeps a code fence whole, drops template comments, and prefixes title and section', () => {
    const chunks = chunkDocument({ title: 'Sync creates conflicted copies', body: ISSUE }, chunkPolicyOf({ max_chars: 120, overlap: 0 }));
    const texts = chunks.map((c) => c.text);
    expect(texts.some((t) => t.includes('<!--') || t.includes('Thanks for reporting'))).toBe(false);
    expect(texts[0]).toMatch(/^Sync creates conflicted copies › What happened\?\n\n/);
    const logs = texts.find((t) => t.includes('› Logs'))!;
    expect(logs).toContain('```\n[sync] comparing mtime 1709370000123 with 1709370000000\n[sync] conflict: Meeting notes.md\n```');
    expect(texts.find((t) => t.includes('Steps to reproduce'))).toContain('2. Start the app on machine B');
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
  });

  it('keeps every chunk within the policy, re-fences an oversized code block and overlaps prose', () => {
    const prose = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} talks about sync.`).join(' ');
    const code = ['```ts', ...Array.from({ length: 40 }, (_, i) => `const value${i} = compute(${i});`), '```'].join('\n');
    const chunks = chunkDocument({ title: 'T', body: `${prose}\n\n${code}` }, policy);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(policy.maxChars + 'T\n\n'.length);
    const codeChunks = chunks.filter((c) => c.text.includes('const value'));
    expect(codeChunks.length).toBeGreaterThan(1);
    for (const c of codeChunks) expect(c.text.split('\n\n').at(-1)).toMatch(/^```ts\n[\s\S]*\n```$/);
    const proseChunks = chunks.filter((c) => c.text.includes('Sentence number'));
    expect(proseChunks.length).toBeGreaterThan(1);
    // The second prose chunk repeats the end of the first.
    const firstEnd = proseChunks[0]!.text.slice(-30);
    expect(proseChunks[1]!.text).toContain(firstEnd.slice(firstEnd.indexOf(' ') + 1));
  });

  it('hashes content under the policy: same text same hash, another policy another hash', () => {
    const a = chunkDocument({ title: 'T', body: 'Body' }, policy);
    const b = chunkDocument({ title: 'T', body: 'Body' }, policy);
    const c = chunkDocument({ title: 'T', body: 'Body' }, chunkPolicyOf({ max_chars: 401, overlap: 60 }));
    expect(a[0]!.contentHash).toBe(b[0]!.contentHash);
    expect(c[0]!.contentHash).not.toBe(a[0]!.contentHash);
    expect(chunkDocument({ title: 'Only a title', body: '' }, policy)).toEqual([{ ordinal: 0, text: 'Only a title', contentHash: expect.any(String) }]);
  });

  it('gives a comment its parent as context', () => {
    const [chunk] = chunkDocument({ title: 'App takes 40 seconds to start', context: 'Comment on #2', body: 'Cache the link index on disk.' }, policy);
    expect(chunk!.text).toBe('Comment on #2 › App takes 40 seconds to start\n\nCache the link index on disk.');
  });
});

describe('the hash embedder', () => {
  const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

  it('is deterministic, unit length, and at most 384 dimensions', () => {
    const a = hashEmbed('Sync creates conflicted copies on launch', 384);
    const b = hashEmbed('Sync creates conflicted copies on launch', 384);
    expect([...a]).toEqual([...b]);
    expect(Math.abs(Math.hypot(...a) - 1)).toBeLessThan(1e-5);
    expect(HASH_MAX_DIMENSIONS).toBe(384);
  });

  it('places texts sharing words and word forms nearer than unrelated ones, accents folded', () => {
    const q = hashEmbed('syncing creates conflicting copies', 384);
    const near = hashEmbed('Sync creates duplicate conflicted copy files', 384);
    const far = hashEmbed('Dark theme renders mermaid diagrams unreadable', 384);
    expect(cos(q, near)).toBeGreaterThan(cos(q, far) + 0.2);
    expect(cos(hashEmbed('café', 384), hashEmbed('cafe', 384))).toBeGreaterThan(0.99);
  });

  it('refuses more than 384 dimensions for the hash profile', async () => {
    const error = await resolveProfile({ ...DEFAULT_CONFIG_SNAPSHOT, embedding: { provider: 'hash', model: 'hash-ngram', dimensions: 768 } }, {}, { modelsDir: '/x' }).catch((e: unknown) => e);
    expect((error as StewardError).code).toBe('config_invalid');
  });
});

describe('profiles, namespaces and data boundaries', () => {
  it('classifies endpoints without resolving names', () => {
    for (const url of ['http://127.0.0.1:11434', 'http://localhost:1234/v1', 'http://[::1]:8080', 'http://192.168.1.20:11434', 'http://10.0.0.5', 'http://172.20.0.2', 'http://gpu-box.local:8000', 'http://[fd12:3456::1]:80']) {
      expect(boundaryOfEndpoint(url), url).toBe('local_network');
    }
    for (const url of ['https://api.openai.com/v1', 'http://172.32.0.1', 'http://8.8.8.8', 'http://gpu-box:8000', 'http://localhost.example.com']) {
      expect(boundaryOfEndpoint(url), url).toBe('remote');
    }
  });

  it('allows a boundary the policy confirms and refuses a wider one with both named', () => {
    expect(() => assertBoundary('remote', 'remote', 'api.openai.com')).not.toThrow();
    expect(() => assertBoundary('local_network', 'local_network', '127.0.0.1')).not.toThrow();
    const error = (() => {
      try {
        assertBoundary('remote', 'local_network', 'api.openai.com');
      } catch (e) {
        return e as StewardError;
      }
      return null;
    })();
    expect(error?.code).toBe('boundary_refused');
    expect(error?.message).toContain('remote data boundary (api.openai.com)');
  });

  it('keys a namespace by provider, model, revision, dimensions, normalization and chunk policy', () => {
    const key: NamespaceKey = { provider: 'ollama', model: 'nomic-embed-text', revision: 'abc', dimensions: 768, normalize: true, chunkPolicy: 'md1:2000:200', boundary: 'local_network' };
    const id = namespaceIdOf('github.com/a/b', key);
    for (const change of [{ revision: 'abd' }, { dimensions: 512 }, { normalize: false }, { chunkPolicy: 'md1:1000:100' }, { model: 'mxbai' }, { provider: 'openai-compatible' as const }]) {
      expect(namespaceIdOf('github.com/a/b', { ...key, ...change })).not.toBe(id);
    }
    expect(namespaceIdOf('github.com/a/b', { ...key })).toBe(id);
  });

  it('turns a query into quoted FTS terms, so punctuation never becomes FTS syntax', () => {
    expect(ftsQuery('How do I fix "ENAMETOOLONG" (Windows) -- NEAR/2?')).toBe('"fix" OR "enametoolong" OR "windows" OR "near" OR "2"');
    expect(ftsQuery('the a')).toBe('"the" OR "a"');
    expect(ftsQuery('?!')).toBeNull();
  });
});
