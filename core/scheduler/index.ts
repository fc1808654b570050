export { SweepScheduler, settledStats, type SweepSchedulerOptions, type ProviderRunner, type RunKind } from './queue.js';
export { SweepDriver, type SweepDriverOptions, type BackfillRequest } from './driver.js';
