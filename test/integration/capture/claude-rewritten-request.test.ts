import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayReader } from '../../../core/gateway/index.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, inLastHour, tickOf, type CaptureHarness } from './harness.js';

/**
 * A tick that reads a rewritten file from 0 (its head changed) lets idempotent part ids absorb what
 * it has seen: stored parts keep their text. The session's first request, which the list shows, must
 * keep agreeing with them; a manual backfill rewrites both.
 */
const SESSION = 'rewritten-request';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Fixed times: a rewrite keeps the line's time. */
const START = inLastHour(0).getTime();
const user = (uuid: string, text: string, minute: number) => claudeLine({ sessionId: SESSION, uuid, text, ts: new Date(START + minute * 60_000) });

/** What the list shows of the session, and the texts a reader of it sees. */
function shown(c: CaptureHarness): { firstRequest: string | null; title: string | null; texts: Array<string | null> } {
  const reader = new GatewayReader(c.db);
  const head = reader.newestSessions(10).find((s) => s.sessionId === SESSION);
  return { firstRequest: head?.firstRequest ?? null, title: head?.title ?? null, texts: reader.firstPartsOfSession(SESSION, 10).map((p) => p.text) };
}

describe('Claude: a rewritten first line read again by a tick', () => {
  it('keeps the first request the stored part says; a backfill moves both', async () => {
    const c = (h = captureHarness());
    const path = join(c.claudeRoot, 'projects', 'p', `${SESSION}.jsonl`);
    writeJsonl(path, [user('e1', 'original prompt walrus', 1)]);
    expect(await tickOf(c, 'claude')).toMatchObject({ partsWritten: 1 });
    const inode = statSync(path).ino;

    // Rewritten in place: the same inode, a changed head, so the tick reads it from 0 without refreshing.
    writeJsonl(path, [user('e1', 'changed prompt seal', 1)]);
    expect(statSync(path).ino).toBe(inode);
    expect(await tickOf(c, 'claude')).toMatchObject({ read: 1, partsWritten: 0 });
    expect(shown(c)).toEqual({ firstRequest: 'original prompt walrus', title: null, texts: ['original prompt walrus'] });

    await c.driver.backfill({ all: true });
    expect(shown(c)).toEqual({ firstRequest: 'changed prompt seal', title: null, texts: ['changed prompt seal'] });
  });

  it('an earlier line new to the store still gives the first request', async () => {
    const c = (h = captureHarness());
    const path = join(c.claudeRoot, 'projects', 'p', `${SESSION}.jsonl`);
    writeJsonl(path, [user('e2', 'second prompt', 2)]);
    await tickOf(c, 'claude');
    writeJsonl(path, [user('e1', 'first prompt', 1), user('e2', 'second prompt', 2)]);
    expect(await tickOf(c, 'claude')).toMatchObject({ partsWritten: 1 });
    expect(shown(c)).toMatchObject({ firstRequest: 'first prompt', texts: ['first prompt', 'second prompt'] });
  });

  it('a title line appended after the rewrite is still taken', async () => {
    const c = (h = captureHarness());
    const path = join(c.claudeRoot, 'projects', 'p', `${SESSION}.jsonl`);
    writeJsonl(path, [user('e1', 'original prompt walrus', 1)]);
    await tickOf(c, 'claude');
    writeJsonl(path, [user('e1', 'changed prompt seal', 1)]);
    appendJsonl(path, [{ type: 'custom-title', sessionId: SESSION, customTitle: 'Named by hand' }]);
    await tickOf(c, 'claude');
    expect(shown(c)).toEqual({ firstRequest: 'original prompt walrus', title: 'Named by hand', texts: ['original prompt walrus'] });
    appendJsonl(path, [{ type: 'ai-title', sessionId: SESSION, aiTitle: 'Walrus talk' }, { type: 'summary', summary: 'Walrus summary', leafUuid: 'e1' }]);
    await tickOf(c, 'claude');
    expect(shown(c).title).toBe('Named by hand');
  });
});
