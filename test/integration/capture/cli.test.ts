import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { startOwner } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, claudeSession, desktopSession, openclawLines, writeJsonl } from '../../support/transcripts.js';
import { captureIo as io } from '../../support/cli.js';
import { PROVIDER_IDS, type ProviderId } from '../../../core/api/index.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

function withRoots(): { home: TempHome; claude: string; openclaw: string } {
  home = tempHome('steward-cli-capture-');
  const claude = join(home.dir, 'roots', 'claude');
  const openclaw = join(home.dir, 'roots', 'openclaw');
  mkdirSync(claude, { recursive: true });
  mkdirSync(openclaw, { recursive: true });
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  home.env.STEWARD_OPENCLAW_ROOTS = openclaw;
  return { home, claude, openclaw };
}

describe('steward backfill / sweep / projects', () => {
  it('prints the Backfill.Run result as JSON, in-process under the lock', async () => {
    const { home, claude, openclaw } = withRoots();
    claudeSession(claude, 'cli-1', 3, { cwd: '/work/cli-project' });
    writeJsonl(join(openclaw, 'agents', 'main', 'sessions', 'x.jsonl'), openclawLines('x', [{ id: 'dddd0001' }]));
    const c = io(home.env);
    expect(await runCli(['backfill', '--all', '--json'], c)).toBe(0);
    const result = JSON.parse(c.out) as { providers: Array<{ provider: string; read: number; partsWritten: number }> };
    // Every provider of the registry, in its order; those with no roots read nothing.
    const read: Partial<Record<ProviderId, [number, number]>> = { claude: [1, 3], openclaw: [1, 1] };
    expect(result.providers.map((p) => [p.provider, p.read, p.partsWritten])).toEqual(PROVIDER_IDS.map((id) => [id, ...(read[id] ?? [0, 0])]));
    const p = io(home.env);
    expect(await runCli(['projects', '--json'], p)).toBe(0);
    expect((JSON.parse(p.out) as { projects: Array<{ name: string }> }).projects.map((x) => x.name).sort()).toEqual(['cli-project', 'openclaw-workspace']);
    const s = io(home.env);
    expect(await runCli(['sweep'], s)).toBe(0);
    // The backfill left checkpoints: the sweep after it reads nothing.
    expect(s.out).toMatch(/^claude: 1 transcript file, already up to date \(\d+ ms\)$/m);
  });

  it('rejects --days with --all, a bad provider and a bad number as usage errors (exit 2)', async () => {
    const { home } = withRoots();
    const both = io(home.env);
    expect(await runCli(['backfill', '--days', '3', '--all'], both)).toBe(2);
    expect(both.err).toContain('--days and --all cannot be combined');
    const json = io(home.env);
    expect(await runCli(['backfill', '--days', '3', '--all', '--json'], json)).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'invalid_params' } });
    expect(await runCli(['backfill', '--provider', 'cursor'], io(home.env))).toBe(2);
    expect(await runCli(['backfill', '--days', 'soon'], io(home.env))).toBe(2);
    expect(await runCli(['backfill', '--cancel', '--all'], io(home.env))).toBe(2);
  });

  it('cancels through Backfill.Cancel and says when nothing was running', async () => {
    const { home } = withRoots();
    const text = io(home.env);
    expect(await runCli(['backfill', '--cancel'], text)).toBe(0);
    expect(text.out).toBe('No backfill was running.\n');
    const json = io(home.env);
    expect(await runCli(['backfill', '--cancel', '--json'], json)).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ cancelled: 0 });
  });

  it('lists a Cowork session under the folder the user selected, and sessions by their titles', async () => {
    const { home, claude } = withRoots();
    const desktop = join(home.dir, 'roots', 'desktop');
    home.env.STEWARD_CLAUDE_DESKTOP_ROOTS = desktop;
    desktopSession(desktop, 'cw-cli', 2, 'Sort the receipts', ['/Users/ana/Documents/receipts']);
    const file = claudeSession(claude, 'titled', 2, { cwd: '/work/titled-project' });
    appendJsonl(file, [{ type: 'custom-title', customTitle: 'Fix the\nflaky test', sessionId: 'titled' }]);
    const sweep = io(home.env);
    expect(await runCli(['sweep'], sweep)).toBe(0);
    expect(sweep.out).toMatch(/^claude: 2 transcript files, 2 read; .*; 1 line held nothing to import \(1 bookkeeping\)/m);
    const listed = io(home.env);
    expect(await runCli(['projects'], listed)).toBe(0);
    expect(listed.out).toMatch(/^p_[0-9a-f]{16} {2}receipts {2}1 conversation .*\n {4}latest: Sort the receipts\n/m);
    expect(listed.out).toMatch(/^p_[0-9a-f]{16} {2}titled-project {2}1 conversation .*\n {4}latest: Fix the flaky test\n/m);
    expect(listed.out).not.toContain('/sessions/');
  });

  it('goes through the running owner when there is one', async () => {
    const { home, claude } = withRoots();
    claudeSession(claude, 'owned', 2);
    const owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, strictPort: true, schedule: false });
    try {
      const c = io(home.env);
      expect(await runCli(['backfill', '--provider', 'claude', '--days', '30', '--json'], c)).toBe(0);
      expect(JSON.parse(c.out)).toMatchObject({ providers: [{ provider: 'claude', read: 1, partsWritten: 2 }] });
      expect(owner.core.gateway.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(2);
    } finally {
      await owner.stop();
    }
  });
});

