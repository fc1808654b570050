export { runBackfillProvider, newRunToken, type ProviderStats, type RunContext, type BackfillDeps, type BackfillProgress } from './run.js';
export { effectiveWindowDays, explicitWindowDays, pruneCutoffs, windowStart, KERNEL_DEFAULT_DAYS, type PruneCutoff } from './retention.js';
