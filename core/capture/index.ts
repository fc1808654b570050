// Owns: the transcript sweep (spec 000) — due providers, one serial queue, bounded handoff, prune passes, tick telemetry.
// Never: parses transcripts or writes gateway tables itself; it drives transcripts/, backfill/ and gateway/ through their rooms.
export { Capture } from './driver.js';
export { captureHandlers } from './handlers.js';
