import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  bindingOf,
  createForge,
  ForgeError,
  localGitTree,
  RateLimited,
  worktreeTree,
  type Forge,
  type ForgeBinding,
  type ForgeKind,
  type Stream,
  type TransportOptions,
} from '../forges/index.js';
import { changedPullComments, drainPendingComments, pullCommentsHaveWork, pullCommentsWindow } from './children.js';
import { DEFAULT_LANE_SETTINGS, emptyTally, frontierName, type LaneContext, type LaneSettings, type Tally } from './context.js';
import { headStream } from './head.js';
import { CacheWriter, type Frontier } from './store.js';
import { rewalkAt, tailWindow, tailWork, verifyAbsences } from './tail.js';
import { headTree, treeHasWork, treeWindow, type TreeTarget } from './walker.js';

export type SyncPolicy = { sync: 'off' | 'head' | 'head-and-backfill'; collections: readonly string[] };

export interface DocumentSource {
  sourceId: string;
  kind: 'git' | 'worktree';
  ref: string;
  /** Private: the local authority's path, never shown. */
  root: string | null;
}

export interface SyncJob {
  repoId: string;
  cacheUuid: string;
  lane: 'head' | 'tail';
  policy: SyncPolicy;
  /** The cache's own forge record, or null for a 17 cache (then derived from the repo id). */
  forge: { forge: ForgeKind; apiBase: string } | null;
  sources: readonly DocumentSource[];
  lastHeadAt: number | null;
  /** The immediate pass (`steward service reconcile`): the head runs whatever its interval. */
  explicit: boolean;
  /**
   * The forge's rate-limit reset while a pass waits for it: the forge is not asked before then, and
   * local document sources (which need no forge) go on.
   */
  forgeHeldUntil?: number | null;
}

export interface Waiting {
  reason: 'rate_limited' | 'token_missing' | 'forge_unknown';
  until: number | null;
  host: string | null;
}

export interface CollectionSummary {
  collection: string;
  items: number;
  tombstones: number;
  skipped: number;
  head: { state: 'off' | 'never' | 'fresh' | 'catching-up'; freshAt: number | null };
  tail: { state: 'backfilling' | 'complete' | 'off'; pagesDone: number; pagesKnown: number | null; verifiedAt: number | null };
  reason: string | null;
}

export interface SyncReport {
  state: 'succeeded' | 'waiting';
  waiting: Waiting | null;
  collections: CollectionSummary[];
  contentGeneration: number | null;
  tally: Tally;
}

export interface Due {
  due: boolean;
  reason: string | null;
  /** When this lane next has work, when it has none now. */
  at: number | null;
  waiting: Waiting | null;
}

export interface SyncLanesOptions {
  home: string;
  /** A named secret (GITHUB_TOKEN …): key store, secrets file, then environment. */
  token: (name: string) => string | undefined;
  settings?: Partial<LaneSettings>;
  /** Retries, waits and timeouts of forge calls; `perPage` below the forge's maximum (tests). */
  transport?: TransportOptions & { perPage?: number };
  clock?: () => number;
}

const FORGE_COLLECTIONS = ['issues', 'issue-comments', 'pulls', 'pr-comments', 'wiki'];

/** The repo-wide streams a policy needs from a forge: comment streams first, so issue counts compare after them. */
export function streamsFor(forge: Pick<Forge, 'streams' | 'pullComments'>, keep: ReadonlySet<string>): Stream[] {
  const out: Stream[] = [];
  if ((keep.has('issue-comments') || keep.has('pr-comments')) && forge.streams['issue-comments']) out.push('issue-comments');
  if (keep.has('pr-comments') && forge.streams['review-comments']) out.push('review-comments');
  if (keep.has('issues') && forge.streams.issues) out.push('issues');
  if ((keep.has('pulls') || (keep.has('pr-comments') && forge.pullComments)) && forge.streams.pulls) out.push('pulls');
  return out;
}

interface Unit {
  hasWork(): boolean;
  step(): Promise<void>;
  state(): string;
  /** Asks the forge (a rate limit stops it), or reads a local source (never limited). */
  forge: boolean;
}

const MAX_STEPS = 10_000;

/**
 * The sync stage of spec 004 for one registration: the head lane (recent changes, conditional) and
 * the tail lane (historical windows, child coverage, tree walks, deletion checks), each committing
 * its own monotonic checkpoints in the cache.
 */
export class SyncLanes {
  readonly settings: LaneSettings;
  readonly #o: SyncLanesOptions;
  readonly #clock: () => number;

  constructor(options: SyncLanesOptions) {
    this.#o = options;
    this.settings = { ...DEFAULT_LANE_SETTINGS, ...options.settings };
    this.#clock = options.clock ?? Date.now;
  }

