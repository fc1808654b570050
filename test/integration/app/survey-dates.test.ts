import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';

/**
 * The listing's dates: a history copied from another computer is new files of old messages. The
 * files' dates say the day of the copy; what was imported of it says when it was written.
 */
let home: TempHome;
const cores: Core[] = [];

afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
  home?.cleanup();
});

const DAY = 86_400_000;

describe('Providers.Survey’s dates', () => {
  it('gives the stored messages’ dates once they are imported, beside the files’ (new) dates', async () => {
    home = tempHome('steward-survey-dates-');
    const claude = join(home.dir, 'roots', 'claude');
    // Written 200 days ago, copied here today: the file's date is now.
    const written = Date.now() - 200 * DAY;
    claudeSession(claude, 'copied', 4, { ts: new Date(written) });
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: claude }, logger: createMemoryLogger() });
    cores.push(core);

    const before = (await core.call('Providers.Survey', {})).providers[0]!;
    expect(before.stored).toBeUndefined();
    expect(Date.now() - before.oldestAt!).toBeLessThan(60_000);

    await core.call('Sweep.Tick', {});
    const after = (await core.call('Providers.Survey', {})).providers;
    expect(after[0]!.provider).toBe('claude');
    expect(after[0]!.stored).toEqual({ oldestAt: written, newestAt: written + 3_000 });
    expect(Date.now() - after[0]!.oldestAt!).toBeLessThan(60_000);
    // An agent nothing was imported from has only its files' dates.
    expect(after.filter((p) => p.provider !== 'claude').every((p) => p.stored === undefined)).toBe(true);
  });
});
