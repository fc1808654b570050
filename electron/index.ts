// The Electron shell's room index. main.ts is the process entry; nothing outside electron/ imports this room.
export { APP_ID, startStewardApp, type StewardApp, type StewardAppOptions } from './app.js';
export * from './ipc-channels.js';
