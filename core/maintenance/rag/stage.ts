import { join } from 'node:path';
import { StewardError } from '../../api/index.js';
import type { Logger } from '../../log/index.js';
import type Database from 'better-sqlite3';
import type { LaneDue, StageContext, StageOutcome, StageRunner } from '../jobs.js';
import { runIndex, type IndexReport, type IndexTally } from './indexer.js';
import type { ModuleLoader } from './embedders/onnx.js';
import { ProfileResolver, type ProfileDeps } from './profiles.js';
import { attachRag, ragVersion, RagStore } from './store.js';

export interface RagStageOptions {
  home: string;
  logger?: Logger;
  /** The OpenAI-compatible key from the key store; sent only to a remote endpoint the policy allows. */
  apiKey?: () => string | undefined;
  /** How often the configured profile is resolved again even when nothing changed (default 10 minutes). */
  resolveIntervalMs?: number;
  clock?: () => number;
  loadModule?: ModuleLoader;
  onProgress?: (registrationId: string, tally: IndexTally) => void;
}

export type RagStage = StageRunner & {
  readonly resolver: ProfileResolver;
  readonly deps: ProfileDeps;
  /** The last run's report per registration: counts only, for status and tests. */
  readonly reports: Map<string, IndexReport>;
  /** Stops a running index between batches (shutdown). */
  stop(): void;
};

const DEFAULT_RESOLVE_INTERVAL_MS = 10 * 60_000;

const DUE: LaneDue = { due: true, reason: null, at: null, waiting: null };

/**
 * Whether the owner's timer has index work for a registration, read from the cache without writing
 * and without the network: content not covered, a profile changed or never selected, or the
 * profile's periodic re-resolution due. An explicit pass always runs.
 */
function indexDue(ctx: StageContext, resolver: ProfileResolver, clock: () => number): LaneDue {
  if (ctx.explicit) return DUE;
  let db: Database.Database | null = null;
  try {
    db = ctx.readCache();
    if (!db || ragVersion(db) === 0) return DUE;
    const store = new RagStore(db);
    const selection = store.selection(ctx.canonicalRepoId);
    if (!selection?.namespaceId || selection.profile !== ctx.configSnapshot.profile) return DUE;
    const ns = store.namespace(selection.namespaceId);
    if (!ns || ns.coveredGeneration < store.generation(ctx.canonicalRepoId)) return DUE;
    const at = resolver.nextResolutionAt(ctx.configSnapshot, ctx.policy);
    return at <= clock() ? DUE : { due: false, reason: 'index_current', at, waiting: null };
  } catch {
    // A cache that cannot be read here is the run's to report, with its error class.
    return DUE;
  } finally {
    db?.close();
  }
}

export function profileDeps(options: Pick<RagStageOptions, 'home' | 'apiKey' | 'loadModule'>): ProfileDeps {
  return { modelsDir: join(options.home, 'models'), ...(options.apiKey ? { apiKey: options.apiKey } : {}), ...(options.loadModule ? { loadModule: options.loadModule } : {}) };
}

/**
 * The RAG stage (spec 004's "RAG repair"): the reconciler runs it after sync, inside the cache's
 * writer admission, so the generation it captures first is the run's true baseline. It fails and
 * backs off on its own; sync never waits for it.
 */
export function ragStage(options: RagStageOptions): RagStage {
  const clock = options.clock ?? Date.now;
  const deps = profileDeps(options);
  const resolver = new ProfileResolver(deps, options.resolveIntervalMs ?? DEFAULT_RESOLVE_INTERVAL_MS, clock);
  const reports = new Map<string, IndexReport>();
  let abort = new AbortController();
  const run = async (ctx: StageContext): Promise<StageOutcome> => {
    if (abort.signal.aborted) abort = new AbortController();
    // The job's own connection: the cache schema migrated forward, then the rag tables.
    const db = ctx.openCache();
    try {
      attachRag(db, true);
      const uuid = db.prepare('SELECT cache_uuid FROM cache_identity WHERE singleton = 1').pluck().get() as string | undefined;
      // Identity was validated before admission; a file swapped since then is not the registration's cache.
      if (uuid?.toLowerCase() !== ctx.cacheUuid) throw new StewardError('cache_invalid', 'The cache file changed identity before the index run began.');
      const report = await runIndex(
        db,
        { repoId: ctx.canonicalRepoId, snapshot: ctx.configSnapshot, policy: ctx.policy },
        { resolver, clock, signal: AbortSignal.any([abort.signal, ctx.signal]), onProgress: (tally) => options.onProgress?.(ctx.registrationId, tally) },
      );
      reports.set(ctx.registrationId, report);
      options.logger?.info('rag index run', {
        registrationId: ctx.registrationId,
        sourcesChunked: report.sourcesChunked,
        chunksEmbedded: report.chunksEmbedded,
        truncated: report.truncated,
        skippedNoText: report.skipped.no_text,
        skippedChanged: report.skipped.changed,
        changedDuringRun: report.changedDuringRun,
      });
      // Nothing cut, embedded or missed: the run only confirmed the index is current.
      const idle = report.sourcesChunked === 0 && report.chunksWritten === 0 && report.chunksEmbedded === 0 && !report.changedDuringRun;
      return { contentGeneration: report.contentGeneration, coveredGeneration: report.coveredGeneration, idle };
    } finally {
      db.close();
    }
  };
  return Object.assign(run, { resolver, deps, reports, stop: () => abort.abort(), due: (ctx: StageContext) => indexDue(ctx, resolver, clock) });
}
