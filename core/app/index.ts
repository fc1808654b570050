// Owns: the owner's one status (working, paused, needing the person, failed — each with what), the App.* methods, the settings a person changes in the panel, the first-run mark and start at login.
// Never: does work of its own; rooms report facts to it through the Core, and it writes only config.json (through config's writer), first-run.json and the start-at-login entry the person asked for.
export { AppState, composeStatus, notRunningStatus, NOT_RUNNING_TEXT } from './status.js';
export { StatusReporter, FAILING_AFTER } from './reports.js';
export { appHandlers } from './handlers.js';
export { settingsHandlers, type SettingsDeps } from './settings.js';
export { firstRunHandlers } from './first-run.js';
export { xdgAutostart, headlessStartAtLogin, appOnlyStartAtLogin, homeArgs, type StartAtLogin, type Launcher } from './login.js';
