import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core, Params } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { writeJsonl } from '../../support/transcripts.js';

/**
 * The role a hit is labelled with is the role that finds it (partRoleOf and the index's role filter, one
 * rule): OpenClaw stores what a tool returned under the role toolResult, and a block that is no text (an
 * image, a resource) is no tool_result part, yet it is the tool's output, shown as `tool`, and found so.
 */

const SESSION = 'c9040000-0000-4000-8000-000000000001';
const base = Date.UTC(2026, 2, 4, 9);
const ts = (i: number) => new Date(base + i * 60_000).toISOString();
const message = (id: string, i: number, body: Record<string, unknown>) => ({ type: 'message', id, parentId: null, timestamp: ts(i), message: { timestamp: base + i * 60_000, ...body } });

describe('a role:tool search finds what is labelled tool', () => {
  const temp = coreHome('steward-search-role-tool-label-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const root = join(temp.home.dir, 'roots', 'openclaw');
    writeJsonl(join(root, 'agents', 'main', 'sessions', `${SESSION}.jsonl`), [
      { type: 'session', version: 3, id: SESSION, timestamp: ts(0), cwd: '/work/pantry' },
      message('e0000001', 1, { role: 'user', content: [{ type: 'text', text: 'Fetch the saffron page' }] }),
      message('e0000002', 2, { role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'fetch_resource', arguments: { uri: 'file:///pantry.md' } }] }),
      message('e0000003', 3, {
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'fetch_resource',
        content: [
          { type: 'resource', resource: { uri: 'file:///pantry.md', text: 'saffron threads, two jars' } },
          { type: 'image', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', mimeType: 'image/png' },
        ],
        isError: false,
      }),
    ]);
    temp.home.env.STEWARD_OPENCLAW_ROOTS = root;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  const found = async (params: Params<'Search.Query'>) => (await core.call('Search.Query', params)).hits.map((h) => `${h.role} ${h.kind}`).sort();

  it('the tool-returned block is labelled tool, and role tool finds it, with words and without, in either order', async () => {
    expect(await found({ query: 'jars' })).toEqual(['tool resource']);
    for (const sort of ['relevance', 'newest'] as const) {
      expect(await found({ query: 'jars', role: 'tool', sort })).toEqual(['tool resource']);
      expect(await found({ query: 'jars', role: 'tool', sort, redact: true })).toEqual(['tool resource']);
      expect(await found({ query: 'jars', role: 'toolResult', sort })).toEqual(['tool resource']);
    }
    expect(await found({ query: '', role: 'tool' })).toEqual(['tool resource']);
  });

  it('no other role finds it', async () => {
    for (const role of ['user', 'assistant', 'system'] as const) {
      expect(await found({ query: 'jars', role })).toEqual([]);
      expect(await found({ query: '', role })).not.toContain('tool resource');
    }
    // A tool call is not what the tool returned.
    expect(await found({ query: 'jars', role: 'tool', kind: 'tool_use' })).toEqual([]);
    expect(await found({ query: 'jars', role: 'tool', kind: 'tool_result' })).toEqual([]);
  });
});
