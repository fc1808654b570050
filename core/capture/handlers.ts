import type { Handlers } from '../api/index.js';
import type { Capture } from './driver.js';

/** Capture's part of the contract: the sweep, backfills and the retention pass. */
export function captureHandlers(capture: Capture): Pick<Handlers, 'Sweep.Tick' | 'Sweep.Status' | 'Sweep.Unreadable' | 'Providers.Survey' | 'Backfill.Run' | 'Backfill.Cancel' | 'Cache.Prune'> {
  return {
    'Sweep.Tick': async () => capture.named(await capture.tick()),
    'Sweep.Status': () => capture.status(),
    'Sweep.Unreadable': ({ limit }) => capture.unreadable(limit),
    'Providers.Survey': () => capture.survey(),
    'Backfill.Run': async (params) => capture.named(await capture.backfill(params)),
    'Backfill.Cancel': () => ({ cancelled: capture.cancelBackfills() }),
    'Cache.Prune': ({ dryRun, retentionDays }) => capture.prune({ manual: true, dryRun, retentionDays }),
  };
}
