// `node --import` this file: installs the fake Electron for CommonJS requires, and routes the ESM
// specifier 'electron' to electron-shim.mjs.
import { register } from 'node:module';
import './fake-electron.mjs';

register('./hooks.mjs', import.meta.url);
