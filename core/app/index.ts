// Owns: the owner's status (idle, working, error, paused) and the App.* methods.
// Never: does work of its own; rooms report to it through the Core.
export { AppState } from './status.js';
export { appHandlers } from './handlers.js';
