import { z } from 'zod';

/** One telemetry record. `data` holds counts and durations only: never paths, content or credentials. */
export const TelemetryEntry = z.strictObject({
  id: z.number().int(),
  at: z.number().int(),
  kind: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type TelemetryEntry = z.infer<typeof TelemetryEntry>;

export const telemetryMethods = {
  'Telemetry.Recent': {
    params: z.strictObject({
      limit: z.number().int().min(1).max(1000).optional(),
      kind: z.string().min(1).max(64).optional(),
    }),
    result: z.strictObject({ entries: z.array(TelemetryEntry) }),
  },
} as const;
