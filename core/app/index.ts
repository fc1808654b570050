// Owns: the owner's one status (working, paused, needing the person, failed — each with what), the App.* methods and start at login.
// Never: does work of its own; rooms report facts to it through the Core, and it writes nothing but the start-at-login entry the person asked for.
export { AppState, composeStatus } from './status.js';
export { StatusReporter, FAILING_AFTER } from './reports.js';
export { appHandlers } from './handlers.js';
export { xdgAutostart, headlessStartAtLogin, appOnlyStartAtLogin, type StartAtLogin, type Launcher } from './login.js';
