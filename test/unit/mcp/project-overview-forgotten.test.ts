import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { localDay, typedClient } from '../../../core/api/index.js';
import { Core } from '../../../core/core.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * project_overview for the folder of a project the person forgot: the agent is told it was forgotten
 * (and how the person brings it back), as `steward context` tells the person, by the same rule.
 */
describe('project_overview over MCP, for a forgotten project', () => {
  let home: TempHome;
  let core: Core | undefined;
  afterEach(async () => {
    await core?.shutdown();
    home.cleanup();
  });

  it('says the project was forgotten, for its folder and one inside it; a folder of no project is said as before', async () => {
    home = tempHome('steward-mcp-overview-forgotten-');
    const root = join(home.dir, 'roots', 'claude');
    const orchard = join(home.env.HOME!, 'work', 'orchard');
    mkdirSync(join(orchard, 'beds'), { recursive: true });
    writeJsonl(join(root, 'projects', '-work-orchard', 'sess-1.jsonl'), [claudeLine({ sessionId: 'sess-1', cwd: orchard, text: 'Plan the pruning calendar' })]);
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: root } });
    await core.call('Backfill.Run', {});
    const [project] = (await core.call('Projects.List', {})).projects;
    const key = project!.projectKey;
    await core.call('Forget.Project', { projectKey: key });
    const opened = core;
    const server = createMcpServer((use) => use(typedClient({ call: (method, params) => opened.call(method, params), on: () => () => undefined })), { home: home.env.HOME!, stewardHome: home.dir });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'steward-test', version: '0.0.0' });
    await client.connect(clientSide);
    const overview = async (cwd: string) => (await client.callTool({ name: 'project_overview', arguments: { cwd } })) as unknown as { isError?: boolean; content: Array<{ text: string }> };
    try {
      for (const folder of [orchard, join(orchard, 'beds')]) {
        const answer = await overview(folder);
        expect(answer.isError).toBe(true);
        expect(answer.content.map((c) => c.text).join('\n')).toBe(
          `not_found: The person forgot the project holding that folder (${key}) on ${localDay(Date.now())}, so Steward keeps no notes for it; tell them, and that \`steward unforget --project ${key}\` brings it back.`,
        );
      }
      const elsewhere = await overview(join(home.env.HOME!, 'work', 'elsewhere'));
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.content[0]!.text).toMatch(/^not_found: Steward knows no project containing that folder yet/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
