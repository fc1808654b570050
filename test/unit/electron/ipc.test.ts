import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ipcMain as electronIpcMain, type BrowserWindow as ElectronWindow, type IpcMainInvokeEvent } from 'electron';
import { Core, METHOD_NAMES, type Logger } from '../../../core/index.js';
import { APP_URL, callChannel, EVENT_CHANNEL, OPEN_FOLDER_CHANNEL, type CallChannel, type IpcEventMessage, type IpcReply, type RequestResponseChannels } from '../../../electron/ipc-channels.js';
import { forwardEvents, isTrustedSender, registerIpcBridge } from '../../../electron/ipc.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { BrowserWindow, FakeWebFrame, ipcMain, resetElectron, type FakeWebContents } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

function quietLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (message) => void warnings.push(message), error: () => undefined };
}

function eventFrom(contents: FakeWebContents, frame: FakeWebFrame | null): IpcMainInvokeEvent {
  return { sender: contents, senderFrame: frame } as unknown as IpcMainInvokeEvent;
}

async function invoke(method: (typeof METHOD_NAMES)[number], event: IpcMainInvokeEvent, params: unknown): Promise<IpcReply> {
  const handler = ipcMain.handlers.get(callChannel(method));
  if (!handler) throw new Error(`no handler for ${method}`);
  return (await handler(event, params)) as IpcReply;
}

describe('IPC bridge', () => {
  let home: TempHome;
  let core: Core;
  let window: BrowserWindow;
  let logger: ReturnType<typeof quietLogger>;
  let dispose: () => void;

  beforeEach(async () => {
    resetElectron();
    home = tempHome('steward-ipc-');
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    window = new BrowserWindow({});
    await window.loadURL(APP_URL);
    logger = quietLogger();
    dispose = registerIpcBridge(electronIpcMain, { core, logger, window: () => window as unknown as ElectronWindow });
  });

  afterEach(async () => {
    dispose();
    await core.shutdown();
    home.cleanup();
  });

  it('registers exactly one handler per contract method (and the folder opener), and removes them all', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...METHOD_NAMES.map((m) => callChannel(m)), OPEN_FOLDER_CHANNEL].sort());
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
    dispose = () => undefined;
  });

  it("answers the app's own main frame through the real Core dispatcher", async () => {
    const reply = await invoke('App.Info', eventFrom(window.webContents, window.webContents.mainFrame), {});
    expect(reply.ok).toBe(true);
    expect(reply.ok && (reply.result as { name: string; homeKind: string })).toMatchObject({ name: 'Steward', homeKind: 'env' });

    const paused = await invoke('App.SetPaused', eventFrom(window.webContents, window.webContents.mainFrame), { paused: true });
    expect(paused).toMatchObject({ ok: true, result: { status: { paused: true } } });
    expect(core.status.paused).toBe(true);
  });

  it('passes contract errors through with their typed code', async () => {
    const reply = await invoke('App.SetPaused', eventFrom(window.webContents, window.webContents.mainFrame), { paused: 'yes' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(core.status.paused).toBe(false);
  });

  it('refuses a foreign page in our window', async () => {
    const frame = window.webContents.mainFrame;
    frame.url = 'https://evil.example/steward://app/index.html';
    const reply = await invoke('App.SetPaused', eventFrom(window.webContents, frame), { paused: true });
    expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(core.status.paused).toBe(false);
    expect(logger.warnings).toEqual(['ipc call refused: untrusted sender']);
  });

  it('refuses file:// and look-alike origins', async () => {
    for (const url of ['file:///index.html', 'steward://app.evil/index.html', 'steward://user:pw@app/index.html', 'stewardx://app/index.html', 'not a url']) {
      window.webContents.mainFrame.url = url;
      const reply = await invoke('App.Info', eventFrom(window.webContents, window.webContents.mainFrame), {});
      expect(reply, url).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('refuses a subframe, even one showing our own page', async () => {
    const reply = await invoke('App.SetPaused', eventFrom(window.webContents, window.webContents.subframe(APP_URL)), { paused: true });
    expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(core.status.paused).toBe(false);
  });

  it('refuses a frame that claims to be a main frame but is not ours', async () => {
    const impostor = new FakeWebFrame(APP_URL, null, window.webContents.mainFrame.processId, 99);
    expect((await invoke('App.Info', eventFrom(window.webContents, impostor), {})).ok).toBe(false);
  });

  it('refuses other web contents, a gone frame and a destroyed window', async () => {
    const other = new BrowserWindow({});
    await other.loadURL(APP_URL);
    expect((await invoke('App.Info', eventFrom(other.webContents, other.webContents.mainFrame), {})).ok).toBe(false);
    expect((await invoke('App.Info', eventFrom(window.webContents, null), {})).ok).toBe(false);
    window.destroyed = true;
    expect((await invoke('App.Info', eventFrom(window.webContents, window.webContents.mainFrame), {})).ok).toBe(false);
  });

  it('declares each channel once, typed by the contract (checked by tsc)', () => {
    const channel: CallChannel = callChannel('App.SetPaused');
    expect(channel).toBe('steward:call:App.SetPaused');
    type SetPaused = RequestResponseChannels['steward:call:App.SetPaused'];
    const params: Parameters<SetPaused>[0] = { paused: true };
    // @ts-expect-error a method outside the contract has no channel
    const unknown: CallChannel = 'steward:call:Nope.Missing';
    // @ts-expect-error the params of App.SetPaused are {paused: boolean}
    const wrong: Parameters<SetPaused>[0] = { paused: 'yes' };
    // @ts-expect-error an event outside the contract is not a message
    const event: IpcEventMessage = { name: 'nope.event', payload: {} };
    expect([params, unknown, wrong, event]).toHaveLength(4);
  });

  it('isTrustedSender is false without a window', () => {
    expect(isTrustedSender(eventFrom(window.webContents, window.webContents.mainFrame), undefined)).toBe(false);
  });

  it('forwards core events to the window, and stops when unsubscribed', () => {
    const stop = forwardEvents(core.events, () => window as unknown as ElectronWindow);
    core.app.put({ kind: 'import', subject: null, text: 'Importing new transcripts', place: 'telemetry' });
    expect(window.webContents.sent).toEqual([{ channel: EVENT_CHANNEL, message: { name: 'app.status', payload: core.status } }]);
    expect(core.status).toMatchObject({ state: 'working', message: 'Importing new transcripts' });
    stop();
    core.app.drop('import');
    expect(window.webContents.sent).toHaveLength(1);
  });

  it('does not send to a destroyed window', () => {
    const stop = forwardEvents(core.events, () => window as unknown as ElectronWindow);
    window.webContents.destroyed = true;
    core.app.put({ kind: 'import', subject: null, text: 'Importing new transcripts', place: 'telemetry' });
    expect(window.webContents.sent).toHaveLength(0);
    stop();
  });
});
