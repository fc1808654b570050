import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createMcpServer, serveStdio } from '../../../core/mcp/index.js';

/**
 * Every agent session pays for tools/list in every call's context: the whole answer, as a client reads
 * it off the wire, stays within TOTAL, and no one tool takes more than PER_TOOL of it.
 */
const TOTAL = 12_000;
const PER_TOOL = 2_900;

/** The tools/list answer as Steward's stdio server writes it: the JSON-RPC line, and each tool in it. */
async function servedToolsList(): Promise<{ line: string; tools: Array<{ name: string }> }> {
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
  return { line, tools: (JSON.parse(line) as { result: { tools: Array<{ name: string }> } }).result.tools };
}

describe('tools/list as served', () => {
  it(`is at most ${TOTAL.toLocaleString('en')} characters in all (14.8k before), no tool over ${PER_TOOL.toLocaleString('en')}`, async () => {
    const { line, tools } = await servedToolsList();
    const sizes = Object.fromEntries(tools.map((t) => [t.name, JSON.stringify(t).length]));
    if (process.env.STEWARD_MEASURE) console.log(JSON.stringify({ total: line.length, ...sizes }, null, 1), process.env.STEWARD_MEASURE === "all" ? line : "");
    expect(tools).toHaveLength(8);
    for (const [name, size] of Object.entries(sizes)) expect(size, name).toBeLessThanOrEqual(PER_TOOL);
    expect(line.length).toBeLessThanOrEqual(TOTAL);
  });
});
