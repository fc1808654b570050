export { runBackfillProvider, newRunToken, type ProviderStats, type RunContext, type BackfillDeps, type BackfillProgress } from './run.js';
export { effectiveWindowDays, windowStart, KERNEL_DEFAULT_DAYS } from './retention.js';
