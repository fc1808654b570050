import type { ListResult, Stream, VerifyTarget } from '../forges/index.js';
import { frontierName, store, type LaneContext, type LaneSettings } from './context.js';
import type { Frontier } from './store.js';

type Page = Extract<ListResult, { notModified: false }>;

/** What a tail frontier has left to do at `now`: a window, a verification of absences, or nothing. */
export function tailWork(f: Frontier, settings: LaneSettings, now: number): 'window' | 'verify' | 'rewalk' | null {
  if (!f.complete || f.nextPage !== null) return 'window';
  if (f.verifySweep !== null) return 'verify';
  if (f.verifiedAt !== null && now - f.verifiedAt >= settings.reverifyMs) return 'rewalk';
  return null;
}

/** When a complete tail walks again (its own re-verification interval). */
export function rewalkAt(f: Frontier, settings: LaneSettings): number | null {
  return f.complete && f.nextPage === null && f.verifySweep === null && f.verifiedAt !== null ? f.verifiedAt + settings.reverifyMs : null;
}

/**
 * One tail window: constant-size, from the persisted next page, over an order edits do not move.
 * The window's upserts and its checkpoint commit in one transaction; the next window starts on this
 * window's last page, so a record shifted across the boundary meanwhile is read, not skipped.
 * Reaching the collection's end marks it complete and queues the sweep's absences for checking.
 */
export async function tailWindow(ctx: LaneContext, stream: Stream): Promise<void> {
  const name = frontierName(stream);
  let f = ctx.writer.frontier(name, 'tail');
  if (f.complete && f.nextPage === null) {
    if (tailWork(f, ctx.settings, ctx.now()) !== 'rewalk') return;
    f = { ...f, sweep: f.sweep + 1, nextPage: 1, pagesDone: 0 };
    ctx.writer.saveFrontier(f);
  }
  const start = f.nextPage ?? 1;
  const pages: Page[] = [];
  let reachedEnd = false;
  let failure: unknown = null;
  for (let p = start; p < start + Math.max(2, ctx.settings.windowPages); p += 1) {
    try {
      const res = await ctx.forge.list({ stream, order: 'stable', page: p }, ctx.signal);
      ctx.tally.requests += 1;
      if (res.notModified) break;
      pages.push(res);
      if (!res.hasNext) {
        reachedEnd = true;
        break;
      }
    } catch (error) {
      // What was read is still committed with its checkpoint; the failure then goes to the stage.
      failure = error;
      break;
    }
  }
  if (pages.length > 0) {
    const last = start + pages.length - 1;
    const known = pages.map((p) => p.lastPage).filter((n): n is number => n !== null);
    let skipped = 0;
    const upserts = pages.map((page) => () => {
      for (const record of page.records) store(ctx, record, stream, f.sweep);
      skipped += page.skipped;
    });
    await ctx.writer.transactionInSteps([
      ...upserts,
      () => {
        ctx.tally.skipped += skipped;
        const base = { ...f, pagesDone: Math.max(f.pagesDone, last), pagesKnown: known.length > 0 ? known[known.length - 1]! : f.pagesKnown, skipped: f.skipped + skipped };
        ctx.writer.saveFrontier(
          reachedEnd ? { ...base, complete: true, nextPage: null, pagesKnown: last, verifySweep: f.sweep } : { ...base, nextPage: Math.max(start, last) },
        );
      },
    ]);
  }
  if (failure) throw failure;
}

function targetOf(stream: Stream, absent: { table: 'items' | 'comments'; externalId: string; number: number | null }): VerifyTarget | null {
  if (absent.table === 'items') return absent.number === null ? null : { kind: stream === 'pulls' ? 'pulls' : 'issues', number: absent.number };
  return { kind: stream === 'review-comments' ? 'review-comments' : 'issue-comments', id: absent.externalId };
}

/**
 * After a full pass, records the pass did not see are fetched one by one: only a record the forge
 * answers as gone (deleted, or transferred to another repository) is tombstoned — kept, marked.
 * A record a shifting page hid from the pass is found alive and simply marked seen.
 */
export async function verifyAbsences(ctx: LaneContext, stream: Stream): Promise<void> {
  const name = frontierName(stream);
  const f = ctx.writer.frontier(name, 'tail');
  if (f.verifySweep === null) return;
  const sweep = f.verifySweep;
  const absent = ctx.writer.absentees(stream, sweep, ctx.settings.verifyPerPass);
  for (const a of absent) {
    const target = targetOf(stream, a);
    const verdict = target ? await ctx.forge.verify(target, ctx.signal) : ({ gone: 'deleted' } as const);
    ctx.tally.requests += target ? 1 : 0;
    ctx.writer.transaction(() => {
      if ('gone' in verdict) {
        ctx.writer.tombstone(a.table, a.collection, a.externalId, verdict.gone);
        ctx.tally.tombstoned += 1;
      } else {
        store(ctx, verdict, stream, sweep);
        ctx.writer.markSeen(a.table, a.collection, a.externalId, sweep);
      }
    });
  }
  if (absent.length < ctx.settings.verifyPerPass) ctx.writer.saveFrontier({ ...ctx.writer.frontier(name, 'tail'), verifySweep: null, verifiedAt: ctx.now() });
}
