import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { BUDGET_FILE, CallBudget } from '../../../core/sweeper/budget.js';
import { writesLanded } from '../../../core/sweeper/file-queue.js';
import { CuratorPauses, PAUSES_FILE } from '../../../core/sweeper/pauses.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { longestHold, slowFsync } from '../../support/slow-disk.js';

let home: TempHome;
afterEach(() => {
  vi.restoreAllMocks();
  home.cleanup();
});

describe('curator pauses on disk', () => {
  it('keeps a damaged record aside and holds every remote curator paused, never lifting a pause silently', async () => {
    home = tempHome();
    writeFileSync(join(home.dir, PAUSES_FILE), '{"version": 1, "pauses": [{"curator": "anthropic", "reason": "spend_li');
    const logger = createMemoryLogger();
    const pauses = new CuratorPauses(home.dir, logger, Date.parse('2026-12-01T10:00:00Z'));
    expect(pauses.get('anthropic')).toMatchObject({ reason: 'record_damaged' });
    expect(pauses.get('openai-compatible')).toMatchObject({ reason: 'record_damaged' });
    expect(pauses.get('offline')).toBeUndefined();
    expect(pauses.get('anthropic')!.message).toMatch(/kept as sweeper-pauses\.json\.corrupt-2026-12-01T10-00-00-000Z/);
    expect(readdirSync(home.dir)).toContain('sweeper-pauses.json.corrupt-2026-12-01T10-00-00-000Z');
    expect(logger.lines.join('\n')).toMatch(/curator pauses damaged/);
    // The hold is itself recorded, so a restart keeps it until the person lifts it.
    await writesLanded();
    const again = new CuratorPauses(home.dir);
    expect(again.get('anthropic')).toMatchObject({ reason: 'record_damaged' });
    again.lift('anthropic');
    await writesLanded();
    expect(new CuratorPauses(home.dir).get('anthropic')).toBeUndefined();
  });

  it('never keeps the endpoint address a refusal named, in the record or when an older record is read', async () => {
    home = tempHome();
    const since = Date.parse('2026-12-01T10:00:00Z');
    const older = { curator: 'openai-compatible', reason: 'auth', message: 'The model provider at 10.1.2.3:8080 refused the key (HTTP 401)', since };
    writeFileSync(join(home.dir, PAUSES_FILE), JSON.stringify({ version: 1, pauses: [older] }));
    const pauses = new CuratorPauses(home.dir);
    expect(pauses.get('openai-compatible')!.message).toBe('The model provider refused the key (HTTP 401)');
    pauses.set({ curator: 'anthropic', reason: 'spend_limit', message: 'No Anthropic API key is available for api.example.com:8443: store one in Settings.', since });
    expect(pauses.get('anthropic')!.message).toBe('No Anthropic API key is available: store one in Settings.');
    await writesLanded();
    const text = readFileSync(join(home.dir, PAUSES_FILE), 'utf8');
    expect(text).not.toMatch(/example\.com|10\.1\.2\.3|8443|8080/);
  });

  it('reads no file as no pause', () => {
    home = tempHome();
    expect(new CuratorPauses(home.dir).all()).toEqual([]);
    expect(existsSync(join(home.dir, PAUSES_FILE))).toBe(false);
  });

  it("records a pause and its lifting on a slow disk without holding the owner's loop, in the order they were made", async () => {
    home = tempHome();
    // A disk other processes keep busy: each fsync takes 300 ms; writeFileAtomic.sync held the loop that long.
    const SLOW_MS = 300;
    slowFsync(SLOW_MS);
    const pauses = new CuratorPauses(home.dir);
    const { longestMs } = await longestHold(async () => {
      pauses.set({ curator: 'anthropic', reason: 'spend_limit', message: 'The daily spend limit was reached.', since: 1 });
      pauses.set({ curator: 'openai-compatible', reason: 'spend_limit', message: 'The daily spend limit was reached.', since: 2 });
      pauses.lift('anthropic');
      // Read at once, before anything landed: the map is what every read sees.
      expect(pauses.all().map((p) => p.curator)).toEqual(['openai-compatible']);
      await writesLanded();
    });
    expect(longestMs).toBeLessThan(SLOW_MS);
    expect(new CuratorPauses(home.dir).all().map((p) => p.curator)).toEqual(['openai-compatible']);
  });
});

describe('the daily count of model calls on disk', () => {
  it("counts a spend at once, writes it without holding the owner's loop, and keeps it across a restart", async () => {
    home = tempHome();
    const now = () => Date.parse('2026-12-01T10:00:00Z');
    const SLOW_MS = 300;
    slowFsync(SLOW_MS);
    const budget = new CallBudget(home.dir, now);
    const { longestMs } = await longestHold(async () => {
      budget.spend(2);
      budget.spend(3);
      expect(budget.usedToday()).toBe(5);
      expect(budget.exhausted(5)).toBe(true);
      await writesLanded();
    });
    expect(longestMs).toBeLessThan(SLOW_MS);
    expect(existsSync(join(home.dir, BUDGET_FILE))).toBe(true);
    expect(new CallBudget(home.dir, now).usedToday()).toBe(5);
    // The next local day starts from nothing.
    expect(new CallBudget(home.dir, () => Date.parse('2026-12-03T10:00:00Z')).usedToday()).toBe(0);
  });
});
