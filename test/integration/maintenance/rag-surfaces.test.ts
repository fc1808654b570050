import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { withClient } from '../../../core/cli/connect.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { loadFixtureCorpus, seedAndEnroll, type SeededRepository } from '../../support/repository-cache.js';

/**
 * Repository search through the owner's own wiring (the Core builds the RAG stage and the
 * `Repository.Search` handler), then through the CLI and the MCP tool an agent calls.
 */
const REPO = 'github.com/inkwell-app/inkwell';
let home: TempHome;
let caches: string;

beforeAll(async () => {
  home = tempHome('steward-rag-');
  caches = mkdtempSync(join(tmpdir(), 'steward-rag-caches-'));
  const inkwell: SeededRepository = { repoId: REPO, aliases: ['inkwell-app/inkwell'], repo: 'inkwell-app/inkwell', policy: { sync: 'off', rag: 'maintain' }, corpus: loadFixtureCorpus() };
  await seedAndEnroll(home, caches, [inkwell], async (core) => {
    const pass = await core.call('Maintenance.Reconcile', {});
    expect(pass.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['rag/succeeded']);
    const [status] = (await core.call('Maintenance.List', {})).registrations;
    expect(status!.generations.covered).toBe(status!.generations.content);
  });
});

afterAll(() => {
  home?.cleanup();
  if (caches) rmSync(caches, { recursive: true, force: true });
});

describe('repository search surfaces', () => {
  it('steward maintenance search prints ranked hits with their forge links, and JSON in the contract shape', async () => {
    const text = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'inkwell-app/inkwell', 'blank', 'window', 'on', 'wayland'], text)).toBe(0);
    expect(text.out.split('\n')[0]).toMatch(/^1\. #5 Blank window on Wayland with fractional scaling \(open\) {2}\[issues, words\+meaning\]$/);
    expect(text.out).toContain('https://github.com/inkwell-app/inkwell/issues/5');

    const json = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'inkwell-app/inkwell', '--json', '--collection', 'wiki', 'proxy', 'settings'], json)).toBe(0);
    const parsed = JSON.parse(json.out) as { hits: Array<{ collection: string; number: number | null; title: string; snippet: string; score: number }>; degraded?: string };
    expect(parsed.degraded).toBeUndefined();
    expect(parsed.hits.length).toBeGreaterThan(0);
    expect(parsed.hits.every((h) => h.collection === 'wiki' && h.number === null)).toBe(true);
    expect(parsed.hits[0]).toMatchObject({ title: expect.any(String), snippet: expect.any(String), score: expect.any(Number) });
    for (const out of [text.out, json.out]) expect(out).not.toContain(caches);

    const unknown = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'acme/nothing', 'x', '--json'], unknown)).toBe(1);
    expect(JSON.parse(unknown.out)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('search_repository serves agents the same hits, takes no path and returns none', async () => {
    const io = captureIo(home.env);
    const server = createMcpServer((use) => withClient(io, use));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'rag-test', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'search_repository')!;
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['author', 'collection', 'label', 'limit', 'query', 'repo', 'state', 'updated_after', 'updated_before']);
      const result = await client.callTool({ name: 'search_repository', arguments: { repo: 'inkwell-app/inkwell', query: 'undo history lost after switching tabs', limit: 3 } });
      expect(result.isError).toBeFalsy();
      const out = result.structuredContent as { hits: Array<{ number: number; url: string }> };
      expect(out.hits).toHaveLength(3);
      // The issue and its comment (which says how it was fixed) both lead.
      expect(out.hits.slice(0, 2).map((h) => h.url.replace(/#.*$/, ''))).toEqual(['https://github.com/inkwell-app/inkwell/issues/7', 'https://github.com/inkwell-app/inkwell/issues/7']);
      expect(JSON.stringify(result)).not.toContain(caches);
      const bad = await client.callTool({ name: 'search_repository', arguments: { repo: '/etc/passwd', query: 'x' } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
