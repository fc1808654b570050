import type { Handlers } from '../api/index.js';
import type { Capture } from './driver.js';

/** Capture's part of the contract: the sweep, backfills and the retention pass. */
export function captureHandlers(capture: Capture): Pick<Handlers, 'Sweep.Tick' | 'Sweep.Status' | 'Providers.Survey' | 'Backfill.Run' | 'Backfill.Cancel' | 'Cache.Prune'> {
  return {
    'Sweep.Tick': async () => ({ providers: await capture.tick() }),
    'Sweep.Status': () => capture.status(),
    'Providers.Survey': () => capture.survey(),
    'Backfill.Run': async (params) => ({ providers: await capture.backfill(params) }),
    'Backfill.Cancel': () => ({ cancelled: capture.cancelBackfills() }),
    'Cache.Prune': ({ dryRun, retentionDays }) => capture.prune({ manual: true, dryRun, retentionDays }),
  };
}
