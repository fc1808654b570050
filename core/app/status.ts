import type { AppStatus } from '../api/index.js';

/** The owner's one status (idle, working, error; paused or not), announced on every change. */
export class AppState {
  readonly startedAt = Date.now();
  #status: AppStatus = { state: 'idle', message: 'Ready', paused: false };
  readonly #announce: (status: AppStatus) => void;

  constructor(announce: (status: AppStatus) => void) {
    this.#announce = announce;
  }

  get status(): AppStatus {
    return this.#status;
  }

  get uptimeMs(): number {
    return Date.now() - this.startedAt;
  }

  set(next: Partial<AppStatus>): AppStatus {
    this.#status = { ...this.#status, ...next };
    this.#announce(this.#status);
    return this.#status;
  }

  /** What an idle owner says: paused, or ready. */
  idleMessage(): string {
    return this.#status.paused ? 'Paused' : 'Ready';
  }
}
