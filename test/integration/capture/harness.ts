import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../../core/config/index.js';
import { type ConfigInput } from '../../../core/config/schema.js';
import { GatewayReader, openGateway, TelemetryLog } from '../../../core/gateway/index.js';
import { createMemoryLogger, type Logger } from '../../../core/log/index.js';
import { Capture } from '../../../core/capture/index.js';
import type { CaptureOptions } from '../../../core/capture/driver.js';
import { ProjectStore } from '../../../core/projects/index.js';
import type { Db } from '../../../core/store/index.js';
import type { TranscriptProvider } from '../../../core/transcripts/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

export interface CaptureHarness {
  home: TempHome;
  claudeRoot: string;
  desktopRoot: string;
  openclawRoot: string;
  codexRoot: string;
  geminiRoot: string;
  db: Db;
  driver: Capture;
  projects: ProjectStore;
  telemetry: TelemetryLog;
  /** What every Capture this harness made logged, restarts included. */
  logger: Logger & { lines: string[] };
  count(sql: string, ...args: unknown[]): number;
  /** A new owner process on the same gateway.db: the old Capture stops, a fresh one (empty fingerprint map) takes over. */
  restart(config?: ConfigInput): Promise<Capture>;
  close(): Promise<void>;
}

/** A real gateway.db in a temp STEWARD_HOME and capture over temp roots (never the real home); `listeners` as the Core passes them. */
export function captureHarness(config: ConfigInput = {}, listeners: Pick<CaptureOptions, 'onTick'> = {}): CaptureHarness {
  const home = tempHome('steward-capture-');
  const claudeRoot = join(home.dir, 'roots', 'claude');
  const desktopRoot = join(home.dir, 'roots', 'claude-desktop');
  const openclawRoot = join(home.dir, 'roots', 'openclaw');
  const codexRoot = join(home.dir, 'roots', 'codex');
  const geminiRoot = join(home.dir, 'roots', 'gemini');
  for (const dir of [claudeRoot, desktopRoot, openclawRoot, codexRoot, geminiRoot]) mkdirSync(dir, { recursive: true });
  const env = {
    ...home.env,
    STEWARD_CLAUDE_ROOTS: claudeRoot,
    STEWARD_CLAUDE_DESKTOP_ROOTS: desktopRoot,
    STEWARD_OPENCLAW_ROOTS: openclawRoot,
    STEWARD_CODEX_ROOTS: codexRoot,
    STEWARD_GEMINI_ROOTS: geminiRoot,
  };
  const db = openGateway(home.dir);
  const telemetry = new TelemetryLog(db);
  const projects = new ProjectStore(db, new GatewayReader(db));
  const logger = createMemoryLogger();
  const create = (input: ConfigInput) => new Capture({ db, config: parseConfig(input), env, logger, projects, record: (kind, data) => telemetry.record(kind, data), ...listeners });
  const harness: CaptureHarness = {
    home,
    claudeRoot,
    desktopRoot,
    openclawRoot,
    codexRoot,
    geminiRoot,
    db,
    driver: create(config),
    projects,
    telemetry,
    logger,
    count: (sql, ...args) => db.prepare(sql).pluck().get(...args) as number,
    async restart(next = config) {
      await harness.driver.stop();
      harness.driver = create(next);
      return harness.driver;
    },
    async close() {
      await harness.driver.stop();
      db.close();
      home.cleanup();
    },
  };
  return harness;
}

/** A time `minutes` into the last hour: inside any retention window, in the order a test writes it. */
export const inLastHour = (minutes: number) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000);

/** One tick's counts for one provider. */
export const tickOf = async (c: CaptureHarness, provider: string) => byProvider(await c.driver.tick(), provider);

export function byProvider<T extends { provider: string }>(rows: T[], provider: string): T {
  const row = rows.find((r) => r.provider === provider);
  if (!row) throw new Error(`no stats for ${provider}`);
  return row;
}

/** `provider`, except that `victim` is deleted right after each listing: gone between listing and reading. */
export function vanishing(provider: TranscriptProvider, victim: string): TranscriptProvider {
  return {
    id: provider.id,
    parserVersion: provider.parserVersion,
    read: (file, options, stats) => provider.read(file, options, stats),
    async discover(signal) {
      const found = await provider.discover(signal);
      rmSync(victim, { force: true });
      return found;
    },
  };
}
