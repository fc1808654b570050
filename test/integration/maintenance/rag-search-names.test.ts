import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { withClient } from '../../../core/cli/connect.js';
import { Core } from '../../../core/core.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seedAndEnroll, type SeededRepository } from '../../support/repository-cache.js';

/**
 * One OWNER/NAME maintained on two hosts (github.com and a Gitea) is two repositories: naming it
 * without its host is refused with both HOST/OWNER/NAME choices by the CLI, the RPC and the MCP
 * tool alike, and the host-qualified name searches exactly one. Search indexing is off for both,
 * so the words-only reason's command must name each repository itself, not a placeholder.
 */
const GITHUB = 'github.com/acme/tool';
const GITEA = 'git.example.org/acme/tool';
let home: TempHome;
let caches: string;
let registrations: Record<string, string>;

beforeAll(async () => {
  home = tempHome('steward-rag-names-');
  caches = mkdtempSync(join(tmpdir(), 'steward-rag-names-caches-'));
  // Each cache binds one repository: OWNER/NAME resolves to it through the cache's own binding.
  const named = (repoId: string, forge: SeededRepository['forge']): SeededRepository => ({ repoId, forge, aliases: ['acme/tool'], repo: 'acme/tool', policy: { sync: 'off', rag: 'off' } });
  registrations = await seedAndEnroll(home, caches, [
    named(GITHUB, { forge: 'github', apiBase: 'https://api.github.com' }),
    named(GITEA, { forge: 'gitea', apiBase: 'https://git.example.org/api/v1' }),
  ]);
});

afterAll(() => {
  home?.cleanup();
  if (caches) rmSync(caches, { recursive: true, force: true });
});

describe('repository search by a name two hosts share', () => {
  it('the CLI refuses OWNER/NAME with a typed error listing HOST/OWNER/NAME, in text and JSON', async () => {
    const json = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'acme/tool', '--json', 'crash'], json)).toBe(1);
    const error = (JSON.parse(json.out) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('repository_ambiguous');
    expect(error.message).toContain(`${GITEA}, ${GITHUB}`);

    const text = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'acme/tool', 'crash'], text)).toBe(1);
    expect(text.err.trim().split('\n')).toHaveLength(1);
    expect(text.err).toContain(GITHUB);
    expect(text.err).toContain(GITEA);
    expect(text.out).toBe('');
  });

  it('the RPC refuses it with the choices in its details, and HOST/OWNER/NAME searches that one repository', async () => {
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    try {
      const refused = await core.call('Repository.Search', { repo: 'acme/tool', query: 'crash' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StewardError);
      expect((refused as StewardError).code).toBe('repository_ambiguous');
      expect((refused as StewardError).details).toEqual({ choices: [GITEA, GITHUB] });
      for (const repo of [GITEA, GITHUB, GITEA.toUpperCase()]) {
        const answer = await core.call('Repository.Search', { repo, query: 'crash' });
        expect(answer.repo).toBe(repo.toLowerCase());
      }
    } finally {
      await core.shutdown();
    }
  });

  it('the MCP tool refuses it the same way', async () => {
    const io = captureIo(home.env);
    const server = createMcpServer((use) => withClient(io, use));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'rag-names-test', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const refused = await client.callTool({ name: 'search_repository', arguments: { repo: 'acme/tool', query: 'crash' } });
      expect(refused.isError).toBe(true);
      const text = JSON.stringify(refused.content);
      expect(text).toContain('repository_ambiguous');
      expect(text).toContain(GITHUB);
      expect(text).toContain(GITEA);
      const one = await client.callTool({ name: 'search_repository', arguments: { repo: GITEA, query: 'crash' } });
      expect(one.isError).toBeFalsy();
      expect((one.structuredContent as { repo: string }).repo).toBe(GITEA);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('says how to turn search indexing on for the repository searched, with no placeholder', async () => {
    for (const [repo, command] of [
      [GITHUB, 'steward rag enable --repo acme/tool'],
      // `--repo` alone would mean github.com: a Gitea repository is named by its registration.
      [GITEA, `steward rag enable --registration ${registrations[GITEA]}`],
    ] as const) {
      const text = captureIo(home.env);
      expect(await runCli(['maintenance', 'search', '--repo', repo, 'crash'], text)).toBe(0);
      expect(text.out).toContain(`search indexing is off for this repository; turn it on with \`${command}\``);
      expect(text.out).not.toContain('OWNER/NAME');
      const json = captureIo(home.env);
      expect(await runCli(['maintenance', 'search', '--repo', repo, '--json', 'crash'], json)).toBe(0);
      expect(JSON.parse(json.out)).toMatchObject({ repo, degraded: 'rag_off', remedy: command, hits: [], wordMatches: 0 });
    }
  });
});
