import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay, StewardError } from '../../../core/api/index.js';
import { runIn } from '../../support/cli.js';
import { GEMINI_PARENT, GEMINI_SUBAGENT, historyHome, IDS, SUBAGENT_SESSION, withGeminiSubagent } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { ownerWithMcp, type ToolResult } from '../../support/mcp.js';

/**
 * A subagent erased with the conversation it belongs to is said to be forgotten with it, whatever its
 * id: a Claude subagent's id names its parent, a Gemini subagent's does not, so the forget record
 * keeps the ids of the subagents it erased (Forget.Of answers from them). A part not in a conversation
 * and a conversation not stored are told apart by the error's details, not its words.
 */

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-forget-gemini-subagent-'));
  withGeminiSubagent(home);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
  // Stored, and nested under its parent by its row (its id does not name it).
  expect((await cli('sessions', 'show', GEMINI_SUBAGENT)).code).toBe(0);
  expect((await cli('forget', '--session', GEMINI_PARENT)).code).toBe(0);
  expect((await cli('forget', '--session', IDS.pruning)).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);
const today = () => localDay(Date.now());

describe('steward sessions show, after the conversation was forgotten', () => {
  it('a Gemini subagent is said to have gone with its conversation, as a Claude one is', async () => {
    expect(await cli('sessions', 'show', GEMINI_SUBAGENT)).toEqual({
      code: 1,
      out: '',
      err: `steward: You forgot the conversation this subagent belongs to on ${today()}; \`steward unforget --session ${GEMINI_PARENT}\` brings both back\n`,
    });
    expect((await cli('sessions', 'show', SUBAGENT_SESSION)).err).toContain(`\`steward unforget --session ${IDS.pruning}\` brings both back`);
  });

  it('--part of a forgotten conversation says it was forgotten; a part not in a stored one says so', async () => {
    expect((await cli('sessions', 'show', GEMINI_PARENT, '--part', 'any-part')).err).toBe(
      `steward: You forgot this conversation on ${today()}; \`steward unforget --session ${GEMINI_PARENT}\` brings it back\n`,
    );
    expect((await cli('sessions', 'show', IDS.config, '--part', 'no-such-part')).err).toBe('steward: That part is not in this conversation\n');
  });

  it('forgetting the subagent again is nothing more to do', async () => {
    expect((await cli('forget', '--session', GEMINI_SUBAGENT)).out).toBe(
      `You forgot the conversation this subagent belongs to on ${today()}: nothing more to do. It stays out of future imports; \`steward unforget --session ${GEMINI_PARENT}\` lifts that.\n`,
    );
  });
});

describe('the owner, after the conversation was forgotten', () => {
  const owner = ownerWithMcp(() => home);

  const getSession = async (args: Record<string, string>) => (await owner.client().callTool({ name: 'get_session', arguments: args })) as ToolResult;

  it('Forget.Of names the record that covers an id: its own, or its parent’s by the id or by the subagents it kept', async () => {
    const of = async (sessionId: string) => (await owner.core().call('Forget.Of', { sessionId })).record;
    expect(await of(GEMINI_PARENT)).toMatchObject({ kind: 'session', id: GEMINI_PARENT, via: 'self' });
    expect(await of(GEMINI_SUBAGENT)).toMatchObject({ kind: 'session', id: GEMINI_PARENT, via: 'parent' });
    expect(await of(SUBAGENT_SESSION)).toMatchObject({ kind: 'session', id: IDS.pruning, via: 'parent' });
    expect(await of(IDS.config)).toBeNull();
    expect(await of('no-such-id')).toBeNull();
  });

  it('get_session on the Gemini subagent says the conversation it belongs to was forgotten', async () => {
    const answer = await getSession({ session_id: GEMINI_SUBAGENT });
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toBe(`not_found: the person forgot the conversation this subagent belongs to (${GEMINI_PARENT}) on ${today()}; Steward keeps both out until they bring it back.`);
  });

  it('Sessions.Get says in its details what was not found: the conversation or the part', async () => {
    const missing = async (params: { sessionId: string; partId?: string }) => {
      const error = await owner.core().call('Sessions.Get', params).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StewardError);
      expect((error as StewardError).code).toBe('not_found');
      return (error as StewardError).details;
    };
    expect(await missing({ sessionId: GEMINI_SUBAGENT })).toEqual({ missing: 'conversation' });
    expect(await missing({ sessionId: IDS.config, partId: 'no-such-part' })).toEqual({ missing: 'part' });
    // get_session says the part's words as they are.
    expect((await getSession({ session_id: IDS.config, part_id: 'no-such-part' })).content[0]!.text).toBe('not_found: That part is not in this conversation');
  });

  it('unforgetting the conversation lifts its subagents with it: no record covers them any more', async () => {
    expect(await owner.core().call('Forget.Lift', { kind: 'session', id: GEMINI_PARENT })).toEqual({ lifted: true, nextCheck: 'all' });
    expect((await owner.core().call('Forget.Of', { sessionId: GEMINI_SUBAGENT })).record).toBeNull();
    expect((await owner.core().call('Forget.Of', { sessionId: GEMINI_PARENT })).record).toBeNull();
  });
});
