export { SweepScheduler, settledStats, type SweepSchedulerOptions, type ProviderRunner, type RunKind, type ProviderFailure } from './queue.js';
export { SweepDriver, type SweepDriverOptions, type BackfillRequest } from './driver.js';
