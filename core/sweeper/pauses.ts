import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { CuratorPause, REMOTE_CURATORS } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { queueWrite } from './file-queue.js';
import { keepAside, withoutAddresses } from './state.js';

/** The contract's shape, with the stored message bounded. */
/** `keyMissing`: an auth pause because no key was there to send (lifted once one is), not a rejected key. */
const StoredPause = CuratorPause.extend({ message: z.string().max(500), since: z.number().int().nonnegative(), keyMissing: z.boolean().optional() });
type StoredPause = z.infer<typeof StoredPause>;
export type CuratorPause = Omit<StoredPause, 'keyMissing'>;

/** The contract's shape: how the pause was recorded stays in the record. */
function shown(pause: StoredPause): CuratorPause {
  const { keyMissing: _keyMissing, ...view } = pause;
  return view;
}

const PausesFile = z.strictObject({ version: z.literal(1), pauses: z.array(StoredPause).max(8) });

export const PAUSES_FILE = 'sweeper-pauses.json';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Doubt means not spending: every remote curator held, with a message saying why and how to resume. */
function damaged(keptAs: string | null, now: number): CuratorPause[] {
  const where = keptAs ? ` (kept as ${keptAs})` : '';
  const message = `Steward could not read its record of paused curators${where}. Remote curation waits until you choose the curator again or run Sweep now.`;
  return REMOTE_CURATORS.map((curator) => ({ curator, reason: 'record_damaged' as const, message, since: now }));
}

/**
 * Curator pauses (spend limit, refused key) survive a restart: otherwise every restart would spend one
 * more refused model call before pausing again. A missing file means no pause; a damaged or unreadable
 * one is kept aside and every remote curator stays paused until the person resumes it, since a lost
 * record could otherwise spend again after a spend-limit pause.
 */
export class CuratorPauses {
  readonly #file: string;
  readonly #logger: Logger | undefined;
  readonly #pauses = new Map<CuratorPause['curator'], StoredPause>();

  constructor(home: string, logger?: Logger, now = Date.now()) {
    this.#file = join(home, PAUSES_FILE);
    this.#logger = logger;
    // A record written before messages lost their addresses shows none either.
    for (const pause of this.#load(logger, now)) this.#pauses.set(pause.curator, { ...pause, message: withoutAddresses(pause.message) });
  }

  #load(logger: Logger | undefined, now: number): StoredPause[] {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      logger?.warn('curator pauses unreadable; remote curators stay paused', { code: errorCode(error) });
      return damaged(null, now);
    }
    const parsed = PausesFile.safeParse(parseJson(text));
    if (parsed.success) return parsed.data.pauses;
    const keptAs = keepAside(this.#file, logger, now);
    logger?.warn('curator pauses damaged; kept aside, remote curators stay paused', { code: 'pauses_corrupt', keptAside: keptAs !== null });
    const pauses = damaged(keptAs, now);
    this.#pauses.clear();
    for (const pause of pauses) this.#pauses.set(pause.curator, pause);
    if (keptAs !== null) this.#save();
    return pauses;
  }

  /**
   * Queued off the event loop (file-queue.ts), in order; the map here is what every read sees. The
   * sweeper's stop waits for it to land. A failed write is logged: the pause holds in this process.
   */
  #save(): void {
    const file = this.#file;
    const text = this.#pauses.size === 0 ? null : `${JSON.stringify({ version: 1, pauses: [...this.#pauses.values()] }, null, 2)}\n`;
    queueWrite(file, () => (text === null ? rm(file, { force: true }) : writeFileAtomic(file, text, { mode: 0o600 }))).catch((error: unknown) => {
      this.#logger?.warn('curator pauses could not be written', { code: errorCode(error) });
    });
  }

  get(curator: CuratorPause['curator']): CuratorPause | undefined {
    const pause = this.#pauses.get(curator);
    return pause && shown(pause);
  }

  /** Whether the curator's pause is for a key that was missing (not one the provider rejected). */
  keyMissing(curator: CuratorPause['curator']): boolean {
    return this.#pauses.get(curator)?.keyMissing === true;
  }

  all(): CuratorPause[] {
    return [...this.#pauses.values()].map(shown);
  }

  /** The message keeps what was refused and why, never the endpoint's address (as sweep-state.json). */
  set(pause: StoredPause): void {
    this.#pauses.set(pause.curator, { ...pause, message: withoutAddresses(pause.message) });
    this.#save();
  }

  lift(curator: CuratorPause['curator']): void {
    if (this.#pauses.delete(curator)) this.#save();
  }

  clear(): void {
    if (this.#pauses.size === 0) return;
    this.#pauses.clear();
    this.#save();
  }
}
