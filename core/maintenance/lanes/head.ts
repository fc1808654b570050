import type { Stream } from '../forges/index.js';
import { frontierName, store, type LaneContext } from './context.js';

/** The page-1 ETag is only good for the same query: it is kept with the `since` it was sent with. */
function etagFor(stored: string | null, since: number | undefined): string | null {
  if (!stored) return null;
  const bar = stored.indexOf('|');
  return stored.slice(0, bar) === String(since ?? '') ? stored.slice(bar + 1) : null;
}

/**
 * One head pass over a stream: most recently updated first, page 1 sent conditionally (an idle
 * refresh costs one 304), an inclusive watermark minus a small skew. A pass that reaches its page
 * bound before the previous watermark leaves a continuation that the next pass resumes until it
 * proves freshness. The head never claims historical completeness; that is the tail's.
 */
export async function headStream(ctx: LaneContext, stream: Stream): Promise<void> {
  const traits = ctx.forge.streams[stream];
  if (!traits) return;
  const name = frontierName(stream);
  let f = ctx.writer.frontier(name, 'head');
  const sweep = ctx.writer.frontier(name, 'tail').sweep;
  const since = f.watermark === null ? undefined : Math.max(0, f.watermark - ctx.settings.skewMs);
  const bound = f.watermark === null ? f.watermark : f.watermark - ctx.settings.skewMs;
  let page = f.nextPage ?? 1;
  let chainStart = f.nextPage !== null ? f.pendingFreshAt : null;
  let maxSeen = f.nextPage !== null ? f.pendingWatermark : null;
  let etag = f.etag;
  for (let read = 1; ; read += 1) {
    const res = await ctx.forge.list({ stream, order: 'recent', page, since, etag: page === 1 ? etagFor(f.etag, since) : null }, ctx.signal);
    ctx.tally.requests += 1;
    const serverNow = res.serverDate ?? ctx.now();
    // Watermarks stay in the forge's clock (they are compared with its timestamps); freshness is shown
    // to a person, so it is converted to this machine's clock by the forge's offset seen just now.
    const toLocal = (serverTime: number) => serverTime + (ctx.now() - serverNow);
    chainStart ??= serverNow;
    if (res.notModified) {
      // Nothing changed since the pass that proved the stored watermark: fresh as of now.
      ctx.writer.saveFrontier({ ...f, freshAt: f.freshAt === null ? null : ctx.now() });
      return;
    }
    if (page === 1) etag = res.etag ? `${since ?? ''}|${res.etag}` : null;
    let crossed = !res.hasNext;
    // A first pass has no watermark: page 1 of a sorted listing holds every change after its last entry.
    const proven = f.watermark !== null || traits.recent === 'sorted';
    if (f.watermark === null) crossed = true;
    const start: number = chainStart;
    const pass = f;
    f = ctx.writer.transaction(() => {
      for (const record of res.records) {
        store(ctx, record, stream, sweep);
        const at = record.updatedAt;
        if (at === null) continue;
        maxSeen = maxSeen === null ? at : Math.max(maxSeen, at);
        if (traits.recent === 'sorted' && bound !== null && at < bound) crossed = true;
      }
      ctx.tally.skipped += res.skipped;
      let next = { ...pass, etag, skipped: pass.skipped + res.skipped };
      if (crossed) {
        // Records updated while this pass read later pages are newer than its start: the next pass catches them.
        const candidate = maxSeen === null ? (pass.watermark ?? start) : Math.min(maxSeen, start);
        const watermark = proven ? Math.max(pass.watermark ?? candidate, candidate) : start;
        next = { ...next, watermark, freshAt: proven ? toLocal(start) : null, nextPage: null, pendingWatermark: null, pendingFreshAt: null };
      } else if (read >= ctx.settings.headPages) {
        next = { ...next, nextPage: page + 1, pendingWatermark: maxSeen, pendingFreshAt: start };
      }
      ctx.writer.saveFrontier(next);
      return next;
    });
    if (crossed || read >= ctx.settings.headPages) return;
    page += 1;
  }
}
