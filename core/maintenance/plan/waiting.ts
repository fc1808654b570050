import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { WaitingPlan } from '../../api/index.js';
import { HOME_FILES, PRIVATE_FILE_MODE } from '../../config/index.js';
import type { Logger } from '../../log/index.js';

/**
 * The maintenance room's own file of plans waiting for a person, beside its registry. Not in the
 * registry: an agent's refused apply must leave the registry exactly as it was (none is created).
 */
export const WAITING_LIMIT = 32;
const WAITING_VERSION = 1;

/** Entries are checked one by one, so one damaged entry (or one a newer Steward wrote) loses only itself. */
const WaitingFile = z.object({ version: z.literal(WAITING_VERSION), plans: z.array(z.unknown()).max(1_000) });

/**
 * Plans an agent could not confirm. Read from the file on every look, so a plan recorded by another
 * process (`steward mcp` with no owner running opens the stores in-process) is seen by the owner;
 * every process that writes holds the single-owner lock, so writes never interleave.
 */
export class WaitingBook {
  readonly #file: string;
  readonly #logger: Logger;

  constructor(home: string, logger: Logger) {
    this.#file = join(home, HOME_FILES.waitingPlans);
    this.#logger = logger;
  }

  /** Oldest asked first, as they were recorded. */
  list(): WaitingPlan[] {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#logger.warn('waiting plans unreadable', { code: (error as NodeJS.ErrnoException).code ?? 'internal' });
      return [];
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = null;
    }
    const parsed = WaitingFile.safeParse(raw);
    if (!parsed.success) {
      this.#logger.warn('waiting plans unparseable; read as none', {});
      return [];
    }
    return parsed.data.plans.flatMap((p) => {
      const plan = WaitingPlan.safeParse(p);
      return plan.success ? [plan.data] : [];
    });
  }

  /** Records (or refreshes) one plan; the oldest go first beyond the bound. */
  record(plan: WaitingPlan): void {
    const plans = [...this.list().filter((w) => w.waitingId !== plan.waitingId), plan].slice(-WAITING_LIMIT);
    this.#write(plans);
  }

  /** Removes the plans `drop` names; true when any was removed (nothing is written otherwise). */
  remove(drop: (w: WaitingPlan) => boolean): boolean {
    const plans = this.list();
    const kept = plans.filter((w) => !drop(w));
    if (kept.length === plans.length) return false;
    this.#write(kept);
    return true;
  }

  #write(plans: WaitingPlan[]): void {
    writeFileAtomic.sync(this.#file, `${JSON.stringify({ version: WAITING_VERSION, plans })}\n`, { mode: PRIVATE_FILE_MODE, fsync: true });
  }
}
