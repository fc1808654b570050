import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { Core } from '../../../core/index.js';
import { historyHome, IDS, SUBAGENT_SESSION } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { connectInProcess, type ToolResult } from '../../support/mcp.js';

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
  client = await connectInProcess(core, { home: home.dir, stewardHome: home.dir });
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
