import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { localDay } from '../api/index.js';

const BudgetFile = z.strictObject({ version: z.literal(1), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), calls: z.number().int().nonnegative() });

export const BUDGET_FILE = 'sweeper-budget.json';

/**
 * The daily budget of model calls across every project (spec 001's cost bound, made visible). The
 * count survives a restart and starts again at the user's midnight; a raise takes effect at once.
 */
export class CallBudget {
  readonly #file: string;
  readonly #now: () => number;

  constructor(home: string, now: () => number) {
    this.#file = join(home, BUDGET_FILE);
    this.#now = now;
  }

  /** Model calls spent today (local date). */
  usedToday(): number {
    try {
      const parsed = BudgetFile.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')));
      return parsed.success && parsed.data.date === localDay(this.#now()) ? parsed.data.calls : 0;
    } catch {
      return 0;
    }
  }

  exhausted(limit: number): boolean {
    return this.usedToday() >= limit;
  }

  spend(calls: number): void {
    if (calls <= 0) return;
    const next = { version: 1, date: localDay(this.#now()), calls: this.usedToday() + calls };
    writeFileAtomic.sync(this.#file, `${JSON.stringify(next)}\n`, { mode: 0o600 });
  }
}
