import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

let home: TempHome;
let core: Core;

const day = (d: number, month = 10) => Date.UTC(2026, month, d, 12);

/** A conversation with messages on 20 Nov and 5 Dec only, and one with a message on 23 Nov. */
beforeAll(async () => {
  home = tempHome('steward-list-dates-');
  const roots = join(home.dir, 'roots');
  const write = (sessionId: string, stamps: number[]) =>
    writeJsonl(
      join(roots, 'projects', '-work-dates', `${sessionId}.jsonl`),
      stamps.map((ts, i) => claudeLine({ sessionId, cwd: '/work/dates', ts: new Date(ts), type: i % 2 === 0 ? 'user' : 'assistant', text: `line ${i} of ${sessionId}` })),
    );
  write('gap-session', [day(20), day(20) + 60_000, day(5, 11), day(5, 11) + 60_000]);
  write('inside-session', [day(23), day(23) + 60_000]);
  home.env.STEWARD_CLAUDE_ROOTS = roots;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

describe('Sessions.List with a date range', () => {
  it('lists only conversations with a message in the range, as search does', async () => {
    const from = Date.UTC(2026, 10, 22);
    const to = Date.UTC(2026, 10, 24, 23, 59, 59, 999);
    const { sessions } = await core.call('Sessions.List', { from, to });
    expect(sessions.map((s) => s.sessionId)).toEqual(['inside-session']);
    const search = await core.call('Search.Query', { query: 'line', sessionId: 'gap-session', from, to });
    expect(search.hits).toHaveLength(0);
  });

  it('still lists a conversation by a message at either end of the range', async () => {
    const { sessions } = await core.call('Sessions.List', { from: day(5, 11), to: day(6, 11) });
    expect(sessions.map((s) => s.sessionId)).toEqual(['gap-session']);
    const early = await core.call('Sessions.List', { from: day(19), to: day(20) });
    expect(early.sessions.map((s) => s.sessionId)).toEqual(['gap-session']);
  });
});
