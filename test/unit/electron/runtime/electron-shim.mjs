// ESM face of fake-electron.mjs for `import { app, … } from 'electron'` in the compiled main process.
import electron from './fake-electron.mjs';

export const { app, BrowserWindow, Tray, Menu, nativeImage, Notification, shell, ipcMain, protocol, session, dialog, safeStorage } = electron;
export default electron;
