import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Menu as ElectronMenu, nativeImage as electronNativeImage, Tray as ElectronTray } from 'electron';
import { PAUSED_TEXT, type AppStatus, type StatusItem, type StatusPlace } from '../../../core/index.js';
import { composeStatus } from '../../../core/app/status.js';
import { createTrayController, statusLine, TRAY_STATES, trayIconFile, trayMenuTemplate, trayState, trayTooltip, type TrayActions } from '../../../electron/tray.js';
import { resetElectron, Tray, type FakeImage } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const deps = { Tray: ElectronTray, Menu: ElectronMenu, nativeImage: electronNativeImage };

const item = (kind: StatusItem['kind'], text: string, place: StatusPlace | null = null, subject: string | null = null): StatusItem => ({ kind, subject, text, place });
const idle = composeStatus(false, []);
const paused = composeStatus(true, []);
const working = composeStatus(false, [item('import', 'Importing new transcripts', 'telemetry')]);
const conflict = item('conflict', 'A cache conflict over github.com/acme/widgets needs your choice', 'conflicts', 'ic_1');
const curatorPaused = item('curator-paused', 'The Anthropic curator is paused: credit balance too low', 'settings', 'anthropic');
const failed = item('import-failed', 'Importing Claude transcripts failed', 'telemetry', 'claude');

function actions(): TrayActions & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    open: (place) => void calls.push(place ? `open:${place}` : 'open'),
    sweepNow: () => void calls.push('sweep'),
    setPaused: (p) => void calls.push(`setPaused:${p}`),
    openLogs: () => void calls.push('logs'),
    quit: () => void calls.push('quit'),
  };
}

const labels = (status: AppStatus) => trayMenuTemplate(status, actions()).map((i) => (i.type === 'separator' ? '---' : i.label));
const click = (status: AppStatus, a: TrayActions, id: string) => (trayMenuTemplate(status, a).find((i) => i.id === id)?.click as (() => void) | undefined)?.();

describe('tray menu', () => {
  beforeEach(() => resetElectron());

  it('puts Open Steward first, then the status line, Sweep now, Pause, Open logs, and Quit last', () => {
    expect(labels(idle)).toEqual(['Open Steward', 'Up to date', '---', 'Sweep now', 'Pause', '---', 'Open logs', '---', 'Quit']);
    const template = trayMenuTemplate(idle, actions());
    expect(template[1]?.enabled).toBe(false);
    expect(template[0]?.enabled).not.toBe(false);
  });

  it('each item does what it says', () => {
    const a = actions();
    for (const id of ['open', 'sweep', 'pause', 'logs', 'quit']) click(idle, a, id);
    expect(a.calls).toEqual(['open', 'sweep', 'setPaused:true', 'logs', 'quit']);
  });

  it('says paused once, in the status line, and offers Resume', () => {
    const a = actions();
    expect(labels(paused)).toEqual(['Open Steward', PAUSED_TEXT, '---', 'Sweep now', 'Resume', '---', 'Open logs', '---', 'Quit']);
    expect(labels(paused).filter((l) => /paus/i.test(l ?? ''))).toHaveLength(1);
    click(paused, a, 'pause');
    expect(a.calls).toEqual(['setPaused:false']);
  });

  it('what needs the person leads where it is dealt with: one as the status line, several each on a line', () => {
    const one = composeStatus(false, [conflict]);
    const a = actions();
    expect(labels(one)).toEqual(['Open Steward', conflict.text, '---', 'Sweep now', 'Pause', '---', 'Open logs', '---', 'Quit']);
    click(one, a, 'status');
    expect(a.calls).toEqual(['open:conflicts']);

    const two = composeStatus(false, [conflict, curatorPaused]);
    expect(labels(two).slice(0, 4)).toEqual(['Open Steward', '2 things need you', conflict.text, curatorPaused.text]);
    const b = actions();
    click(two, b, 'attention-1');
    expect(b.calls).toEqual(['open:settings']);
  });

  it('an error is the status line and opens its place; work in hand is a plain line', () => {
    const a = actions();
    const error = composeStatus(false, [failed, curatorPaused]);
    expect(labels(error).slice(0, 3)).toEqual(['Open Steward', failed.text, curatorPaused.text]);
    click(error, a, 'status');
    expect(a.calls).toEqual(['open:telemetry']);
    // A conflict only the person can settle outranks the error, and its line opens Conflicts.
    const decision = composeStatus(false, [failed, conflict]);
    expect(labels(decision)[1]).toBe(conflict.text);
    click(decision, a, 'status');
    expect(a.calls).toEqual(['open:telemetry', 'open:conflicts']);
    expect(trayMenuTemplate(working, actions())[1]).toMatchObject({ label: 'Importing new transcripts', enabled: false });
  });

  it('the tooltip says the headline and every other fact once, in at most 127 characters', () => {
    expect(trayTooltip(idle)).toBe('Steward\nUp to date');
    expect(trayTooltip(working)).toBe('Steward\nImporting new transcripts');
    const errorWhilePaused = composeStatus(true, [failed]);
    expect(trayTooltip(errorWhilePaused)).toBe(`Steward\n${failed.text}\n${PAUSED_TEXT}`);
    const crowded = trayTooltip(composeStatus(true, [failed, conflict, curatorPaused]));
    expect(crowded.length).toBe(127);
    expect(crowded.endsWith('…')).toBe(true);
    expect(trayTooltip(composeStatus(false, [conflict, curatorPaused])).split('\n').slice(0, 3)).toEqual(['Steward', '2 things need you', conflict.text]);
  });

  it('keeps the status line bounded', () => {
    const long = statusLine(composeStatus(false, [item('import-failed', 'x '.repeat(100), null, 'claude')]));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('…')).toBe(true);
  });

  it('has an icon per state: colour PNG on Linux, ICO on Windows, template PNG on macOS', () => {
    expect(TRAY_STATES).toEqual(['error', 'attention', 'working', 'paused', 'idle']);
    expect(trayState(composeStatus(true, [failed]))).toBe('error');
    expect(trayState(composeStatus(true, [conflict]))).toBe('attention');
    expect(trayState(composeStatus(true, []))).toBe('paused');
    expect(trayIconFile('attention', 'linux')).toBe('attention.png');
    expect(trayIconFile('attention', 'win32')).toBe('attention.ico');
    expect(trayIconFile('attention', 'darwin')).toBe('attentionTemplate.png');
  });
});

