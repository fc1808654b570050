import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { typedClient } from '../../../core/api/index.js';
import { Core } from '../../../core/core.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * An OVERVIEW.md written before control characters were cleaned on write may still hold C1 controls
 * and a whole terminal-title sequence: project_overview hands the agent what the hook would (clean),
 * while Projects.Get (the panel, `steward sweeper show --json`) keeps returning the stored text.
 */
describe('project_overview over MCP, of notes written before controls were cleaned', () => {
  let home: TempHome;
  let core: Core | undefined;
  afterEach(async () => {
    await core?.shutdown();
    home.cleanup();
  });

  it('hands the agent the overview cleaned by the one rule, in its text and its structured answer', async () => {
    home = tempHome('steward-mcp-overview-clean-');
    const root = join(home.dir, 'roots', 'claude');
    const orchard = join(home.env.HOME!, 'work', 'orchard');
    mkdirSync(orchard, { recursive: true });
    writeJsonl(join(root, 'projects', '-work-orchard', 'sess-1.jsonl'), [claudeLine({ sessionId: 'sess-1', cwd: orchard, text: 'Plan the pruning calendar' })]);
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: root } });
    await core.call('Backfill.Run', {});
    const [project] = (await core.call('Projects.List', {})).projects;
    const { slug } = await core.call('Projects.Get', { projectKey: project!.projectKey });
    const paths = projectPaths(home.dir, slug);
    mkdirSync(paths.dir, { recursive: true });
    const stored = '# orchard\r\n\r\nPrune in \u009b31mMarch\u009b0m.\u001b]0;pwned title\u0007 Then graft.\u0085\u001b[1mBold\u001b[0m\n';
    writeFileSync(paths.overview, stored);
    const opened = core;
    const server = createMcpServer((use) => use(typedClient({ call: (method, params) => opened.call(method, params), on: () => () => undefined })), { home: home.env.HOME!, stewardHome: home.dir });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'steward-test', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const answer = (await client.callTool({ name: 'project_overview', arguments: { cwd: orchard } })) as unknown as { isError?: boolean; content: Array<{ text: string }>; structuredContent: { overview: string | null } };
      expect(answer.isError).toBeFalsy();
      const handed = '# orchard\n\nPrune in 31mMarch0m. Then graft.Bold\n';
      expect(answer.structuredContent.overview).toBe(handed);
      expect(answer.content.map((c) => c.text).join('\n')).toBe(handed);
      expect(JSON.stringify(answer)).not.toMatch(/[\u0080-\u009f]|\\u001b|\\u0007|pwned/);
      // What is stored is returned as stored: the one reader that hands the notes on cleans them.
      expect((await opened.call('Projects.Get', { projectKey: project!.projectKey })).overview).toBe(stored);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
