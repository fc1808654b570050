import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll } from 'vitest';
import { typedClient } from '../../core/api/index.js';
import { Core } from '../../core/core.js';
import { createMcpServer } from '../../core/mcp/index.js';
import { tempHome, type TempHome } from './home.js';
import { claudeLine, writeJsonl } from './transcripts.js';

/** What a tool call answers, as the tests read it. */
export interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

/** The checkout, and `steward` as a person runs it (from the built dist). */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(REPO, 'bin', 'steward.js');

/**
 * `steward mcp` from the built dist, driven by the official SDK client over stdio; `stderr()` is what
 * the server wrote there so far.
 */
export async function connectMcp(processEnv: NodeJS.ProcessEnv): Promise<{ client: Client; stderr: () => string }> {
  const env = Object.fromEntries(Object.entries(processEnv).filter((e): e is [string, string] => typeof e[1] === 'string'));
  if (!existsSync(join(REPO, 'dist', 'core', 'cli', 'main.js'))) throw new Error('run `npm run build:node` first');
  let stderr = '';
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, cwd: REPO, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'steward-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/**
 * Steward's MCP tools served in-process through this owner (as `steward mcp` serves them through a
 * running one), driven by the SDK's client: the tools' code as it is, with no build and no process.
 */
export async function connectInProcess(core: Core, options: { home?: string; stewardHome?: string } = {}): Promise<Client> {
  const owner = typedClient({ call: (method, params) => core.call(method, params), on: () => () => undefined });
  const server = createMcpServer((use) => use(owner), { stewardHome: core.home.dir, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'steward-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

/**
 * For the enclosing describe block: the owner's Core opened on `home()` (as an app would), with the MCP
 * tools connected in process, before its tests; both closed after them.
 */
export function ownerWithMcp(home: () => TempHome): { core: () => Core; client: () => Client } {
  let core: Core | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    const { dir, env } = home();
    core = Core.open({ home: { dir, kind: 'env' }, env });
    client = await connectInProcess(core, { home: dir, stewardHome: dir });
  });
  afterAll(async () => {
    await client?.close();
    await core?.shutdown();
  });
  return { core: () => core!, client: () => client! };
}

/** Every text block of a tool's answer, one a line. */
export const toolText = (result: ToolResult): string => result.content.map((c) => c.text ?? '').join('\n');

/**
 * For the enclosing file: the owner's Core on the temp home `makeHome` makes, readied by `prepare` (a
 * backfill, say), with the MCP tools connected in process (as ownerWithMcp), before its tests; all closed
 * and the home removed after them. `call`: one tool call, as the tests read its answer.
 */
export function tempOwnerWithMcp(
  makeHome: () => TempHome,
  prepare: (core: Core) => Promise<unknown> = async () => undefined,
): { home: () => TempHome; client: () => Client; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> } {
  let home: TempHome | undefined;
  let core: Core | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    home = makeHome();
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await prepare(core);
    client = await connectInProcess(core, { home: home.dir, stewardHome: home.dir });
  });
  afterAll(async () => {
    await client?.close();
    await core?.shutdown();
    home?.cleanup();
  });
  return { home: () => home!, client: () => client!, call: async (name, args) => (await client!.callTool({ name, arguments: args })) as ToolResult };
}

/**
 * For the enclosing file or describe block: a Claude history that `write` lays out under its root (the
 * home's STEWARD_CLAUDE_ROOTS, so a CLI run on `home().env` reads it too), backfilled by an owner on a temp
 * home, with the MCP tools connected in process; all closed and removed after.
 * `call`: one tool call, as the tests read its answer.
 */
export function claudeHistoryWithMcp(
  prefix: string,
  write: (root: string) => void,
): { home: () => TempHome; core: () => Core; client: () => Client; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> } {
  let home: TempHome | undefined;
  let core: Core | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    home = tempHome(prefix);
    const root = join(home.dir, 'roots', 'claude');
    write(root);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', {});
    client = await connectInProcess(core, { home: home.env.HOME! });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await core?.shutdown();
    home?.cleanup();
  });
  return { home: () => home!, core: () => core!, client: () => client!, call: async (name, args) => (await client!.callTool({ name, arguments: args })) as ToolResult };
}

/** The subagents' ids in subagentOrchard: `a` and eleven digits. */
export const orchardAgentId = (i: number): string => `a${String(i).padStart(11, '0')}`;

/**
 * Under a Claude root: conversation `sessionId` in /work/orchard starts `subagents` Explore subagents in
 * one message (each in its own file, with its sidecar), then goes on for eight turns about the orchard rows.
 */
export function writeSubagentOrchard(root: string, sessionId: string, subagents: number): void {
  const dir = join(root, 'projects', '-work-orchard');
  const at = (i: number) => new Date(Date.now() - 3_600_000 + i * 60_000);
  const line = (i: number, o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts'>) => claudeLine({ sessionId, cwd: '/work/orchard', ts: at(i), ...o });
  const tasks = Array.from({ length: subagents }, (_, i) => ({ type: 'tool_use', id: `toolu_task${i}`, name: 'Task', input: { description: `Survey ${i}`, prompt: `Survey the orchard row ${i} for frost damage and report back`, subagent_type: 'Explore' } }));
  writeJsonl(join(dir, `${sessionId}.jsonl`), [
    line(0, { text: 'survey every orchard row' }),
    line(1, { type: 'assistant', content: [{ type: 'text', text: 'Starting a helper per row.' }, ...tasks] }),
    ...Array.from({ length: 8 }, (_, i) => line(40 + i, { type: i % 2 === 0 ? 'user' : 'assistant', text: `turn ${i} about the orchard rows` })),
  ]);
  for (let i = 0; i < subagents; i += 1) {
    const agentDir = join(dir, sessionId, 'subagents');
    writeJsonl(join(agentDir, `agent-${orchardAgentId(i)}.jsonl`), [
      claudeLine({ sessionId, agentId: orchardAgentId(i), cwd: '/work/orchard', ts: at(2 + i), text: `Survey the orchard row ${i} for frost damage and report back` }),
      claudeLine({ sessionId, agentId: orchardAgentId(i), cwd: '/work/orchard', ts: at(2 + i), type: 'assistant', text: `Row ${i} is fine.` }),
    ]);
    writeFileSync(join(agentDir, `agent-${orchardAgentId(i)}.meta.json`), JSON.stringify({ agentType: 'Explore' }));
  }
}
