import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createMcpServer, serveStdio } from '../../../core/mcp/index.js';

/**
 * Every agent session pays for tools/list in every call's context: the whole answer, as a client reads
 * it off the wire, stays within TOTAL, and no one tool takes more than PER_TOOL of it.
 */
const TOTAL = 9_000;
const PER_TOOL = 2_200;

/** The tools/list answer as Steward's stdio server writes it: the JSON-RPC line, and each tool in it. */
async function servedToolsList(): Promise<{ line: string; tools: Array<{ name: string; inputSchema: { properties: Record<string, { type?: string }> } }> }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const served = serveStdio(createMcpServer(() => Promise.reject(new Error('unused')), { home: '/home/ada', stewardHome: '/home/ada/.steward' }), { stdin, stdout });
  const send = (message: Record<string, unknown>) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'budget', version: '0' } } });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/list', params: {} });
  const answer = () => out.split('\n').find((l) => l.startsWith('{') && (JSON.parse(l) as { id?: unknown }).id === 2);
  for (let i = 0; i < 200 && answer() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
  stdin.end();
  await served;
  const line = answer()!;
  return { line, tools: (JSON.parse(line) as { result: { tools: Awaited<ReturnType<typeof servedToolsList>>['tools'] } }).result.tools };
}

describe('tools/list as served', () => {
  it(`is at most ${TOTAL.toLocaleString('en')} characters in all (8.7k now; 11.8k before, 14.8k before that), no tool over ${PER_TOOL.toLocaleString('en')}`, async () => {
    const { line, tools } = await servedToolsList();
    const sizes = Object.fromEntries(tools.map((t) => [t.name, JSON.stringify(t).length]));
    if (process.env.STEWARD_MEASURE) console.log(JSON.stringify({ total: line.length, ...sizes }, null, 1), process.env.STEWARD_MEASURE === "all" ? line : "");
    expect(tools).toHaveLength(8);
    for (const [name, size] of Object.entries(sizes)) expect(size, name).toBeLessThanOrEqual(PER_TOOL);
    expect(line.length).toBeLessThanOrEqual(TOTAL);
  });

  it('still lists every argument each tool takes, each with its type', async () => {
    const { tools } = await servedToolsList();
    const target = ['repo', 'forge', 'base_url', 'registration_id', 'sync', 'collections', 'rag', 'profile', 'service_install', 'model_download'];
    expect(Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties)]))).toEqual({
      list_projects: ['limit', 'cursor'],
      project_overview: ['cwd'],
      maintenance_status: ['registration_id', 'repo'],
      maintenance_plan: target,
      enable_cache_maintenance: [...target, 'plan_id', 'idempotency_key', 'write_mode', 'wait_for_first_pass'],
      search_repository: ['repo', 'query', 'collection', 'state', 'author', 'label', 'updated_after', 'updated_before', 'limit'],
      search_transcripts: ['query', 'project_key', 'repo', 'provider', 'session_id', 'role', 'kind', 'genuine_user_turn', 'from', 'to', 'sort', 'limit', 'cursor'],
      get_session: ['session_id', 'part_id', 'cursor', 'at', 'limit', 'from_char'],
    });
    for (const t of tools) for (const [arg, schema] of Object.entries(t.inputSchema.properties)) expect(schema.type, `${t.name} ${arg}`).toEqual(expect.any(String));
  });
});
