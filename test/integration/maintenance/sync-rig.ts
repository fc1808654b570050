import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createMemoryLogger } from '../../../core/log/index.js';
import { Maintenance, syncStage } from '../../../core/maintenance/index.js';
import type { TransportOptions } from '../../../core/maintenance/forges/http.js';
import type { LaneSettings } from '../../../core/maintenance/lanes/context.js';
import { FakeForge, type Shape } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';

export const TOKEN = 'ghp_FakeForgeToken0123456789abcdefABCDEF';

export interface Rig {
  home: TempHome;
  forge: FakeForge;
  logger: ReturnType<typeof createMemoryLogger>;
  m: Maintenance;
  registrationId: string;
  repoId: string;
  cachePath: string;
  /** The immediate pass a person asks for (`steward service reconcile`). */
  reconcile(): ReturnType<Maintenance['reconcileNow']>;
  /** Moves Steward's clock (not the forge's) forward. */
  advance(ms: number): void;
  reopen(overrides?: RigOptions): Maintenance;
  read<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

export interface RigOptions {
  settings?: Partial<LaneSettings>;
  transport?: TransportOptions & { perPage?: number };
  policy?: Record<string, unknown>;
  token?: string | null;
  clock?: () => number;
}

const FAST: TransportOptions = { retries: 2, retryBaseMs: 5, inlineWaitMs: 0, timeoutMs: 10_000 };
export const SMALL: Partial<LaneSettings> = { windowPages: 3, headPages: 2, skewMs: 2_000, pendingPerPass: 50, verifyPerPass: 100, pullsPerWindow: 5, treeReadsPerWindow: 3 };

/** A real Maintenance with the real sync lanes, against a loopback fake forge, on a cache `add` created. */
export async function rig(shape: Shape, options: RigOptions = {}): Promise<Rig> {
  const home = tempHome('steward-sync-');
  let offset = 0;
  const clock = options.clock ?? (() => Date.now() + offset);
  const forge = new FakeForge({ shape, token: TOKEN });
  const apiBase = await forge.start();
  const logger = createMemoryLogger();
  const open = (o: RigOptions = options) => {
    const token = o.token === undefined ? TOKEN : o.token;
    return new Maintenance({
      home: home.dir,
      logger,
      clock: o.clock ?? clock,
      runners: {
        sync: syncStage({
          home: home.dir,
          token: (name) => (name.endsWith('_TOKEN') && token ? token : undefined),
          settings: { ...SMALL, ...o.settings },
          transport: { ...FAST, perPage: 10, ...o.transport },
          clock: o.clock ?? clock,
        }),
      },
    });
  };
  const m = open();
  const added = m.add({ repo: 'acme/widgets', forge: shape, baseUrl: apiBase, policy: (options.policy ?? {}) as never, idempotencyKey: 'rig' });
  const reg = m.store.current().registrations[0]!;
  return {
    home,
    forge,
    logger,
    m,
    registrationId: added.registrationId,
    repoId: reg.canonicalRepoId,
    cachePath: reg.cachePath,
    reconcile: () => m.reconcileNow(),
    advance: (ms) => void (offset += ms),
    reopen: (overrides = {}) => open({ ...options, ...overrides }),
    read<T>(sql: string, ...params: unknown[]): T[] {
      const db = new Database(reg.cachePath, { readonly: true });
      try {
        return db.prepare(sql).all(...params) as T[];
      } finally {
        db.close();
      }
    },
    close: async () => {
      await m.stop();
      await forge.stop();
      rmSync(home.dir, { recursive: true, force: true });
    },
  };
}

/** Reconciles until every tail is complete and every head proven fresh (each pass is bounded), up to a limit. */
export async function untilComplete(r: Pick<Rig, 'm'>, limit = 50): Promise<number> {
  for (let pass = 1; pass <= limit; pass += 1) {
    await r.m.reconcileNow();
    const status = r.m.list().registrations[0]!;
    const done = status.collections.every((c) => c.tail.state !== 'backfilling' && c.head.state === 'fresh');
    if (done && status.jobs[0]?.state === 'succeeded') return pass;
  }
  throw new Error('the backfill did not complete');
}

export interface Content {
  issues: Array<{ number: number; title: string; body: string; state: string }>;
  pulls: Array<{ number: number; title: string; body: string; state: string }>;
  'issue-comments': Array<{ id: string; number: number; body: string }>;
  'pr-comments': Array<{ id: string; number: number; body: string }>;
}

const byNumber = <T extends { number: number }>(a: T, b: T) => a.number - b.number;
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What the cache holds live (tombstoned rows apart), in the dataset's terms. */
export function cacheContent(r: Pick<Rig, 'read'>): Content {
  const items = (collection: string) =>
    r.read<{ number: number; title: string; body: string; state: string }>('SELECT number, title, body, state FROM items WHERE collection = ? AND tombstoned_at IS NULL', collection).sort(byNumber);
  const comments = (collection: string) =>
    r
      .read<{ id: string; number: number; body: string }>('SELECT external_id AS id, item_number AS number, body FROM comments WHERE collection = ? AND tombstoned_at IS NULL', collection)
      .sort(byId);
  return { issues: items('issues'), pulls: items('pulls'), 'issue-comments': comments('issue-comments'), 'pr-comments': comments('pr-comments') };
}

/** The forge's dataset in the same terms. */
export function datasetContent(forge: FakeForge): Content {
  const threads = [...forge.threads.values()];
  const item = (t: (typeof threads)[number]) => ({ number: t.number, title: t.title, body: t.body, state: t.merged ? 'merged' : t.state });
  const comments = [...forge.comments.values()];
  const onPull = (n: number) => forge.threads.get(n)?.kind === 'pull';
  const comment = (c: (typeof comments)[number]) => ({ id: String(c.id), number: c.number, body: c.body });
  return {
    issues: threads.filter((t) => t.kind === 'issue').map(item).sort(byNumber),
    pulls: threads.filter((t) => t.kind === 'pull').map(item).sort(byNumber),
    'issue-comments': comments.filter((c) => !onPull(c.number)).map(comment).sort(byId),
    'pr-comments': comments.filter((c) => onPull(c.number)).map(comment).sort(byId),
  };
}

/** A dataset of issues and pull requests (every `pullEvery`-th thread) with conversation and review comments. */
export function seed(forge: FakeForge, threads: number, pullEvery = 4, commentsEach = 2): void {
  for (let i = 1; i <= threads; i += 1) {
    const t = forge.add(i % pullEvery === 0 ? 'pull' : 'issue', { labels: i % 3 === 0 ? ['bug'] : [] });
    for (let c = 0; c < commentsEach; c += 1) forge.comment(t.number);
    if (t.kind === 'pull') forge.comment(t.number, { kind: 'review', path: 'src/a.ts', line: 10 + (i % 7) });
  }
}