  #forgeOf(job: Pick<SyncJob, 'repoId' | 'cacheUuid' | 'forge' | 'policy' | 'forgeHeldUntil'>): { forge: Forge | null; binding: ForgeBinding | null; waiting: Waiting | null } {
    if (!job.policy.collections.some((c) => FORGE_COLLECTIONS.includes(c))) return { forge: null, binding: null, waiting: null };
    const binding = bindingOf(job.repoId, job.forge);
    if (!binding) return { forge: null, binding: null, waiting: { reason: 'forge_unknown', until: null, host: null } };
    const held = job.forgeHeldUntil ?? null;
    if (held !== null && held > this.#clock()) return { forge: null, binding, waiting: { reason: 'rate_limited', until: held, host: binding.host } };
    const token = this.#o.token(binding.tokenName);
    if (!token) return { forge: null, binding, waiting: { reason: 'token_missing', until: null, host: binding.host } };
    const mirror = join(this.#o.home, 'caches', 'wikis', job.cacheUuid, `${createHash('sha256').update(job.repoId).digest('hex').slice(0, 16)}.git`);
    return { forge: createForge(binding, token, { ...this.#o.transport, wikiMirror: mirror }), binding, waiting: null };
  }

  #trees(job: Pick<SyncJob, 'policy' | 'sources'>, forge: Forge | null): TreeTarget[] {
    const trees: TreeTarget[] = [];
    const wiki = forge && job.policy.collections.includes('wiki') ? forge.wiki() : null;
    if (wiki) trees.push({ source: wiki, collection: 'wiki', frontier: 'wiki', prefix: '' });
    for (const s of job.sources) {
      if (!s.root) continue;
      const source = s.kind === 'git' ? localGitTree(s.root, s.ref) : worktreeTree(s.root);
      trees.push({ source, collection: 'documents', frontier: `documents:${s.sourceId}`, prefix: `${s.sourceId}:` });
    }
    return trees;
  }

  /** Whether a lane has work now; never touches the network (a token is looked up, not tried). */
  due(job: SyncJob, read: () => Database.Database | null): Due {
    const now = this.#clock();
    const { forge, waiting } = this.#forgeOf(job);
    const trees = job.sources.some((s) => s.root !== null);
    const held = waiting?.reason === 'rate_limited' ? waiting.until : null;
    if (!forge && !trees) return { due: false, reason: waiting?.reason ?? 'nothing_to_sync', at: held, waiting };
    if (held !== null) return this.#heldDue(job, read, held, waiting);
    if (job.lane === 'head') {
      const at = job.lastHeadAt === null ? now : job.lastHeadAt + this.settings.headIntervalMs;
      return job.explicit || at <= now ? { due: true, reason: null, at: null, waiting } : { due: false, reason: 'head_not_due', at, waiting };
    }
    const db = read();
    if (!db) return { due: true, reason: null, at: null, waiting };
    try {
      const ctx = this.#context(job, forge, new CacheWriter(db, job.repoId, this.#clock), new AbortController().signal, emptyTally());
      const units = this.#tailUnits(ctx, job, forge);
      if (units.some((u) => u.hasWork())) return { due: true, reason: null, at: null, waiting };
      const times = forge ? streamsFor(forge, ctx.keep).map((s) => rewalkAt(ctx.writer.frontier(frontierName(s), 'tail'), this.settings)) : [];
      const at = times.filter((t): t is number => t !== null).reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
      return { due: false, reason: 'tail_complete', at: Number.isFinite(at) ? at : null, waiting };
    } finally {
      db.close();
    }
  }

  /**
   * While the forge waits out a rate limit only local documents have work: the head rereads them on
   * its interval (counted from their own freshness, since the waiting head records no success), the
   * tail walks what the head found changed.
   */
  #heldDue(job: SyncJob, read: () => Database.Database | null, held: number, waiting: Waiting | null): Due {
    const now = this.#clock();
    const db = read();
    if (!db) return { due: true, reason: null, at: null, waiting };
    try {
      const writer = new CacheWriter(db, job.repoId, this.#clock);
      const ctx = this.#context(job, null, writer, new AbortController().signal, emptyTally());
      const trees = this.#trees(job, null);
      let at: number;
      if (job.lane === 'head') {
        if (job.explicit) return { due: true, reason: null, at: null, waiting };
        const fresh = trees.map((t) => writer.frontier(t.frontier, 'head').freshAt);
        at = fresh.some((f) => f === null) ? now : Math.min(...fresh.map((f) => f! + this.settings.headIntervalMs));
      } else {
        at = job.policy.sync === 'head-and-backfill' && trees.some((t) => treeHasWork(ctx, t)) ? now : held;
      }
      return at <= now ? { due: true, reason: null, at: null, waiting } : { due: false, reason: 'rate_limited', at: Math.min(at, held), waiting };
    } finally {
      db.close();
    }
  }

  #context(job: Pick<SyncJob, 'policy'>, forge: Forge | null, writer: CacheWriter, signal: AbortSignal, tally: Tally): LaneContext {
    return { forge: forge as Forge, writer, signal, now: this.#clock, settings: this.settings, keep: new Set(job.policy.collections), tally };
  }

  /** Runs one lane job on an open, migrated cache (the caller holds the cache's writer admission). */
  async run(job: SyncJob, db: Database.Database, signal: AbortSignal, onProgress?: (tally: Tally) => void): Promise<SyncReport> {
    const { forge, binding, waiting } = this.#forgeOf(job);
    const tally = emptyTally();
    const writer = new CacheWriter(db, job.repoId, this.#clock);
    const ctx = this.#context(job, forge, writer, signal, tally);
    const progress = () => onProgress?.({ ...tally });
    let waitingNow = waiting;
    let limit: RateLimited | null;
    try {
      limit = job.lane === 'head' ? await this.#head(ctx, job, forge, progress) : await this.#tail(ctx, job, forge, progress);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      limit = error;
    }
    if (limit) waitingNow = { reason: 'rate_limited', until: limit.until, host: binding?.host ?? null };
    return {
      state: waitingNow?.reason === 'rate_limited' ? 'waiting' : 'succeeded',
      waiting: waitingNow,
      collections: this.summarize(job, db, forge?.kind ?? binding?.kind ?? null),
      contentGeneration: contentGeneration(db, job.repoId),
      tally,
    };
  }

  /** The head lane; a forge rate limit stops only the forge's part (returned), never local documents. */
  async #head(ctx: LaneContext, job: SyncJob, forge: Forge | null, progress: () => void): Promise<RateLimited | null> {
    const headOnly = job.policy.sync === 'head';
    let limit: RateLimited | null = null;
    if (forge) {
      try {
        for (const stream of streamsFor(forge, ctx.keep)) {
          await headStream(ctx, stream);
          progress();
        }
        await drainPendingComments(ctx);
        await changedPullComments(ctx, headOnly);
      } catch (error) {
        if (!(error instanceof RateLimited)) throw error;
        limit = error;
      }
      progress();
    }
    for (const tree of this.#trees(job, limit ? null : forge)) {
      try {
        await this.#headTree(ctx, tree, headOnly);
      } catch (error) {
        // The wiki asks the forge: a rate limit stops it, and the local documents after it go on.
        if (!(error instanceof RateLimited && tree.collection === 'wiki')) throw error;
        limit = error;
      }
      progress();
    }
    return limit;
  }

  async #headTree(ctx: LaneContext, tree: TreeTarget, headOnly: boolean): Promise<void> {
    let state: Awaited<ReturnType<typeof headTree>>;
    try {
      state = await headTree(ctx, tree);
    } catch (error) {
      // A wiki git cannot fetch (no access, no git) is that collection's reason, not a failure of every collection.
      if (!(error instanceof ForgeError && error.errorClass === 'wiki_unavailable')) throw error;
      ctx.writer.saveFrontier({ ...ctx.writer.frontier(tree.frontier, 'head'), cursor: 'unavailable' });
      return;
    }
    // Without a tail lane the head walks the tree itself, one bounded window per pass.
    if (headOnly && state === 'walking') await treeWindow(ctx, tree);
  }

  #tailUnits(ctx: LaneContext, job: Pick<SyncJob, 'policy' | 'sources'>, forge: Forge | null): Unit[] {
    const units: Unit[] = [];
    const frontierState = (name: string) => () => JSON.stringify(ctx.writer.frontier(name, 'tail'));
    if (forge) {
      for (const stream of streamsFor(forge, ctx.keep)) {
        const name = frontierName(stream);
        const work = () => tailWork(ctx.writer.frontier(name, 'tail'), this.settings, ctx.now());
        units.push({ hasWork: () => work() !== null, step: () => (work() === 'verify' ? verifyAbsences(ctx, stream) : tailWindow(ctx, stream)), state: frontierState(name), forge: true });
      }
      units.push({ hasWork: () => pullCommentsHaveWork(ctx), step: () => pullCommentsWindow(ctx), state: frontierState('pr-comments'), forge: true });
    }
    for (const tree of this.#trees(job, forge)) {
      units.push({ hasWork: () => treeHasWork(ctx, tree), step: () => treeWindow(ctx, tree), state: frontierState(tree.frontier), forge: tree.collection === 'wiki' });
    }
    return units;
  }

  /**
   * Windows round-robin over every collection with work, so a slow collection cannot hold back a
   * fast one; each commits its own checkpoint. Stops at the job's time budget or when cancelled.
   * A forge rate limit stops the forge's units only (it is returned); local documents go on.
   */
  async #tail(ctx: LaneContext, job: SyncJob, forge: Forge | null, progress: () => void): Promise<RateLimited | null> {
    if (job.policy.sync !== 'head-and-backfill') return null;
    const deadline = this.#clock() + this.settings.tailBudgetMs;
    let limit: RateLimited | null = null;
    let units = this.#tailUnits(ctx, job, forge);
    for (let steps = 0; units.length > 0 && steps < MAX_STEPS; ) {
      const next: Unit[] = [];
      for (const unit of units) {
        // At least one window per job, so even a tiny budget makes progress.
        if (ctx.signal.aborted || (steps > 0 && this.#clock() >= deadline)) return limit;
        if ((limit && unit.forge) || !unit.hasWork()) continue;
        const before = unit.state();
        try {
          await unit.step();
        } catch (error) {
          if (!(error instanceof RateLimited && unit.forge)) throw error;
          limit = error;
          continue;
        }
        steps += 1;
        progress();
        // A unit whose checkpoint did not move would only repeat itself this job.
        if (unit.state() !== before) next.push(unit);
      }
      units = limit ? next.filter((u) => !u.forge) : next;
    }
    return limit;
  }

  /** Per collection: what is cached, how fresh, how far the backfill got. Read from the cache itself. */
  summarize(job: Pick<SyncJob, 'repoId' | 'policy' | 'sources'>, db: Database.Database, kind: ForgeKind | null): CollectionSummary[] {
    const writer = new CacheWriter(db, job.repoId, this.#clock);
    const counts = writer.counts();
    const backfill = job.policy.sync === 'head-and-backfill';
    const row = (collection: string, frontiers: string[], reason: string | null): CollectionSummary => {
      const heads = frontiers.map((f) => writer.frontier(f, 'head'));
      const tails = frontiers.map((f) => writer.frontier(f, 'tail'));
      const c = counts.get(collection) ?? { items: 0, tombstones: 0 };
      return {
        collection,
        items: c.items,
        tombstones: c.tombstones,
        skipped: [...heads, ...tails].reduce((sum, f) => sum + f.skipped, 0),
        head: headState(job.policy.sync, heads, tails),
        tail: {
          state: !backfill ? 'off' : tails.every((t) => t.complete) ? 'complete' : 'backfilling',
          pagesDone: tails.reduce((sum, t) => sum + t.pagesDone, 0),
          pagesKnown: tails.every((t) => t.pagesKnown !== null) && tails.length > 0 ? tails.reduce((sum, t) => sum + (t.pagesKnown ?? 0), 0) : null,
          verifiedAt: tails.length > 0 && tails.every((t) => t.verifiedAt !== null) ? Math.min(...tails.map((t) => t.verifiedAt!)) : null,
        },
        reason,
      };
    };
    const out = job.policy.collections.map((c) => {
      if (c !== 'wiki') return row(c, [c], null);
      const cursor = writer.frontier('wiki', 'head').cursor;
      return row('wiki', ['wiki'], kind === 'gitcode' ? 'unsupported' : cursor === 'absent' || cursor === 'unavailable' ? cursor : null);
    });
    const documents = job.sources.map((s) => `documents:${s.sourceId}`);
    if (documents.length > 0) out.push(row('documents', documents, job.sources.some((s) => !s.root) ? 'source_unavailable' : null));
    return out;
  }
}

function headState(sync: SyncPolicy['sync'], heads: Frontier[], tails: Frontier[]): CollectionSummary['head'] {
  if (sync === 'off' || heads.length === 0) return { state: 'off', freshAt: null };
  const freshAt = heads.every((h) => h.freshAt !== null) ? Math.min(...heads.map((h) => h.freshAt!)) : null;
  const catching = heads.some((h) => h.nextPage !== null) || (heads.some((h) => h.cursor !== null) && tails.some((t) => t.cursor !== null && t.nextPage !== null));
  if (catching) return { state: 'catching-up', freshAt };
  return freshAt === null ? { state: 'never', freshAt } : { state: 'fresh', freshAt };
}

function contentGeneration(db: Database.Database, repoId: string): number | null {
  const row = db.prepare('SELECT content_generation AS g FROM repositories WHERE repo_id = ?').get(repoId) as { g: number } | undefined;
  return row?.g ?? null;
}
