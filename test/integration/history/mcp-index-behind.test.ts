import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { StewardClient } from '../../../core/api/index.js';
import { Capture } from '../../../core/capture/index.js';
import { withClient } from '../../../core/cli/connect.js';
import { parseConfig } from '../../../core/config/index.js';
import { GatewayReader, openGateway } from '../../../core/gateway/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import type { WithClient } from '../../../core/mcp/projects.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { writeHistoryFixture } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';
import type { ToolResult } from '../../support/mcp.js';

// `steward mcp` with no Steward running opens the stores for each call: nothing walks the index there,
// so an answer that only said it "is still being indexed" left an agent waiting for what never came.

let home: TempHome | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  home?.cleanup();
  home = undefined;
});

const NOBODY = /No Steward is running to finish it.*`steward sweep`.*starting Steward/;

async function connect(reach: WithClient): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  const connected = new Client({ name: 'index-behind-test', version: '0.0.0' });
  await connected.connect(clientSide);
  return connected;
}

async function search(query: string): Promise<ToolResult> {
  return (await client!.callTool({ name: 'search_transcripts', arguments: { query } })) as ToolResult;
}

/** A store whose import left its parts to the index walk, which no process then ran. */
async function importLeftToTheWalk(): Promise<NodeJS.ProcessEnv> {
  home = tempHome('steward-mcp-index-behind-');
  const fixture = writeHistoryFixture(join(home.dir, 'roots'));
  const env: NodeJS.ProcessEnv = { ...home.env, STEWARD_CLAUDE_ROOTS: fixture.claudeRoot, STEWARD_OPENCLAW_ROOTS: fixture.openclawRoot };
  for (const name of ['STEWARD_CLAUDE_DESKTOP_ROOTS', 'STEWARD_CODEX_ROOTS', 'STEWARD_GEMINI_ROOTS']) env[name] = '';
  const db = openGateway(home.dir);
  const capture = new Capture({ db, config: parseConfig({}), env, logger: createMemoryLogger(), projects: new ProjectStore(db, new GatewayReader(db)), record: () => undefined, inStepIndexBytes: 1024 });
  try {
    const [stats] = await capture.tick();
    expect(stats!.partsWritten).toBeGreaterThan(0);
  } finally {
    await capture.stop();
    db.close();
  }
  return env;
}

describe('search_transcripts while the index is behind', () => {
  it('served in-process (no Steward running) says nothing is indexing it, and what finishes it', async () => {
    const env = await importLeftToTheWalk();
    // What `steward mcp` reaches the stores with (core/cli/commands/mcp.ts).
    client = await connect((use) => withClient({ env }, use));
    const result = await search('apple');
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    const note = result.structuredContent?.note as string;
    expect(note).toMatch(/^Earlier history is still being indexed \(0 of [\d,]+ parts\)\. /);
    expect(note).toMatch(NOBODY);
    // One sentence says nothing indexes and nothing imports: "No Steward is running" comes once.
    expect(note.match(/No Steward is running/g)).toHaveLength(1);
    expect(note).toMatch(/import new transcripts/);
    expect(result.content[0]!.text).toMatch(NOBODY);
  });

  it('says nothing of it when a Steward answers (it indexes in the background), or when a walk runs where the stores are open', async () => {
    const behind = { hits: [], sessions: [], indexing: { phase: 'index', indexedParts: 300, totalParts: 1_200 } };
    for (const [via, walking] of [[undefined, false], ['owner', false], ['in-process', true]] as const) {
      const owner = { call: (method: string) => Promise.resolve(method === 'Search.Indexing' ? { indexing: behind.indexing, walking } : behind) } as unknown as StewardClient;
      client = await connect((use) => use(owner, via));
      const result = await search('apple');
      expect(result.isError).toBeFalsy();
      // In-process, the stores are open for this call alone: that nothing imports is said after it (nobodyImports), never that nothing indexes.
      expect(result.structuredContent?.note).toMatch(via === 'in-process' ? /^Earlier history is still being indexed \(300 of 1,200 parts\)\. No Steward is running to import new transcripts / : /^Earlier history is still being indexed \(300 of 1,200 parts\)\.$/);
      expect(result.structuredContent?.note).not.toMatch(/to finish it/);
      await client.close();
      client = undefined;
    }
  });
});
