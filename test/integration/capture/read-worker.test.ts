import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as ConfigModule from '../../../core/config/index.js';
import type * as GatewayModule from '../../../core/gateway/index.js';
import type * as LogModule from '../../../core/log/index.js';
import type * as CaptureModule from '../../../core/capture/index.js';
import type { Capture } from '../../../core/capture/index.js';
import type * as ProjectsModule from '../../../core/projects/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';
import { appendJsonl, claudeLine, claudeSession } from '../../support/transcripts.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { vanishing } from './harness.js';

interface Core {
  capture: typeof CaptureModule;
  projects: typeof ProjectsModule;
  gateway: typeof GatewayModule;
  config: typeof ConfigModule;
  log: typeof LogModule;
}

// The worker is loaded by URL, so it needs compiled files: our own core/, transpiled for this test.
let build: ReturnType<typeof transpileCore>;
let core: Core;
let home: TempHome;
const open: Array<{ driver: Capture; db: Db }> = [];

beforeAll(async () => {
  build = transpileCore('steward-read-worker');
  const load = (path: string) => import(pathToFileURL(join(build.dir, 'core', path)).href);
  const [capture, projects, gateway, config, log] = await Promise.all([load('capture/index.js'), load('projects/index.js'), load('gateway/index.js'), load('config/index.js'), load('log/index.js')]);
  core = { capture, projects, gateway, config, log } as Core;
});
afterAll(() => build.cleanup());
afterEach(async () => {
  for (const { driver, db } of open.splice(0)) {
    await driver.stop();
    db.close();
  }
  home.cleanup();
});

function driver(name: string, claudeRoot: string, readWorker: boolean, victim?: string): { driver: Capture; db: Db } {
  const dir = join(home.dir, name);
  mkdirSync(dir);
  const db = core.gateway.openGateway(dir);
  const env = { ...home.env, STEWARD_CLAUDE_ROOTS: claudeRoot, STEWARD_CLAUDE_DESKTOP_ROOTS: '', STEWARD_OPENCLAW_ROOTS: '' };
  const providers = victim ? { providers: [vanishing(new ClaudeProvider({ roots: [claudeRoot], desktopRoots: [] }), victim)] } : {};
  const projects = new core.projects.ProjectStore(db, new core.gateway.GatewayReader(db));
  const opened = { driver: new core.capture.Capture({ db, config: core.config.parseConfig({}), env, logger: core.log.createMemoryLogger(), projects, record: () => {}, readWorker, ...providers }), db };
  open.push(opened);
  return opened;
}

const rows = (db: Db) => ({
  parts: db.prepare('SELECT part_id, session_id, role, kind, ts, text, meta FROM parts ORDER BY part_id').all(),
  sessions: db.prepare('SELECT session_id, project_key, cwd, first_ts, last_ts FROM sessions ORDER BY session_id').all(),
});

describe('the read worker', () => {
  it('reads each file once, read-ahead included, and writes exactly what an in-thread read writes', async () => {
    home = tempHome('steward-read-worker-');
    const claudeRoot = join(home.dir, 'claude');
    // Several files, one of them long enough for many batches, so reads overlap file boundaries.
    const files = [claudeSession(claudeRoot, 'sess-long', 700), ...['a', 'b', 'c', 'd', 'e'].map((id) => claudeSession(claudeRoot, `sess-${id}`, 3 + id.charCodeAt(0) - 97))];
    const viaWorker = driver('worker', claudeRoot, true);
    const inThread = driver('thread', claudeRoot, false);

    const [workerStats] = await viaWorker.driver.tick();
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(workerStats).toMatchObject({ read: 6, failed: 0, partsWritten: 700 + 3 + 4 + 5 + 6 + 7 });
    expect(viaWorker.driver.reader.readsStarted).toBe(6);

    await inThread.driver.tick();
    expect(inThread.driver.reader.usesWorker).toBe(false);
    expect(rows(viaWorker.db)).toEqual(rows(inThread.db));

    // An unchanged tick asks the worker for nothing; one appended line asks for exactly that file.
    expect((await viaWorker.driver.tick())[0]).toMatchObject({ read: 0, unchanged: 6 });
    expect(viaWorker.driver.reader.readsStarted).toBe(6);
    appendJsonl(files[3]!, [claudeLine({ sessionId: 'sess-c', text: 'one more' })]);
    expect((await viaWorker.driver.tick())[0]).toMatchObject({ read: 1, unchanged: 5, partsWritten: 1 });
    expect(viaWorker.driver.reader.readsStarted).toBe(7);
  });

  it('counts a file deleted between listing and reading as vanished, not failed, read-ahead included', async () => {
    home = tempHome('steward-read-worker-');
    const claudeRoot = join(home.dir, 'claude');
    const files = ['a', 'b', 'c'].map((id) => claudeSession(claudeRoot, `sess-${id}`, 3));
    // The middle file is the one the worker reads ahead while the first is written.
    const viaWorker = driver('worker', claudeRoot, true, files[1]);
    const [stats] = await viaWorker.driver.tick();
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(stats).toMatchObject({ discovered: 3, read: 2, vanished: 1, failed: 0, partsWritten: 6, errors: [] });
  });
});
