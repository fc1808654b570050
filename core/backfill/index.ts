// Owns: one provider run (runBackfillProvider): discovery, reading, materializing in commit windows, counts; and the retention window's resolution.
// Never: schedules itself or touches gateway tables directly; capture/ drives it and the gateway room writes.
export { runBackfillProvider, newRunToken, readFailure, type ProviderStats, type BackfillProgress } from './run.js';
export { effectiveWindowDays, explicitWindowDays, pruneCutoffs, windowSource, windowStart, type PrunePass } from './retention.js';
