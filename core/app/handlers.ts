import { PROTOCOL_VERSION, type AppStatus, type Handlers } from '../api/index.js';
import type { HomeKind } from '../config/index.js';
import type { AppState } from './status.js';

export interface AppFacts {
  version: string;
  homeKind: HomeKind;
  /** Pauses or resumes the owner's scheduled work; returns the status after. */
  setPaused: (paused: boolean) => AppStatus;
}

/** The owner's own part of the contract: what it is, how long it has run, its status. */
export function appHandlers(state: AppState, facts: AppFacts): Pick<Handlers, 'App.Info' | 'App.SetPaused'> {
  return {
    'App.Info': () => ({
      name: 'Steward',
      version: facts.version,
      protocol: PROTOCOL_VERSION,
      homeKind: facts.homeKind,
      platform: process.platform,
      uptimeMs: state.uptimeMs,
      status: state.status,
    }),
    'App.SetPaused': ({ paused }) => ({ status: facts.setPaused(paused) }),
  };
}