describe('steward cache prune', () => {
  it('a manual prune applies the effective window even when it is the default; --dry-run counts without deleting', async () => {
    const { home, claude } = withRoots();
    const old = new Date(Date.now() - 400 * 86_400_000);
    writeJsonl(join(claude, 'projects', 'p', 'old.jsonl'), [claudeLine({ sessionId: 'old', ts: old }), claudeLine({ sessionId: 'old', type: 'assistant', ts: old })]);
    claudeSession(claude, 'recent', 2);
    expect(await runCli(['backfill', '--all', '--json'], io(home.env))).toBe(0);

    const dry = io(home.env);
    expect(await runCli(['cache', 'prune', '--dry-run', '--json'], dry)).toBe(0);
    const report = JSON.parse(dry.out) as { dryRun: boolean; removedParts: number; removedSessions: number; cutoffs: Array<{ provider: string; cutoffMs: number | null }> };
    expect(report).toMatchObject({ dryRun: true, removedParts: 2, removedSessions: 1 });
    expect(report.cutoffs.map((c) => c.provider)).toEqual([...PROVIDER_IDS]);
    expect(report.cutoffs.every((c) => c.cutoffMs !== null && Math.abs(Date.now() - 365 * 86_400_000 - c.cutoffMs) < 600_000)).toBe(true);

    const dryText = io(home.env);
    expect(await runCli(['cache', 'prune', '--dry-run'], dryText)).toBe(0);
    // Each provider's cutoff as a person reads a time; one with nothing older says so.
    expect(dryText.out).toMatch(/^claude: would remove 2 messages older than \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2}), and with them 1 whole conversation$/m);
    expect(dryText.out).toMatch(/^codex: nothing older than \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2})$/m);
    // A dry run and a pass both count messages and whole conversations.
    expect(dryText.out).toMatch(/^Would remove 2 messages older than the retention window, and with them 1 conversation that would go whole \(their subagents with them\)\. Nothing was removed: this was a dry run \(\d+ ms\)\.$/m);

    const text = io(home.env);
    expect(await runCli(['cache', 'prune', '--yes'], text)).toBe(0);
    expect(text.out).toMatch(/^claude: removed 2 messages older than \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2}), and with them 1 whole conversation$/m);
    expect(text.out).toMatch(/^Removed 2 messages older than the retention window, and with them 1 conversation that went whole \(their subagents with them\), in \d+ ms\.$/m);
    expect(text.out).not.toContain(claude);

    const again = io(home.env);
    expect(await runCli(['cache', 'prune', '--json'], again)).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ dryRun: false, removedParts: 0, removedSessions: 0, complete: true });
    expect(await runCli(['cache', 'prune', '--days', '3'], io(home.env))).toBe(2);
  });
});

describe('steward sweep: the retention note', () => {
  it("names each agent's own window when they differ, never a default that is not theirs", async () => {
    const { home, claude, openclaw } = withRoots();
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { claude: { backfill: { window_days: 90 } } } }));
    const aged = (file: string, days: number) => utimesSync(file, new Date(Date.now() - days * 86_400_000), new Date(Date.now() - days * 86_400_000));
    aged(claudeSession(claude, 'spring', 2, { ts: new Date(Date.now() - 200 * 86_400_000) }), 200);
    claudeSession(claude, 'today', 2);
    const old = join(openclaw, 'agents', 'main', 'sessions', 'old.jsonl');
    writeJsonl(old, openclawLines('old', [{ id: 'dddd0001' }]));
    aged(old, 400);

    const sweep = io(home.env);
    expect(await runCli(['sweep'], sweep)).toBe(0);
    expect(sweep.out).toMatch(/^claude: 2 transcript files, 1 read, 1 older than the retention window, not read;/m);
    expect(sweep.out).toContain('The retention window is the last 90 days for Claude and the last 365 days for OpenClaw (');
    expect(sweep.out).not.toMatch(/365 days unless/);
  });
});
