import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

export const AppStatus = z.strictObject({
  state: z.enum(['idle', 'working', 'error']),
  message: z.string(),
  paused: z.boolean(),
});
export type AppStatus = z.infer<typeof AppStatus>;

export const appMethods = {
  'App.Info': {
    params: z.strictObject({}),
    result: z.strictObject({
      name: z.literal('Steward'),
      version: z.string(),
      protocol: z.number().int(),
      /** Where STEWARD_HOME came from; never the path itself. */
      homeKind: z.enum(['env', 'platform-default']),
      platform: z.string(),
      uptimeMs: z.number().int().nonnegative(),
      status: AppStatus,
    }),
  },
  'App.SetPaused': {
    params: z.strictObject({ paused: z.boolean() }),
    result: z.strictObject({ status: AppStatus }),
  },
} as const;

export const appEvents = {
  'app.status': AppStatus,
} as const;
