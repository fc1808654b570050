import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { historyOwnerPerTest } from '../../support/history.js';
import { AgentStoreFixture, agentStorePath } from '../../support/openclaw-store.js';

/**
 * Forget.Lost for a session OpenClaw deleted from its agent store while Steward was not running: the
 * first check after start finds it gone, whichever way the store's file changed meanwhile (only its
 * WAL, OpenClaw still running; or folded into the database file on a clean close). A deletion is a
 * commit, so the store's fingerprint (database and WAL together, see stores.ts) is never the one its
 * checkpoint kept: the restart tick reads it, and reads nothing of a store unchanged since. (A guard:
 * this held before; the stop-46 note's "only when the store file next changes" did not reproduce.)
 */

const owner = historyOwnerPerTest();
const stores: AgentStoreFixture[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const ON_DISK = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const ONE_LOST = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const [DELETED, KEPT] = ['5e551044-dddd-4ddd-8ddd-000000000004', '5e551055-eeee-4eee-8eee-000000000005'];

function events(sessionId: string, words: string): string[] {
  const at = (s: number) => new Date(Date.now() - 3_600_000 + s * 1000).toISOString();
  const message = (id: string, parentId: string | null, role: string, text: string, s: number) =>
    JSON.stringify({ type: 'message', id, parentId, timestamp: at(s), message: { role, content: [{ type: 'text', text }], timestamp: Date.parse(at(s)) } });
  return [
    JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: at(0), cwd: '/home/u/.openclaw/workspace' }),
    message(`${sessionId.slice(0, 6)}01`, null, 'user', `Tell me about ${words}`, 1),
    message(`${sessionId.slice(0, 6)}02`, `${sessionId.slice(0, 6)}01`, 'assistant', `Here is what I know of ${words}.`, 2),
  ];
}

const lost = (c: Core, sessionId: string) => c.call('Forget.Lost', { kind: 'session', id: `oc:main:${sessionId}` });

describe('a session OpenClaw deleted from its store while Steward was stopped', () => {
  for (const closed of [false, true]) {
    it(`is lost at the first check after start (OpenClaw ${closed ? 'closed cleanly, its WAL folded into the file' : 'still running'})`, async () => {
      const { c, fixture } = owner.open('steward-lost-oc-stopped-');
      const store = new AgentStoreFixture(agentStorePath(fixture.openclawRoot), 'current', 'main');
      stores.push(store);
      store.append(DELETED, events(DELETED, 'the deleted one'));
      store.append(KEPT, events(KEPT, 'the kept one'));
      await c.call('Sweep.Tick', {});
      expect(await lost(c, DELETED)).toEqual(ON_DISK);
      await c.shutdown();

      store.deleteSession(DELETED);
      if (closed) store.close();
      const again = owner.reopen();
      await again.call('Sweep.Tick', {});
      expect(await lost(again, DELETED)).toEqual(ONE_LOST);
      expect(await lost(again, KEPT)).toEqual(ON_DISK);
    });
  }
});
