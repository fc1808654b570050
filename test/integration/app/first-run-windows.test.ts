import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderId, Result } from '../../../core/api/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { coreHome } from '../../support/core.js';
import { claudeSession } from '../../support/transcripts.js';

/**
 * Home's first run words each agent's window and whether the clean-up removes again what an import
 * of everything brings in: Providers.Survey says where each window comes from and the clean-up's window.
 */
const DAY = 86_400_000;
const temp = coreHome('steward-first-run-windows-');
const agent = (survey: Result<'Providers.Survey'>, provider: ProviderId) => survey.providers.find((p) => p.provider === provider)!;

describe('the first run, with Claude on its own 90 days and the other agents on the default year', () => {
  it('says where each window comes from and which agents the clean-up narrows, before and after a cache retention is saved', async () => {
    const { home } = temp;
    const claude = join(home.dir, 'roots', 'claude');
    const codex = join(home.dir, 'roots', 'codex');
    mkdirSync(codex, { recursive: true });
    claudeSession(claude, 'today', 2);
    const oldAt = new Date(Date.now() - 200 * DAY);
    utimesSync(claudeSession(claude, 'spring', 2, { ts: oldAt }), oldAt, oldAt);
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { claude: { backfill: { window_days: 90 } } } }));
    const env = { STEWARD_CLAUDE_ROOTS: claude, STEWARD_CODEX_ROOTS: codex };
    let c = temp.open({ env, logger: createMemoryLogger() });

    let survey = await c.call('Providers.Survey', {});
    expect(agent(survey, 'claude')).toMatchObject({ windowDays: 90, windowFrom: 'agent', cleanUpDays: 90, older: { files: 1 } });
    expect(agent(survey, 'codex')).toMatchObject({ windowDays: 365, windowFrom: 'default', cleanUpDays: 0 });

    // Import everything reads the older file whole; Claude's own window removes its messages again,
    // while its checkpoint stays: Home must not call it imported.
    await c.call('Backfill.Run', { provider: 'all', all: true });
    expect((await c.call('Cache.Stats', {})).conversations).toBe(2);
    await c.call('Cache.Prune', {});
    expect((await c.call('Cache.Stats', {})).conversations).toBe(1);
    survey = await c.call('Providers.Survey', {});
    expect(agent(survey, 'claude')).toMatchObject({ cleanUpDays: 90, older: { files: 1, imported: { files: 1 } } });

    // A cache retention saved from Home reaches the agents on the default, not Claude.
    await c.call('Settings.Update', { changes: { 'query.cache.retention.default_days': 30 } });
    await temp.close();
    c = temp.open({ env, logger: createMemoryLogger() });
    survey = await c.call('Providers.Survey', {});
    expect(agent(survey, 'claude')).toMatchObject({ windowDays: 90, windowFrom: 'agent', cleanUpDays: 90 });
    expect(agent(survey, 'codex')).toMatchObject({ windowDays: 30, windowFrom: 'retention', cleanUpDays: 30 });
  });
});
