import type { z } from 'zod';
import { appEvents, appMethods } from './app.js';
import { backfillEvents, backfillMethods } from './backfill.js';
import { cacheMethods } from './cache.js';
import { conflictsMethods } from './conflicts.js';
import { hooksMethods } from './hooks.js';
import { maintenanceEvents, maintenanceMethods } from './maintenance.js';
import { forgetEvents, forgetMethods } from './forget.js';
import { projectsMethods } from './projects.js';
import { providersMethods } from './providers.js';
import { repositoryMethods } from './repository.js';
import { searchEvents, searchMethods } from './search.js';
import { sessionsMethods } from './sessions.js';
import { secretsMethods } from './secrets.js';
import { settingsMethods } from './settings.js';
import { sweepEvents, sweepMethods } from './sweep.js';
import { sweeperEvents, sweeperMethods } from './sweeper.js';
import { telemetryMethods } from './telemetry.js';

/**
 * The one contract: every method and every event, declared once. Each area prefix (`Projects.*`,
 * `Settings.*` …) has its own file beside this one and is spread in here; transports and the panel
 * derive everything from it.
 */
export const methods = {
  ...appMethods,
  ...telemetryMethods,
  ...sweepMethods,
  ...backfillMethods,
  ...cacheMethods,
  ...projectsMethods,
  ...providersMethods,
  ...sweeperMethods,
  ...settingsMethods,
  ...maintenanceMethods,
  ...conflictsMethods,
  ...repositoryMethods,
  ...searchMethods,
  ...sessionsMethods,
  ...forgetMethods,
  ...hooksMethods,
  ...secretsMethods,
} as const;

export const events = {
  ...appEvents,
  ...sweepEvents,
  ...backfillEvents,
  ...sweeperEvents,
  ...maintenanceEvents,
  ...searchEvents,
  ...forgetEvents,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type Params<M extends MethodName> = z.input<Methods[M]['params']>;
export type ParsedParams<M extends MethodName> = z.output<Methods[M]['params']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const METHOD_NAMES = Object.keys(methods) as MethodName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}
