export * from './contract.js';
export * from './errors.js';
export * from './dispatcher.js';
export * from './events.js';
export * from './client.js';
export { PROTOCOL_VERSION, AppStatus } from './app.js';
export { TelemetryEntry } from './telemetry.js';
export { ProviderSweepStats, SweepResult, CAPTURE_PROVIDERS } from './capture.js';
export { ProjectSummary } from './projects.js';
