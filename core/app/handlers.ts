import { contractFingerprint, MAINTENANCE_PROTOCOL, PROTOCOL_VERSION, StewardError, type AppStatus, type Handlers } from '../api/index.js';
import type { HomeKind } from '../config/index.js';
import type { StartAtLogin } from './login.js';
import type { AppState } from './status.js';

export interface AppFacts {
  version: string;
  homeKind: HomeKind;
  /** Pauses or resumes the owner's scheduled work; returns the status after. */
  setPaused: (paused: boolean) => AppStatus;
  /** Replaces the per-install panel token (the loopback server and daemon.json follow). */
  rotateToken: () => void;
  startAtLogin: StartAtLogin;
  /** Asks the owner to stop (the app quits, `steward serve` exits); absent where this process is not an owner. */
  requestStop?: () => void;
}

type AppMethod = 'App.Info' | 'App.SetPaused' | 'App.RotateToken' | 'App.Stop' | 'Settings.GetStartAtLogin' | 'Settings.SetStartAtLogin';

/** The owner's own part of the contract: what it is, how long it has run, its status, its token, start at login. */
export function appHandlers(state: AppState, facts: AppFacts): Pick<Handlers, AppMethod> {
  return {
    'App.Info': () => ({
      name: 'Steward',
      version: facts.version,
      contract: contractFingerprint(),
      protocol: PROTOCOL_VERSION,
      maintenanceProtocol: MAINTENANCE_PROTOCOL,
      homeKind: facts.homeKind,
      platform: process.platform,
      uptimeMs: state.uptimeMs,
      status: state.status,
    }),
    'App.SetPaused': ({ paused }) => ({ status: facts.setPaused(paused) }),
    'App.RotateToken': () => {
      facts.rotateToken();
      return { rotatedAt: Date.now() };
    },
    'App.Stop': () => {
      const stop = facts.requestStop;
      if (!stop) throw new StewardError('unsupported', 'This Steward is not running in the background; there is nothing to stop.');
      // Answer first: the reply must leave before the server closes.
      setTimeout(stop, 50).unref?.();
      return { stopping: true as const, pid: process.pid };
    },
    'Settings.GetStartAtLogin': () => facts.startAtLogin.read(),
    'Settings.SetStartAtLogin': ({ enabled }) => facts.startAtLogin.set(enabled),
  };
}
