import { app } from 'electron';
import { toStewardError } from '../core/index.js';
import { startStewardApp } from './app.js';
import { createElectronLogger } from './log.js';

// Entry of the Electron app (package.json "main"). Everything testable lives in app.ts.
startStewardApp({ createLogger: createElectronLogger }).catch((error: unknown) => {
  process.stderr.write(`Steward failed to start: ${toStewardError(error).message}\n`);
  app.exit(1);
});

// Ctrl+C under `npm start`, or a service manager's SIGTERM: quit through will-quit so the owner stops
// cleanly (daemon.json removed, stores closed) instead of dying mid-write.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
