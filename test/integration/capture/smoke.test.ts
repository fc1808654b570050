import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core, EventName } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import type { TempHome } from '../../support/home.js';
import { claudeSession, desktopSession } from '../../support/transcripts.js';
import { PROVIDER_IDS } from '../../../core/api/index.js';

const temp = coreHome('steward-smoke-');

function open(): { core: Core; home: TempHome; desktop: string; claude: string } {
  const home = temp.home;
  const desktop = join(home.dir, 'roots', 'desktop');
  const claude = join(home.dir, 'roots', 'claude');
  mkdirSync(desktop, { recursive: true });
  mkdirSync(claude, { recursive: true });
  home.env.STEWARD_CLAUDE_DESKTOP_ROOTS = desktop;
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  return { core: temp.open(), home, desktop, claude };
}

describe('Claude smoke through the Core', () => {
  it('first tick writes Desktop rows; second tick scans zero items, writes zero rows; telemetry reports the skip', async () => {
    const { core, desktop } = open();
    desktopSession(desktop, 'desk-1', 4, 'Refactor the uploader');
    const events: Array<{ name: EventName; payload: unknown }> = [];
    core.events.subscribe((name, payload) => events.push({ name, payload }));

    const first = await core.call('Sweep.Tick', {});
    expect(first.providers.map((p) => p.provider)).toEqual([...PROVIDER_IDS]);
    expect(first.providers[0]).toMatchObject({ discovered: 1, read: 1, unchanged: 0, partsWritten: 4 });
    const row = core.gateway.prepare("SELECT source, title, cwd FROM sessions WHERE session_id = 'desk-1'").get();
    expect(row).toEqual({ source: 'desktop', title: 'Refactor the uploader', cwd: '/sessions/desk-1-vm/outputs' });
    // Its sidecar names no folder: the one Claude Desktop project, not the VM path.
    expect((await core.call('Projects.List', {})).projects).toMatchObject([{ name: 'Claude Desktop', cwd: 'Claude Desktop', sessions: 1, latestSession: { sessionId: 'desk-1', name: 'Refactor the uploader' } }]);
    expect(core.gateway.prepare("SELECT COUNT(*) FROM parts WHERE session_id = 'outputs-must-not-be-read'").pluck().get()).toBe(0);

    const partsBefore = core.gateway.prepare('SELECT COUNT(*) FROM parts').pluck().get();
    const second = await core.call('Sweep.Tick', {});
    expect(second.providers[0]).toMatchObject({ discovered: 1, read: 0, unchanged: 1, partsWritten: 0 });
    expect(core.gateway.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(partsBefore);

    const recent = await core.call('Telemetry.Recent', { kind: 'sweep.tick' });
    expect(recent.entries).toHaveLength(2);
    const latest = recent.entries[0]!.data as { providers: Array<{ provider: string; read: number; unchanged: number; partsWritten: number }> };
    expect(latest.providers[0]).toMatchObject({ provider: 'claude', read: 0, unchanged: 1, partsWritten: 0 });
    expect(JSON.stringify(recent.entries)).not.toContain(desktop);

    const ticks = events.filter((e) => e.name === 'sweep.tick');
    expect(ticks).toHaveLength(2);
    // Progress refines the working message within a tick; the states still go working → idle once per tick.
    const statuses = events.filter((e) => e.name === 'app.status').map((e) => (e.payload as { state: string }).state);
    expect(statuses.filter((state, i) => state !== statuses[i - 1])).toEqual(['working', 'idle', 'working', 'idle']);
  });

  it('lists projects with session counts and answers Backfill.Run with the same shape', async () => {
    const { core, claude } = open();
    claudeSession(claude, 'proj-1', 2, { cwd: '/work/alpha' });
    claudeSession(claude, 'proj-2', 2, { cwd: '/work/alpha' });
    const backfill = await core.call('Backfill.Run', { provider: 'claude', all: true });
    expect(backfill.providers).toHaveLength(1);
    expect(backfill.providers[0]).toMatchObject({ provider: 'claude', read: 2, partsWritten: 4 });
    const { projects } = await core.call('Projects.List', {});
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ name: 'alpha', cwd: '/work/alpha', sessions: 2, repoBacked: false, repoId: null });
    expect(projects[0]!.projectKey).toMatch(/^p_[0-9a-f]{16}$/);
    // A manual backfill ignores the fingerprint map, and dedupe makes it write nothing new.
    const again = await core.call('Backfill.Run', {});
    expect(again.providers[0]).toMatchObject({ read: 2, partsWritten: 0 });
    await expect(core.call('Backfill.Run', { days: 3, all: true })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});
