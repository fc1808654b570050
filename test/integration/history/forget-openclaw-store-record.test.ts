import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { historyOwnerPerTest } from '../../support/history.js';
import { AgentStoreFixture, agentStorePath } from '../../support/openclaw-store.js';

/**
 * A forgotten project's conversations in an OpenClaw agent store: one database file holds many
 * sessions, so a forget record's hold on it says only that the store held some of what the record
 * keeps out. Once OpenClaw deleted every such session from the store (the file stays), nothing of the
 * project is left on disk: an Unforget says so, as it does for a deleted JSONL file.
 */

const owner = historyOwnerPerTest();
const stores: AgentStoreFixture[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const FORGOTTEN_CWD = '/home/u/work/forgotten-plans';
const [OLD, NEW, OTHER] = ['5e551077-aaaa-4aaa-8aaa-000000000007', '5e551088-bbbb-4bbb-8bbb-000000000008', '5e551099-cccc-4ccc-8ccc-000000000009'];

let second = 0;
function message(sessionId: string, text: string, parentId: string | null = null): string {
  const at = new Date(Date.now() - 3_600_000 + (second += 1) * 1000).toISOString();
  return JSON.stringify({ type: 'message', id: `${sessionId.slice(0, 4)}${String(second).padStart(4, '0')}`, parentId, timestamp: at, message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse(at) } });
}
function started(sessionId: string, cwd: string, text: string): string[] {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  return [JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: at, cwd }), message(sessionId, text)];
}

describe('a forgotten project whose conversations an OpenClaw store held', () => {
  async function forgotten(prefix: string): Promise<{ c: Core; store: AgentStoreFixture; projectKey: string }> {
    const { c, fixture } = owner.open(prefix);
    const store = new AgentStoreFixture(agentStorePath(fixture.openclawRoot), 'current', 'main');
    stores.push(store);
    store.append(OLD, started(OLD, FORGOTTEN_CWD, 'plans to forget'));
    store.append(OTHER, started(OTHER, '/home/u/.openclaw/workspace', 'plans to keep'));
    await c.call('Sweep.Tick', {});
    const { projectKey } = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === FORGOTTEN_CWD)!;
    await c.call('Forget.Project', { projectKey });
    // OpenClaw goes on: the forgotten conversation gains a line, and another starts in the same folder. Both are kept out.
    store.append(OLD, [message(OLD, 'more plans')]);
    store.append(NEW, started(NEW, FORGOTTEN_CWD, 'newer plans'));
    await c.call('Sweep.Tick', {});
    return { c, store, projectKey };
  }

  it('an Unforget says nothing is left once OpenClaw deleted them from the store, though the store file is there', async () => {
    const { c, store, projectKey } = await forgotten('steward-forget-oc-record-gone-');
    store.deleteSession(OLD);
    store.deleteSession(NEW);
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lift', { kind: 'project', id: projectKey })).toMatchObject({ lifted: true, nothingLeft: true });
  });

  it('a hold written before Steward named what a record kept out of a store is never marked gone by a listing', async () => {
    const { c, store, projectKey } = await forgotten('steward-forget-oc-record-upgraded-');
    // As an earlier version left it: the record's hold on the store, naming nothing it kept out.
    const db = new Database(join(owner.home().dir, 'gateway.db'));
    db.prepare("UPDATE file_holds SET withheld = NULL WHERE kind = 'project'").run();
    db.close();
    // Another conversation of the project is kept out, then OpenClaw deletes the ones this version saw kept out.
    const LATER = '5e5510aa-dddd-4ddd-8ddd-00000000000a';
    store.append(LATER, started(LATER, FORGOTTEN_CWD, 'later plans'));
    await c.call('Sweep.Tick', {});
    store.deleteSession(OLD);
    store.deleteSession(LATER);
    await c.call('Sweep.Tick', {});
    // NEW, kept out before, may still be there: the store is read again on Unforget, and NEW comes back.
    expect(await c.call('Forget.Lift', { kind: 'project', id: projectKey })).toMatchObject({ lifted: true, nextCheck: 'all' });
    await c.call('Sweep.Tick', {});
    expect((await c.call('Sessions.Get', { sessionId: `oc:main:${NEW}` })).session.sessionId).toBe(`oc:main:${NEW}`);
  });

  it('while one of them is still in the store, an Unforget brings it back at the next check', async () => {
    const { c, store, projectKey } = await forgotten('steward-forget-oc-record-kept-');
    store.deleteSession(OLD);
    await c.call('Sweep.Tick', {});
    const lifted = await c.call('Forget.Lift', { kind: 'project', id: projectKey });
    expect(lifted.nothingLeft).toBeUndefined();
    expect(lifted.nextCheck).toBe('all');
    await c.call('Sweep.Tick', {});
    expect((await c.call('Sessions.Get', { sessionId: `oc:main:${NEW}` })).session.sessionId).toBe(`oc:main:${NEW}`);
  });
});
