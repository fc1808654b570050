import { SyncLanes, type DocumentSource, type SyncJob, type SyncLanesOptions } from './lanes/index.js';
import type { StageContext, StageRunner } from './jobs.js';

function jobOf(ctx: StageContext): SyncJob {
  const repo = ctx.inspection.repositories.find((r) => r.repoId === ctx.canonicalRepoId);
  const sources: DocumentSource[] = ctx.sources.map((s) => ({ sourceId: s.sourceId, kind: s.authority.kind, ref: s.authority.ref, root: s.root ?? null }));
  return {
    repoId: ctx.canonicalRepoId,
    cacheUuid: ctx.cacheUuid,
    lane: ctx.lane === 'tail' ? 'tail' : 'head',
    policy: ctx.policy,
    forge: repo?.forge ?? null,
    sources,
    lastHeadAt: ctx.lastHeadAt,
    explicit: ctx.explicit,
    forgeHeldUntil: ctx.forgeHeldUntil ?? null,
  };
}

/** The sync stage: spec 004's head and tail lanes, run inside the job's cache writer admission. */
export function syncStage(options: SyncLanesOptions): StageRunner & { lanes: SyncLanes } {
  const lanes = new SyncLanes(options);
  const run = async (ctx: StageContext) => {
    const db = ctx.openCache();
    try {
      const report = await lanes.run(jobOf(ctx), db, ctx.signal, ctx.progress);
      return { state: report.state, waiting: report.waiting, collections: report.collections, contentGeneration: report.contentGeneration };
    } finally {
      db.close();
    }
  };
  return Object.assign(run, { lanes, due: (ctx: StageContext) => lanes.due(jobOf(ctx), () => ctx.readCache()) });
}
