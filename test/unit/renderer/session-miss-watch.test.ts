import { describe, expect, it } from 'vitest';
import { markOf, missWatch } from '../../../renderer/src/places/sessions/missing.js';

// Review: a message the conversation does not hold is settled; it is asked for again only once the
// conversation changed (its message count, its last activity), not on every check.

const end = (messages: number, lastAt: number) => ({ session: { messages, lastAt } }) as Parameters<typeof markOf>[0];
const wrote = (partsWritten: number) => ({ providers: [{ provider: 'claude', discovered: 1, read: 1, unchanged: 0, failed: 0, partsWritten, durationMs: 1, failedLines: 0 }] });

describe('the watch on a missing message', () => {
  it('looks only after a check that wrote something, and asks again only once the conversation moved', async () => {
    let mark = markOf(end(4, 100));
    let looks = 0;
    let reloads = 0;
    const watch = missWatch(
      async () => (looks++, mark),
      () => reloads++,
    );
    await watch.settle();
    expect(looks).toBe(1);
    await watch.onTick(wrote(0));
    expect(looks).toBe(1);
    await watch.onTick(wrote(2));
    expect([looks, reloads]).toEqual([2, 0]);
    mark = markOf(end(5, 200));
    await watch.onTick(wrote(2));
    expect(reloads).toBe(1);
    await watch.onTick(wrote(2));
    expect(reloads).toBe(1);
  });

  it('a look that failed asks nothing again', async () => {
    let reloads = 0;
    const watch = missWatch(
      async () => undefined,
      () => reloads++,
    );
    await watch.settle();
    await watch.onTick(wrote(1));
    expect(reloads).toBe(0);
  });
});
