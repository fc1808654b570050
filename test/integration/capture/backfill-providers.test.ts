import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeSession, openclawLines, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from './harness.js';
import { PROVIDER_IDS } from '../../../core/api/index.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Backfill of every provider', () => {
  it('leaves a provider the configuration disabled alone, unless it is asked for by name', async () => {
    h = captureHarness({ providers: { openclaw: { enabled: false } } });
    claudeSession(h.claudeRoot, 'claude-session', 2);
    writeJsonl(join(h.openclawRoot, 'agents', 'main', 'sessions', 'hdr-1.jsonl'), openclawLines('hdr-1', [{ id: 'aaaa0001' }]));

    const all = await h.driver.backfill({ provider: 'all', all: true });
    const enabled = PROVIDER_IDS.filter((id) => id !== 'openclaw');
    expect(all.map((s) => s.provider)).toEqual(enabled);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE provider = 'openclaw'")).toBe(0);
    expect((await h.driver.backfill({ all: true })).map((s) => s.provider)).toEqual(enabled);

    const named = await h.driver.backfill({ provider: 'openclaw', all: true });
    expect(named).toMatchObject([{ provider: 'openclaw', read: 1 }]);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE provider = 'openclaw'")).toBe(1);
  });
});
