import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { Core, type Result } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

let home: TempHome;
let core: Core;
const SESSION = 'long-end';
const MESSAGES = 450;
const BASE = Date.UTC(2026, 5, 1);

/**
 * 450 messages "message N": the even ones an assistant's, in two parts (a message split over parts),
 * the odd ones the person's. Messages 50 and 250, where the pages below begin, are split ones.
 */
function writeConversation(roots: string): void {
  writeJsonl(
    join(roots, 'projects', '-work-long', `${SESSION}.jsonl`),
    Array.from({ length: MESSAGES }, (_, i) => {
      const ts = new Date(BASE + i * 1000);
      if (i % 2 === 1) return claudeLine({ sessionId: SESSION, cwd: '/work/long', ts, type: 'user', text: `message ${i}` });
      return claudeLine({ sessionId: SESSION, cwd: '/work/long', ts, type: 'assistant', content: [{ type: 'text', text: `message ${i}` }, { type: 'text', text: `message ${i} continued` }] });
    }),
  );
}

beforeAll(async () => {
  home = tempHome('steward-sessions-end-');
  const roots = join(home.dir, 'roots');
  writeConversation(roots);
  home.env.STEWARD_CLAUDE_ROOTS = roots;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

type Message = Result<'Sessions.Get'>['messages'][number];
/** Each message as its number, checking that it is whole (both parts of a split one). */
const numbers = (messages: Message[]) =>
  messages.map((m) => {
    const n = Number(/^message (\d+)$/.exec(m.parts[0]?.text ?? '')?.[1]);
    expect(m.parts.map((p) => p.text)).toEqual(n % 2 === 0 ? [`message ${n}`, `message ${n} continued`] : [`message ${n}`]);
    return n;
  });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('Sessions.Get at the end', () => {
  it('opens at the last `limit` whole messages, with earlier pages behind it and none after', async () => {
    const end = await core.call('Sessions.Get', { sessionId: SESSION, at: 'end', limit: 200 });
    expect(numbers(end.messages)).toEqual(range(250, 449));
    expect(end.cursor).toBeUndefined();
    expect(end.before).toBeDefined();
    const earlier = await core.call('Sessions.Get', { sessionId: SESSION, limit: 200, cursor: end.before! });
    expect(numbers(earlier.messages)).toEqual(range(50, 249));
    expect(earlier.cursor).toBeDefined();
    const first = await core.call('Sessions.Get', { sessionId: SESSION, limit: 200, cursor: earlier.before! });
    expect(numbers(first.messages)).toEqual(range(0, 49));
    expect(first.before).toBeUndefined();
    // Forward from the page before the end reaches the same end page.
    const again = await core.call('Sessions.Get', { sessionId: SESSION, limit: 200, cursor: earlier.cursor! });
    expect(numbers(again.messages)).toEqual(range(250, 449));
  });

  it('a conversation shorter than the limit is all on one page, with no cursor either way', async () => {
    const all = await core.call('Sessions.Get', { sessionId: SESSION, at: 'end', limit: 1_000 });
    expect(numbers(all.messages)).toEqual(range(0, 449));
    expect(all.before).toBeUndefined();
    expect(all.cursor).toBeUndefined();
  });

  it.each([
    ['cursor', { cursor: 'x' }],
    ['partId', { partId: 'cc:x:0' }],
  ])('refuses `at` with %s, in plain words', async (name, extra) => {
    const refused = await core.call('Sessions.Get', { sessionId: SESSION, at: 'end', ...extra }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StewardError);
    expect((refused as StewardError).code).toBe('invalid_params');
    expect((refused as StewardError).message).toBe(`at and ${name} cannot be combined`);
  });
});
