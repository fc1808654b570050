import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { localDay } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { queueWrite } from './file-queue.js';

const BudgetFile = z.strictObject({ version: z.literal(1), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), calls: z.number().int().nonnegative() });

export const BUDGET_FILE = 'sweeper-budget.json';

/**
 * The daily budget of model calls across every project (spec 001's cost bound, made visible). The
 * count survives a restart and starts again at the user's midnight; a raise takes effect at once.
 */
export class CallBudget {
  readonly #file: string;
  readonly #now: () => number;
  readonly #logger: Logger | undefined;
  /** The count as last read or spent: a spend still being written reads as written. */
  #known: { date: string; calls: number } | undefined;

  constructor(home: string, now: () => number, logger?: Logger) {
    this.#file = join(home, BUDGET_FILE);
    this.#now = now;
    this.#logger = logger;
  }

  /** Model calls spent today (local date). */
  usedToday(): number {
    this.#known ??= this.#read();
    return this.#known.date === localDay(this.#now()) ? this.#known.calls : 0;
  }

  #read(): { date: string; calls: number } {
    try {
      const parsed = BudgetFile.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // No file yet, or an unreadable one: nothing spent that this process can know of.
    }
    return { date: '', calls: 0 };
  }

  exhausted(limit: number): boolean {
    return this.usedToday() >= limit;
  }

  spend(calls: number): void {
    if (calls <= 0) return;
    const next = { version: 1, date: localDay(this.#now()), calls: this.usedToday() + calls };
    this.#known = next;
    // Off the event loop, in order (file-queue.ts); the sweeper's stop waits for it to land.
    const text = `${JSON.stringify(next)}\n`;
    queueWrite(this.#file, () => writeFileAtomic(this.#file, text, { mode: 0o600 })).catch((error: unknown) => {
      this.#logger?.warn('model call count could not be written', { code: errorCode(error) });
    });
  }
}