describe('tray controller', () => {
  beforeEach(() => resetElectron());

  it('builds the tray with the status icon, tooltip and menu, and refreshes all three through every state', () => {
    const a = actions();
    const controller = createTrayController(deps, { iconDir: '/icons', platform: 'linux', status: idle, actions: a });
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(join('/icons', 'idle.png'));
    expect(tray.tooltip).toBe('Steward\nUp to date');
    expect(tray.labels()[1]).toBe('Up to date');

    const states: Array<[AppStatus, string]> = [
      [working, 'working'],
      [paused, 'paused'],
      [composeStatus(false, [conflict]), 'attention'],
      [composeStatus(false, [failed]), 'error'],
      [idle, 'idle'],
    ];
    for (const [status, icon] of states) {
      controller.update(status);
      expect(tray.image.path).toBe(join('/icons', `${icon}.png`));
      expect(tray.tooltip).toBe(trayTooltip(status));
      expect(tray.labels()[1]).toBe(statusLine(status));
    }

    controller.update(paused);
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

  it('uses ICO files on Windows', () => {
    const controller = createTrayController(deps, { iconDir: 'C:\\icons', platform: 'win32', status: idle, actions: actions() });
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(join('C:\\icons', 'idle.ico'));
    controller.update(composeStatus(false, [conflict]));
    expect(tray.image.path).toBe(join('C:\\icons', 'attention.ico'));
    expect(tray.image.template).toBe(false);
  });

  it('uses template images on macOS and leaves the click to the menu', () => {
    const a = actions();
    const controller = createTrayController(deps, { iconDir: '/icons', platform: 'darwin', status: idle, actions: a });
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(join('/icons', 'idleTemplate.png'));
    expect((tray.image as FakeImage).template).toBe(true);
    controller.update(composeStatus(false, [failed]));
    expect(tray.image.path).toBe(join('/icons', 'errorTemplate.png'));
    expect(tray.image.template).toBe(true);
    tray.emit('click');
    expect(a.calls).toEqual([]);
  });
});
