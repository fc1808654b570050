import { copyFileSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProviderId, Result } from '../../../core/api/index.js';
import type { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** Home's first run reads Providers.Survey: what it says about history older than the window must be what the import left out. */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const CODEX_2025 = 'rollout-2025-08-20T11-12-03-5a3f1c2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b.jsonl';
const OPENCLAW_2025 = 'openclaw-v1-screenshot.jsonl';
const DAY = 86_400_000;

const temp = coreHome('steward-first-run-');
const open = (): Core => temp.open({ logger: createMemoryLogger() });

async function restart(): Promise<Core> {
  await temp.close();
  return open();
}

/** Copies a fixture as a restore without `cp -p` does: the file's time becomes now, its lines keep their 2025 times. */
function copyFresh(from: string, to: string): void {
  mkdirSync(join(to, '..'), { recursive: true });
  copyFileSync(from, to);
  const now = new Date();
  utimesSync(to, now, now);
}

const olderMessages = (survey: Result<'Providers.Survey'>, provider: ProviderId) => survey.providers.find((p) => p.provider === provider)!.olderMessages;
const leftOut = (stats: Result<'Sweep.Tick'>['providers'], provider: ProviderId) => stats.find((p) => p.provider === provider)?.skipped?.outside_window ?? 0;

describe('the first run, for history copied without its file times', () => {
  it('says how many messages the import left out as older than the window, across a restart, until everything is imported', async () => {
    const { home } = temp;
    const codex = join(home.dir, 'roots', 'codex');
    const openclaw = join(home.dir, 'roots', 'openclaw');
    const claude = join(home.dir, 'roots', 'claude');
    copyFresh(join(FIXTURES, 'codex', CODEX_2025), join(codex, 'sessions', '2025', '08', '20', CODEX_2025));
    copyFresh(join(FIXTURES, 'attack', OPENCLAW_2025), join(openclaw, 'agents', 'main', 'sessions', OPENCLAW_2025));
    // A Claude conversation of 100 days ago: inside the default year, outside a 30-day import on request.
    writeJsonl(join(claude, 'projects', 'p', 'spring.jsonl'), [
      claudeLine({ sessionId: 'spring', ts: new Date(Date.now() - 100 * DAY) }),
      claudeLine({ sessionId: 'spring', ts: new Date(Date.now() - 100 * DAY), type: 'assistant' }),
    ]);
    Object.assign(home.env, { STEWARD_CODEX_ROOTS: codex, STEWARD_OPENCLAW_ROOTS: openclaw, STEWARD_CLAUDE_ROOTS: claude });

    let c = open();
    const first = (await c.call('Sweep.Tick', {})).providers;
    const codexOut = leftOut(first, 'codex');
    const openclawOut = leftOut(first, 'openclaw');
    expect(codexOut).toBeGreaterThan(0);
    expect(openclawOut).toBeGreaterThan(0);
    expect(leftOut(first, 'claude')).toBe(0);

    // Every file was changed today: none is older than the window by its time, yet their messages are.
    let survey = await c.call('Providers.Survey', {});
    for (const p of survey.providers) expect(p.older.files).toBe(0);
    expect(olderMessages(survey, 'codex')).toBe(codexOut);
    expect(olderMessages(survey, 'openclaw')).toBe(openclawOut);
    expect(olderMessages(survey, 'claude')).toBe(0);

    // The next start reads nothing (the checkpoints answer), and still knows what was left out.
    c = await restart();
    expect(leftOut((await c.call('Sweep.Tick', {})).providers, 'codex')).toBe(0);
    survey = await c.call('Providers.Survey', {});
    expect(olderMessages(survey, 'codex')).toBe(codexOut);
    expect(olderMessages(survey, 'openclaw')).toBe(openclawOut);

    // An import of the last 30 days leaves out the Claude conversation the year holds: not older history.
    const narrow = (await c.call('Backfill.Run', { provider: 'all', days: 30 })).providers;
    expect(leftOut(narrow, 'claude')).toBe(2);
    survey = await c.call('Providers.Survey', {});
    expect(olderMessages(survey, 'claude')).toBe(0);
    expect(olderMessages(survey, 'codex')).toBe(codexOut);

    // "Import everything" (Home's, or Import history → Everything) brings them in: nothing older is left.
    const before = (await c.call('Cache.Stats', {})).messages;
    await c.call('Backfill.Run', { provider: 'all', all: true });
    expect((await c.call('Cache.Stats', {})).messages).toBeGreaterThan(before);
    survey = await c.call('Providers.Survey', {});
    for (const p of survey.providers) expect(p.olderMessages).toBe(0);
    c = await restart();
    await c.call('Sweep.Tick', {});
    survey = await c.call('Providers.Survey', {});
    for (const p of survey.providers) expect(p.olderMessages).toBe(0);
  });
});
