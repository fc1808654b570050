import type { Handlers } from '../api/index.js';
import type { TelemetryLog } from './telemetry.js';

/** The gateway's part of the contract: its telemetry table. */
export function telemetryHandlers(telemetry: TelemetryLog): Pick<Handlers, 'Telemetry.Recent'> {
  return {
    'Telemetry.Recent': ({ limit, kind }) => ({ entries: telemetry.recent(limit ?? 50, kind) }),
  };
}
