import { describe, expect, it } from 'vitest';
import { StewardError, type StewardClient } from '../../../core/api/index.js';
import { partInSubagent } from '../../../core/cli/commands/sessions.js';

// `steward sessions show ID --part P`, for a part ID itself does not hold: each of its subagents is
// asked for the part, a few at once, and the answer is the one asking them in turn gives.

const PART = 'p-1';
const missingPart = () => new StewardError('not_found', 'That part is not in this conversation', { missing: 'part' });

/** An owner whose conversation `main` has these subagents; `holders` hold the part; each answer takes `delays[id]` ms (1 by default). */
function owner(subagents: string[], holders: string[], delays: Record<string, number> = {}) {
  const asked: string[] = [];
  let inFlight = 0;
  let most = 0;
  const call = async (_method: string, params: { sessionId: string; partId?: string }) => {
    if (params.partId === undefined) return { subagents: subagents.map((sessionId) => ({ session: { sessionId } })) };
    asked.push(params.sessionId);
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, delays[params.sessionId] ?? 1));
    inFlight--;
    if (!holders.includes(params.sessionId)) throw missingPart();
    return {};
  };
  const client = { call, on: () => () => {} } as unknown as StewardClient;
  return { client, asked, most: () => most };
}

async function outcome(client: StewardClient): Promise<string> {
  const error = await partInSubagent(client, 'main', PART)(missingPart()).catch((e: unknown) => e);
  return (error as StewardError).message;
}

describe('a part asked of a conversation that one of its subagents holds', () => {
  it('asks the subagents at once, a few at a time', async () => {
    const subs = Array.from({ length: 10 }, (_, i) => `sub-${i}`);
    const { client, asked, most } = owner(subs, ['sub-9']);
    expect(await outcome(client)).toContain('That part is in the subagent conversation sub-9 of this one');
    expect(asked.sort()).toEqual([...subs].sort());
    expect(most()).toBeGreaterThan(1);
    expect(most()).toBeLessThanOrEqual(4);
  });

  it('names the first subagent in order that holds it, even when a later one answers first', async () => {
    const { client } = owner(['a', 'b', 'c'], ['b', 'c'], { b: 30, c: 1 });
    expect(await outcome(client)).toContain('subagent conversation b of this one; `steward sessions show b --part p-1` opens it there');
  });

  it('asks no further subagent once one holds it', async () => {
    const subs = Array.from({ length: 12 }, (_, i) => `sub-${i}`);
    const { client, asked } = owner(subs, ['sub-0']);
    expect(await outcome(client)).toContain('subagent conversation sub-0');
    expect(asked.length).toBeLessThanOrEqual(4);
  });

  it('says the miss as it was when none holds it', async () => {
    const { client } = owner(['a', 'b'], []);
    expect(await outcome(client)).toBe('That part is not in this conversation');
  });
});
