import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeSession, openclawLines, writeJsonl } from '../../support/transcripts.js';

// Right after Home's "Import everything", Home said "Last check: 2 minutes ago" (the schedule's last
// tick) while `steward info` said the folders were checked just now (any import, one agent's too).
// The last check is one moment, core's: the last run that looked at every enabled agent's folders.

const temp = coreHome('steward-last-check-');

type Status = { lastTickAt: number | null; lastCheckAt: number | null };

/** A home with a Claude Code and an OpenClaw folder, each holding a conversation. */
function twoAgents(): NodeJS.ProcessEnv {
  const { home } = temp;
  const claudeRoot = join(home.dir, 'roots', 'claude');
  const openclawRoot = join(home.dir, 'roots', 'openclaw');
  for (let i = 0; i < 3; i += 1) claudeSession(claudeRoot, `last-check-${i}`, 2);
  writeJsonl(join(openclawRoot, 'agents', 'main', 'sessions', 'oc-last-check.jsonl'), openclawLines('oc-last-check', [{ id: 'e1', role: 'user', text: 'hello' }]));
  return { ...home.env, STEWARD_CLAUDE_ROOTS: claudeRoot, STEWARD_OPENCLAW_ROOTS: openclawRoot };
}

const open = (env: NodeJS.ProcessEnv): Core => temp.open({ env });

const status = async (c: Core) => (await c.call('Sweep.Status', {})) as Status;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the last check: when Steward last looked at every enabled agent’s folders', () => {
  it('a tick and an import of every agent are checks; an import of one agent is not', async () => {
    const c = open(twoAgents());
    expect(await status(c)).toMatchObject({ lastCheckAt: null });

    const beforeTick = Date.now();
    await c.call('Sweep.Tick', {});
    const afterTick = await status(c);
    expect(afterTick.lastCheckAt).toBeGreaterThanOrEqual(beforeTick);
    expect(afterTick.lastCheckAt).toBe(afterTick.lastTickAt);

    await tick();
    await c.call('Backfill.Run', { provider: 'claude', all: true });
    expect((await status(c)).lastCheckAt).toBe(afterTick.lastCheckAt);

    // Home's "Import everything".
    await tick();
    const beforeImport = Date.now();
    await c.call('Backfill.Run', { provider: 'all', all: true });
    const afterImport = await status(c);
    expect(afterImport.lastCheckAt).toBeGreaterThanOrEqual(beforeImport);
    // The schedule's own tick stays where it was: it is not what Home calls the last check.
    expect(afterImport.lastTickAt).toBe(afterTick.lastTickAt);
    await tick();
    await c.call('Backfill.Run', {});
    expect((await status(c)).lastCheckAt).toBeGreaterThan(afterImport.lastCheckAt!);
  });

  it('an import of every agent cancelled before its end is no check', async () => {
    const c = open(twoAgents());
    const run = c.capture.backfill({ provider: 'all', all: true });
    expect(c.capture.cancelBackfills()).toBeGreaterThan(0);
    expect((await run).some((p) => p.cancelled)).toBe(true);
    expect((await status(c)).lastCheckAt).toBeNull();
  });

  it('outlives a restart, and `steward info` with no owner running says the same moment', async () => {
    const env = twoAgents();
    const c = open(env);
    await c.call('Backfill.Run', { provider: 'all', all: true });
    const checked = (await status(c)).lastCheckAt!;
    await tick();
    // One agent's import after it moves nothing, before or after a restart.
    await c.call('Backfill.Run', { provider: 'openclaw', all: true });
    await temp.close();

    const info = await runIn(env, 'info', '--json');
    expect(info.code).toBe(0);
    expect(JSON.parse(info.out)).toMatchObject({ running: false, stored: { lastCheckedAt: checked } });
    expect((await status(open(env))).lastCheckAt).toBe(checked);
  });
});
