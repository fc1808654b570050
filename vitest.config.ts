import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/*
 * Vitest's default for a run is one worker less than the cores: on CI's two cores that is one, and the
 * unit tier then ran its files one after another (9 min, half of it importing modules). Its files spend
 * much of their time in child processes, files and SQLite, so one worker per core keeps both cores busy
 * (5.5 min). The end-to-end tier stays one file at a time: each runs Steward and a Chromium.
 */
const UNIT_WORKERS = Math.max(2, availableParallelism());

/*
 * Tests that measure time (how long the event loop was held, how one read's time compares with
 * another's, where a kill lands in an import) with a bound a busy core breaks. They run in the `timed`
 * project: one file at a time, after the parallel files are done, so no other test shares their cores.
 */
const TIMED = [
  'test/integration/capture/crash-injection.test.ts',
  'test/integration/capture/loop-holds.test.ts',
  'test/integration/history/export-pieces.test.ts',
  'test/integration/history/forget-project-holds.test.ts',
  'test/integration/history/forget-scrub.test.ts',
  'test/unit/history/parts-pages.test.ts',
  'test/unit/secrets/attack-followups-3.test.ts',
  'test/unit/secrets/attack-followups-7.test.ts',
  'test/unit/secrets/attack-followups-8.test.ts',
  'test/unit/secrets/attack-s49.test.ts',
  'test/unit/secrets/backtracking.test.ts',
  'test/unit/secrets/gaps-s49.test.ts',
  'test/unit/secrets/gaps-after-s49.test.ts',
  'test/unit/secrets/many-short-texts.test.ts',
  'test/unit/capture/cut-result-cost.test.ts',
  'test/integration/sweeper/projects-list-holds.test.ts',
  'test/unit/sweeper/pauses.test.ts',
  'test/unit/sweeper/state.test.ts',
  'test/unit/sweeper/writer.test.ts',
];

/*
 * The unit tier shares one module registry per worker (isolate: false): most of its time went on each
 * file importing core/ afresh (5.2 min → 1.6 min here). A file that swaps a module with vi.mock (or
 * empties the registry with vi.resetModules) cannot share it: its mock would reach the files after it and
 * miss modules loaded before it. Those files are found here by their vi.mock and run with the timed
 * files, each in a fresh process.
 */
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const REPLACE_MODULES = ['test/unit', 'test/integration'].flatMap((dir) =>
  readdirSync(ROOT + dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name.replaceAll('\\', '/')}`)
    .filter((file) => /\bvi\.(mock|doMock|resetModules)\(/.test(textOf(ROOT + file))),
);

/** A file's text, or nothing when it went between listing and reading (another run may remove its own). */
function textOf(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: [...TIMED, ...REPLACE_MODULES],
          environment: 'node',
          isolate: false,
          maxWorkers: UNIT_WORKERS,
          // As core/store/binding sets it, before any test's own `new Database` loads the SQLite addon in a shared worker.
          env: { SQLITE_USE_URI: '1' },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'timed',
          include: [...TIMED, ...REPLACE_MODULES],
          environment: 'node',
          env: { SQLITE_USE_URI: '1' },
          maxWorkers: 1,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // `npm run test:fault`: the crash-injection test with 50 kills instead of the unit tier's 5.
        test: {
          name: 'fault',
          include: ['test/integration/capture/crash-injection.test.ts'],
          environment: 'node',
          env: { STEWARD_FAULT_ROUNDS: '50', SQLITE_USE_URI: '1' },
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // One process for the files one after another: each fresh one cost ~1.5 s to start and import.
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
