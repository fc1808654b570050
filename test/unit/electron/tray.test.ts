import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Menu as ElectronMenu, nativeImage as electronNativeImage, Tray as ElectronTray } from 'electron';
import type { AppStatus } from '../../../core/index.js';
import { createTrayController, statusLine, trayIconFile, trayMenuTemplate, trayState, type TrayActions } from '../../../electron/tray.js';
import { resetElectron, Tray, type FakeImage } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const idle: AppStatus = { state: 'idle', message: 'Ready', paused: false };
const deps = { Tray: ElectronTray, Menu: ElectronMenu, nativeImage: electronNativeImage };

function actions(): TrayActions & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    open: () => void calls.push('open'),
    setPaused: (paused) => void calls.push(`setPaused:${paused}`),
    quit: () => void calls.push('quit'),
  };
}

describe('tray menu', () => {
  beforeEach(() => resetElectron());

  it('puts Open Steward first, then a disabled status line, Pause, and Quit last', () => {
    const template = trayMenuTemplate(idle, actions());
    expect(template.map((item) => (item.type === 'separator' ? '---' : item.label))).toEqual(['Open Steward', 'Idle — Ready', '---', 'Pause', '---', 'Quit']);
    expect(template[1]?.enabled).toBe(false);
    expect(template[0]?.enabled).not.toBe(false);
  });

  it('each item does what it says', () => {
    const a = actions();
    const template = trayMenuTemplate(idle, a);
    for (const id of ['open', 'pause', 'quit']) {
      const item = template.find((i) => i.id === id);
      (item?.click as (() => void) | undefined)?.();
    }
    expect(a.calls).toEqual(['open', 'setPaused:true', 'quit']);
  });

  it('offers Resume when paused, and resuming unpauses', () => {
    const a = actions();
    const template = trayMenuTemplate({ ...idle, paused: true, message: 'Paused' }, a);
    const pause = template.find((i) => i.id === 'pause');
    expect(pause?.label).toBe('Resume');
    (pause?.click as () => void)();
    expect(a.calls).toEqual(['setPaused:false']);
  });

  it('shows state and message on one bounded line', () => {
    expect(statusLine({ state: 'working', message: 'Sweeping claude', paused: false })).toBe('Working — Sweeping claude');
    expect(statusLine({ state: 'error', message: '', paused: false })).toBe('Error');
    expect(statusLine({ state: 'idle', message: 'Paused', paused: true })).toBe('Paused');
    const long = statusLine({ state: 'working', message: 'x'.repeat(500), paused: false });
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long.endsWith('…')).toBe(true);
  });

  it('maps status to one of four icons; paused wins; macOS gets template images', () => {
    expect(trayState({ state: 'error', message: '', paused: true })).toBe('paused');
    expect(trayState({ state: 'working', message: '', paused: false })).toBe('working');
    expect(trayIconFile('error', 'linux')).toBe('error.png');
    expect(trayIconFile('error', 'win32')).toBe('error.png');
    expect(trayIconFile('error', 'darwin')).toBe('errorTemplate.png');
  });
});

describe('tray controller', () => {
  beforeEach(() => resetElectron());

  it('builds the tray with the status icon, tooltip and menu, and refreshes all three', () => {
    const a = actions();
    const controller = createTrayController(deps, { iconDir: '/icons', platform: 'linux', status: idle, actions: a });
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(join('/icons', 'idle.png'));
    expect(tray.tooltip).toBe('Steward — Idle — Ready');
    expect(tray.labels()).toEqual(['Open Steward', 'Idle — Ready', '---', 'Pause', '---', 'Quit']);

    controller.update({ state: 'working', message: 'Sweeping', paused: false });
    expect(tray.image.path).toBe(join('/icons', 'working.png'));
    expect(tray.labels()[1]).toBe('Working — Sweeping');

    controller.update({ state: 'working', message: 'Paused', paused: true });
    expect(tray.image.path).toBe(join('/icons', 'paused.png'));
    expect(tray.labels()[3]).toBe('Resume');
    tray.item('pause').click?.();
    expect(a.calls).toEqual(['setPaused:false']);

    controller.destroy();
    expect(tray.destroyed).toBe(true);
  });

  it('opens the window on click outside macOS', () => {
    const a = actions();
    createTrayController(deps, { iconDir: '/icons', platform: 'linux', status: idle, actions: a });
    Tray.instances[0]!.emit('click');
    expect(a.calls).toEqual(['open']);
  });

  it('uses template images on macOS and leaves the click to the menu', () => {
    const a = actions();
    const controller = createTrayController(deps, { iconDir: '/icons', platform: 'darwin', status: idle, actions: a });
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(join('/icons', 'idleTemplate.png'));
    expect((tray.image as FakeImage).template).toBe(true);
    controller.update({ state: 'error', message: 'Failed', paused: false });
    expect(tray.image.path).toBe(join('/icons', 'errorTemplate.png'));
    expect(tray.image.template).toBe(true);
    tray.emit('click');
    expect(a.calls).toEqual([]);
  });
});
