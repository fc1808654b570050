import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { CuratorPause } from '../api/index.js';

/** The contract's shape, with the stored message bounded. */
const CuratorPauseSchema = CuratorPause.extend({ message: z.string().max(500), since: z.number().int().nonnegative() });
export type CuratorPause = z.infer<typeof CuratorPauseSchema>;

const PausesFile = z.strictObject({ version: z.literal(1), pauses: z.array(CuratorPauseSchema).max(8) });

export const PAUSES_FILE = 'sweeper-pauses.json';

/**
 * Curator pauses (spend limit, refused key) survive a restart: otherwise every restart would spend one
 * more refused model call before pausing again. A missing or unreadable file means no pause.
 */
export class CuratorPauses {
  readonly #file: string;
  readonly #pauses = new Map<CuratorPause['curator'], CuratorPause>();

  constructor(home: string) {
    this.#file = join(home, PAUSES_FILE);
    for (const pause of this.#load()) this.#pauses.set(pause.curator, pause);
  }

  #load(): CuratorPause[] {
    try {
      const parsed = PausesFile.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')));
      return parsed.success ? parsed.data.pauses : [];
    } catch {
      return [];
    }
  }

  #save(): void {
    if (this.#pauses.size === 0) return rmSync(this.#file, { force: true });
    writeFileAtomic.sync(this.#file, `${JSON.stringify({ version: 1, pauses: [...this.#pauses.values()] }, null, 2)}\n`, { mode: 0o600 });
  }

  get(curator: CuratorPause['curator']): CuratorPause | undefined {
    return this.#pauses.get(curator);
  }

  all(): CuratorPause[] {
    return [...this.#pauses.values()];
  }

  set(pause: CuratorPause): void {
    this.#pauses.set(pause.curator, pause);
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
