import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppStatus } from '../../../core/api/index.js';
import { Capture } from '../../../core/capture/index.js';
import { type ProviderFailure } from '../../../core/capture/queue.js';
import { formatSweepResult } from '../../../core/cli/commands/sweep.js';
import { parseConfig } from '../../../core/config/index.js';
import { GatewayReader, openGateway } from '../../../core/gateway/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { coreHome } from '../../support/core.js';
import { claudeSession } from '../../support/transcripts.js';
import { vanishing } from './harness.js';

/** Faults that used to hide: each failure is counted by its code, logged with it, and shown in the status. */
const owned = coreHome('steward-failures-');

function openWithSessions(n: number) {
  const { home } = owned;
  const root = join(home.dir, 'roots', 'claude');
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < n; i += 1) claudeSession(root, `sess-${i}`, 2, { cwd: '/work/orchard' });
  const logger = createMemoryLogger();
  const core = owned.open({ env: { STEWARD_CLAUDE_ROOTS: root }, logger });
  return { core, logger, root };
}

describe('a gateway that refuses writes', () => {
  it('counts each failed file by its SQLite code in the tick result, the log and app.status', async () => {
    const { core, logger, root } = openWithSessions(3);
    const statuses: AppStatus[] = [];
    core.events.subscribe((name, payload) => name === 'app.status' && statuses.push(payload as AppStatus));
    // Every write now fails with SQLITE_READONLY, as with a gateway.db the owner may not write.
    core.gateway.pragma('query_only = ON');

    const { providers } = await core.call('Sweep.Tick', {});
    const claude = providers.find((p) => p.provider === 'claude')!;
    expect(claude).toMatchObject({ discovered: 3, read: 0, failed: 3, partsWritten: 0, errors: [{ code: 'SQLITE_READONLY', count: 3 }] });
    expect(providers.find((p) => p.provider === 'openclaw')).toMatchObject({ failed: 0, errors: [] });

    const log = logger.lines.join('\n');
    expect(log).toMatch(/transcript scan had failures .*provider="claude".*errors="SQLITE_READONLY:3"/);
    expect(log).toMatch(/telemetry record failed .*code="SQLITE_READONLY"/);
    expect(log).not.toContain(root);
    expect(log).not.toContain('line 0');

    expect(core.status.state).toBe('error');
    expect(core.status.message).toBe('3 of 3 Claude transcript files could not be imported (SQLITE_READONLY)');
    expect(statuses.at(-1)).toEqual(core.status);
  });

  it('clears the error status once a tick goes through again', async () => {
    const { core } = openWithSessions(1);
    core.gateway.pragma('query_only = ON');
    await core.call('Sweep.Tick', {});
    expect(core.status.state).toBe('error');
    core.gateway.pragma('query_only = OFF');
    const { providers } = await core.call('Sweep.Tick', {});
    expect(providers[0]).toMatchObject({ read: 1, failed: 0, errors: [] });
    expect(core.status).toMatchObject({ state: 'idle', message: 'Up to date', errors: [] });
  });

  it('prints the codes beside the failed count in the CLI line', () => {
    const line = formatSweepResult({
      providers: [{ provider: 'claude', discovered: 3, read: 0, unchanged: 0, failed: 3, partsWritten: 0, durationMs: 5, failedLines: 0, errors: [{ code: 'SQLITE_READONLY', count: 3 }] }],
    });
    expect(line).toBe('claude: 3 transcript files, 3 failed (SQLITE_READONLY ×3); nothing new (5 ms)\n');
  });
});

describe('a file deleted between listing and reading', () => {
  it('is counted vanished, not failed, and is no error in the status', async () => {
    const { home } = owned;
    const root = join(home.dir, 'roots', 'claude');
    const files = ['a', 'b', 'c'].map((id) => claudeSession(root, `sess-${id}`, 2));
    const db = openGateway(home.dir);
    const busy: Array<readonly ProviderFailure[]> = [];
    const logger = createMemoryLogger();
    const driver = new Capture({
      db,
      projects: new ProjectStore(db, new GatewayReader(db)),
      config: parseConfig({}),
      env: home.env,
      logger,
      record: () => {},
      providers: [vanishing(new ClaudeProvider({ roots: [root], desktopRoots: [] }), files[1]!)],
      onBusy: (b, failed) => void (b || busy.push(failed)),
    });
    try {
      const [stats] = await driver.tick();
      expect(stats).toMatchObject({ discovered: 3, read: 2, vanished: 1, failed: 0, partsWritten: 4, errors: [] });
      expect(busy).toEqual([[]]);
      expect(logger.lines.join('\n')).toMatch(/info transcript scan .*vanished=1 failed=0/);
      expect(formatSweepResult({ providers: [stats!] })).toMatch(/^claude: 3 transcript files, 2 read, 1 gone before it was read; 4 new messages \(\d+ ms\)$/m);
    } finally {
      await driver.stop();
      db.close();
    }
  });
});
