import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { historyOwnerPerTest } from '../../support/history.js';
import { AgentStoreFixture, agentStorePath } from '../../support/openclaw-store.js';

/**
 * Forget.Lost for conversations an OpenClaw agent store holds (2026.8+): one database file holds many
 * sessions, so the file being there says nothing of one of them. A session OpenClaw deleted from its
 * store (its rows and its window gone, the file still there) is gone; one left as it was, or rewritten
 * (a new generation, read again whole), is on disk; one that comes back is on disk again.
 */

const owner = historyOwnerPerTest();
const stores: AgentStoreFixture[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const ON_DISK = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const ONE_LOST = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const [DELETED, KEPT, REWRITTEN] = ['5e551011-aaaa-4aaa-8aaa-000000000001', '5e551022-bbbb-4bbb-8bbb-000000000002', '5e551033-cccc-4ccc-8ccc-000000000003'];
const conversation = (sessionId: string) => `oc:main:${sessionId}`;

/** A session's rows as OpenClaw writes them: its header, a question and an answer, an hour ago. */
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

const lost = (c: Core, sessionId: string) => c.call('Forget.Lost', { kind: 'session', id: conversation(sessionId) });

describe('Forget.Lost for conversations an OpenClaw store holds', () => {
  function opened(prefix: string): { c: Core; store: AgentStoreFixture } {
    const { c, fixture } = owner.open(prefix);
    const store = new AgentStoreFixture(agentStorePath(fixture.openclawRoot), 'current', 'main');
    stores.push(store);
    store.append(DELETED, events(DELETED, 'the deleted one'));
    store.append(KEPT, events(KEPT, 'the kept one'));
    store.append(REWRITTEN, events(REWRITTEN, 'the rewritten one'));
    return { c, store };
  }

  it('a session OpenClaw deleted from its store is lost, though the database file is there; one unchanged or rewritten is not', async () => {
    const { c, store } = opened('steward-lost-oc-store-');
    await c.call('Sweep.Tick', {});
    for (const id of [DELETED, KEPT, REWRITTEN]) expect(await lost(c, id)).toEqual(ON_DISK);

    store.deleteSession(DELETED);
    // A repair re-sequences one session (a new generation): read again whole, it is still in the store.
    store.rewrite(REWRITTEN, events(REWRITTEN, 'the rewritten one'), 0);
    await c.call('Sweep.Tick', {});
    expect(await lost(c, DELETED)).toEqual(ONE_LOST);
    expect(await lost(c, KEPT)).toEqual(ON_DISK);
    expect(await lost(c, REWRITTEN)).toEqual(ON_DISK);

    // Other writes to the store (a session it merely goes on with) keep the deleted one lost.
    store.append(KEPT, [JSON.stringify({ type: 'message', id: 'a11ce001', parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: 'and more', timestamp: Date.now() } })]);
    await c.call('Sweep.Tick', {});
    expect(await lost(c, DELETED)).toEqual(ONE_LOST);
    expect(await lost(c, KEPT)).toEqual(ON_DISK);
  });

  it('a deleted session that comes back (restored into the store) is on disk again, and stays so after a restart', async () => {
    const { c, store } = opened('steward-lost-oc-restored-');
    await c.call('Sweep.Tick', {});
    store.deleteSession(DELETED);
    await c.call('Sweep.Tick', {});
    expect(await lost(c, DELETED)).toEqual(ONE_LOST);

    store.append(DELETED, events(DELETED, 'the deleted one'));
    await c.call('Sweep.Tick', {});
    expect(await lost(c, DELETED)).toEqual(ON_DISK);
    await c.shutdown();
    const again = owner.reopen();
    await again.call('Sweep.Tick', {});
    expect(await lost(again, DELETED)).toEqual(ON_DISK);
    expect(await lost(again, KEPT)).toEqual(ON_DISK);
  });

  it('a session whose rows OpenClaw reclaimed into an archive blob is still in the store file: not lost', async () => {
    const { c, store } = opened('steward-lost-oc-archived-');
    await c.call('Sweep.Tick', {});
    const blob = Buffer.from(`${events(DELETED, 'the deleted one').join('\n')}\n`);
    const sha = createHash('sha256').update(blob).digest('hex');
    store.db
      .prepare("INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, archive_sha256, archive_name, created_at) VALUES (?, 'g1', 'agent:main:x', 'deleted', 'identity', ?, ?, ?, 1)")
      .run(DELETED, blob, sha, `${DELETED}.jsonl.deleted.1`);
    store.deleteSession(DELETED);
    await c.call('Sweep.Tick', {});
    expect(await lost(c, DELETED)).toEqual(ON_DISK);
  });
});
