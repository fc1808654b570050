import type { Notification, NotificationConstructorOptions } from 'electron';
import type { AppStatus, Logger, StatusItem, StatusKind, StatusPlace } from '../core/index.js';

/**
 * How often Steward may interrupt: an item notifies once (and again only after `perItemMs`, so a
 * flapping provider does not nag), and at most `maxPerWindow` notifications show per `windowMs`.
 */
export interface NotificationPolicy {
  perItemMs: number;
  windowMs: number;
  maxPerWindow: number;
}

export const DEFAULT_NOTIFICATION_POLICY: NotificationPolicy = { perItemMs: 6 * 60 * 60_000, windowMs: 15 * 60_000, maxPerWindow: 2 };

/** Only what needs the person notifies; work in hand and a single failed run stay in the tray and the panel. */
const HINTS: Partial<Record<StatusKind, string>> = {
  conflict: 'Open Steward to choose which cache to keep.',
  'curator-paused': "Open Steward's Settings to fix the account or key; note curation waits until then.",
  'provider-failing': 'Open Steward to see what failed; imports keep retrying.',
  'plan-waiting': "Open Steward's Maintenance place to read the plan and confirm it, or dismiss it.",
  'files-unreadable': "Open Steward's Telemetry to see which files; replace or move them, and Steward reads them again once they change.",
};

export interface NotifierDeps {
  Notification: { isSupported(): boolean; new (options: NotificationConstructorOptions): Notification };
  platform: NodeJS.Platform;
  logger: Logger;
  /** Shows the window, at the place where the matter is dealt with. */
  open(place?: StatusPlace): void;
  now?: () => number;
}

const keyOf = (item: StatusItem) => `${item.kind}\u0000${item.subject ?? ''}`;

function bound(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One notification for what arrived together: a single item says what and where; several are listed. */
export function notificationFor(items: readonly StatusItem[], platform: NodeJS.Platform): NotificationConstructorOptions {
  const [first] = items;
  const single = items.length === 1 && first !== undefined;
  return {
    title: single ? bound(first.text, 120) : `${items.length} things need you`,
    body: single ? (HINTS[first.kind] ?? 'Open Steward to see what needs you.') : bound(items.map((item) => `• ${item.text}`).join('\n'), 400),
    // Buttons exist on macOS only; elsewhere the notification itself is the action.
    ...(platform === 'darwin' ? { actions: [{ type: 'button' as const, text: 'Open' }] } : {}),
  };
}

/**
 * Native notifications for what needs the person, as it appears in the status: new attention items
 * only, coalesced, rate-limited; a click (or Open) shows the window where the matter is dealt with.
 * What the limit holds back is counted in the log and stays in the tray and the panel.
 */
export class AttentionNotifier {
  readonly #deps: NotifierDeps;
  readonly #policy: NotificationPolicy;
  readonly #now: () => number;
  #present = new Set<string>();
  readonly #lastNotified = new Map<string, number>();
  #shownAt: number[] = [];
  /** Electron drops a notification's handlers when it is collected: keep each until it closes. */
  readonly #live = new Set<Notification>();

  constructor(deps: NotifierDeps, policy: NotificationPolicy = DEFAULT_NOTIFICATION_POLICY) {
    this.#deps = deps;
    this.#policy = policy;
    this.#now = deps.now ?? Date.now;
  }

  update(status: AppStatus): void {
    const now = this.#now();
    const arrivals = status.attention.filter((item) => !this.#present.has(keyOf(item)));
    this.#present = new Set(status.attention.map(keyOf));
    const fresh = arrivals.filter((item) => now - (this.#lastNotified.get(keyOf(item)) ?? Number.NEGATIVE_INFINITY) >= this.#policy.perItemMs);
    if (fresh.length === 0) return;
    for (const item of fresh) this.#lastNotified.set(keyOf(item), now);
    this.#shownAt = this.#shownAt.filter((at) => now - at < this.#policy.windowMs);
    if (this.#shownAt.length >= this.#policy.maxPerWindow) {
      this.#deps.logger.info('notification held back by the rate limit', { items: fresh.length });
      return;
    }
    if (!this.#deps.Notification.isSupported()) return;
    this.#shownAt.push(now);
    this.#show(fresh);
  }

  #show(items: readonly StatusItem[]): void {
    const notification = new this.#deps.Notification(notificationFor(items, this.#deps.platform));
    const place = items[0]?.place ?? undefined;
    const open = () => this.#deps.open(place);
    const forget = () => this.#live.delete(notification);
    notification.on('click', open);
    notification.on('action', open);
    notification.on('close', forget);
    notification.on('failed', () => {
      forget();
      this.#deps.logger.warn('notification failed to show');
    });
    this.#live.add(notification);
    notification.show();
  }
}
