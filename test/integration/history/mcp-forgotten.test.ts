import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay, type StewardClient } from '../../../core/api/index.js';
import { Core } from '../../../core/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { historyHome, IDS, SUBAGENT_SESSION } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import type { ToolResult } from '../../support/mcp.js';

// get_session on a conversation the person forgot: the agent is told so, in search_transcripts' form
// (`not_found: …`), not the plain words a mistyped id gets.

let home: TempHome;
let core: Core;
let client: Client;

beforeAll(async () => {
  ({ home } = historyHome('steward-mcp-forgotten-'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
  await core.call('Forget.Session', { sessionId: IDS.pruning });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const reach = { call: (method: string, params: unknown) => core.call(method, params) } as unknown as StewardClient;
  await createMcpServer((use) => use(reach), { home: home.dir, stewardHome: home.dir }).connect(serverSide);
  client = new Client({ name: 'mcp-forgotten-test', version: '0.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await core?.shutdown();
  home?.cleanup();
});

const getSession = async (sessionId: string) => (await client.callTool({ name: 'get_session', arguments: { session_id: sessionId } })) as ToolResult;
const today = () => localDay(Date.now());

describe('get_session on what the person forgot', () => {
  it('says the conversation was forgotten, and when', async () => {
    const answer = await getSession(IDS.pruning);
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toBe(`not_found: the person forgot this conversation on ${today()}; Steward keeps it out until they bring it back.`);
  });

  it('says a subagent of a forgotten conversation went with it', async () => {
    const answer = await getSession(SUBAGENT_SESSION);
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toBe(`not_found: the person forgot the conversation this subagent belongs to (${IDS.pruning}) on ${today()}; Steward keeps both out until they bring it back.`);
  });
});
