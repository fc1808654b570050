import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Notification as ElectronNotification } from 'electron';
import { STATUS_KINDS, type StatusItem, type StatusPlace } from '../../../core/index.js';
import { composeStatus } from '../../../core/app/status.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { AttentionNotifier, DEFAULT_NOTIFICATION_POLICY, notificationFor } from '../../../electron/notifications.js';
import { Notification, resetElectron } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const MINUTE = 60_000;
const conflict = (n: number): StatusItem => ({ kind: 'conflict', subject: `ic_${n}`, text: `A cache conflict over github.com/acme/repo${n} needs your choice`, place: 'conflicts' });
const curatorPaused: StatusItem = { kind: 'curator-paused', subject: 'anthropic', text: 'The Anthropic curator is paused: credit balance too low', place: 'settings' };
const failing: StatusItem = { kind: 'provider-failing', subject: 'claude', text: 'Claude transcripts have failed to import 3 times in a row', place: 'telemetry' };

function notifier(platform: NodeJS.Platform = 'linux') {
  let now = Date.parse('2026-12-01T09:00:00Z');
  const opened: Array<StatusPlace | undefined> = [];
  const logger = createMemoryLogger();
  const n = new AttentionNotifier({ Notification: ElectronNotification, platform, logger, open: (place) => void opened.push(place), now: () => now });
  return { n, opened, logger, advance: (ms: number) => void (now += ms) };
}

const shown = () => Notification.instances.filter((x) => x.shown);

describe('notifications for what needs the person', () => {
  beforeEach(() => resetElectron());

  it('notifies a new attention item once, says what and where, and a click opens that place', () => {
    const { n, opened } = notifier();
    n.update(composeStatus(false, [curatorPaused]));
    n.update(composeStatus(false, [curatorPaused]));
    expect(shown()).toHaveLength(1);
    expect(shown()[0]!.options).toEqual({ title: curatorPaused.text, body: "Open Steward's Settings to fix the account or key; note curation waits until then." });
    shown()[0]!.emit('click');
    expect(opened).toEqual(['settings']);
  });

  it('tells what to do for every kind that needs the person, never only "see what needs you"', () => {
    const needing = STATUS_KINDS.filter((kind) => composeStatus(false, [{ kind, subject: 'x', text: kind, place: 'telemetry' }]).attention.length > 0);
    expect(needing).toContain('files-unreadable');
    for (const kind of needing) expect(notificationFor([{ kind, subject: 'x', text: kind, place: 'telemetry' }], 'linux').body, kind).not.toBe('Open Steward to see what needs you.');
  });

  it('never notifies work in hand or a single failed run', () => {
    const { n } = notifier();
    n.update(composeStatus(false, [{ kind: 'import', subject: null, text: 'Importing new transcripts', place: 'telemetry' }]));
    n.update(composeStatus(false, [{ kind: 'import-failed', subject: 'claude', text: 'Importing Claude transcripts failed', place: 'telemetry' }]));
    n.update(composeStatus(true, []));
    expect(Notification.instances).toHaveLength(0);
  });

  it('coalesces what arrives together into one notification', () => {
    const { n, opened } = notifier();
    n.update(composeStatus(false, [conflict(1), failing]));
    expect(shown()).toHaveLength(1);
    expect(shown()[0]!.options.title).toBe('2 things need you');
    expect(shown()[0]!.options.body).toBe(`• ${conflict(1).text}\n• ${failing.text}`);
    shown()[0]!.emit('click');
    expect(opened).toEqual(['conflicts']);
  });

  it('offers an Open button on macOS, which opens the place', () => {
    const { n, opened } = notifier('darwin');
    n.update(composeStatus(false, [conflict(1)]));
    expect(shown()[0]!.options.actions).toEqual([{ type: 'button', text: 'Open' }]);
    shown()[0]!.emit('action', {}, 0);
    expect(opened).toEqual(['conflicts']);
  });

  it('does not nag about an item that clears and comes back, until the per-item interval has passed', () => {
    const { n, advance } = notifier();
    n.update(composeStatus(false, [failing]));
    n.update(composeStatus(false, []));
    advance(30 * MINUTE);
    n.update(composeStatus(false, [failing]));
    expect(shown()).toHaveLength(1);
    n.update(composeStatus(false, []));
    advance(DEFAULT_NOTIFICATION_POLICY.perItemMs);
    n.update(composeStatus(false, [failing]));
    expect(shown()).toHaveLength(2);
  });

  it('shows at most two notifications per quarter hour, and counts what it held back in the log', () => {
    const { n, advance, logger } = notifier();
    n.update(composeStatus(false, [conflict(1)]));
    advance(MINUTE);
    n.update(composeStatus(false, [conflict(1), conflict(2)]));
    advance(MINUTE);
    n.update(composeStatus(false, [conflict(1), conflict(2), conflict(3)]));
    expect(shown().map((x) => x.options.title)).toEqual([conflict(1).text, conflict(2).text]);
    expect(logger.lines.join('\n')).toMatch(/notification held back by the rate limit.*items=1/);

    advance(DEFAULT_NOTIFICATION_POLICY.windowMs);
    n.update(composeStatus(false, [conflict(1), conflict(2), conflict(3), conflict(4)]));
    expect(shown().map((x) => x.options.title)).toEqual([conflict(1).text, conflict(2).text, conflict(4).text]);
  });

  it('stays quiet where the system has no notifications', () => {
    Notification.supported = false;
    const { n } = notifier();
    n.update(composeStatus(false, [conflict(1)]));
    expect(Notification.instances).toHaveLength(0);
  });
});
