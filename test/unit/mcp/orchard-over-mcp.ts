import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { typedClient } from '../../../core/api/index.js';
import type { Core } from '../../../core/core.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { coreHome } from '../../support/core.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** One project imported (`~/work/orchard`, with `beds/` inside it), its Core and an MCP client over it. */
export interface OrchardOverMcp {
  core: Core;
  home: TempHome;
  orchard: string;
  projectKey: string;
  client: Client;
}

/**
 * For the enclosing file: `open()` imports one Claude conversation of `~/work/orchard` into a fresh
 * home and connects an MCP client to the Core through the in-memory transport; `use` runs a test
 * with it and closes the client and server after, whatever the test did. The Core and home go after each test.
 */
export function orchardOverMcp(prefix: string): { use: (test: (rig: OrchardOverMcp) => Promise<void>) => Promise<void> } {
  const owner = coreHome(prefix);
  return {
    use: async (test) => {
      const home = owner.home;
      const root = join(home.dir, 'roots', 'claude');
      const orchard = join(home.env.HOME!, 'work', 'orchard');
      mkdirSync(join(orchard, 'beds'), { recursive: true });
      writeJsonl(join(root, 'projects', '-work-orchard', 'sess-1.jsonl'), [claudeLine({ sessionId: 'sess-1', cwd: orchard, text: 'Plan the pruning calendar' })]);
      const core = owner.open({ env: { STEWARD_CLAUDE_ROOTS: root } });
      await core.call('Backfill.Run', {});
      const [project] = (await core.call('Projects.List', {})).projects;
      const server = createMcpServer((use) => use(typedClient({ call: (method, params) => core.call(method, params), on: () => () => undefined })), { home: home.env.HOME!, stewardHome: home.dir });
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'steward-test', version: '0.0.0' });
      await client.connect(clientSide);
      try {
        await test({ core, home, orchard, projectKey: project!.projectKey, client });
      } finally {
        await client.close();
        await server.close();
      }
    },
  };
}
