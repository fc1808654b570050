import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WaitingPlan } from '../../../core/api/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { HOME_FILES } from '../../../core/config/index.js';
import { WAITING_LIMIT, WaitingBook } from '../../../core/maintenance/plan/waiting.js';
import { tempHome, type TempHome } from '../../support/home.js';

const plan = (n: number): WaitingPlan => ({ waitingId: `wait_${n}`, request: { repo: `acme/r${n}` }, repo: `github.com/acme/r${n}`, askedAt: n, needs: ['start at login'] });

describe('plans waiting for a person, on disk', () => {
  let home: TempHome;
  afterEach(() => home?.cleanup());

  it('keeps the newest within the bound, private to the user, and a second book on the same home sees them', () => {
    home = tempHome('steward-waiting-book-');
    const book = new WaitingBook(home.dir, createMemoryLogger());
    for (let n = 1; n <= WAITING_LIMIT + 5; n += 1) book.record(plan(n));
    book.record(plan(10));
    const other = new WaitingBook(home.dir, createMemoryLogger()).list();
    expect(other).toHaveLength(WAITING_LIMIT);
    expect(other.map((w) => w.waitingId).slice(0, 2)).toEqual(['wait_6', 'wait_7']);
    expect(other.at(-1)!.waitingId).toBe('wait_10');
    expect(statSync(join(home.dir, HOME_FILES.waitingPlans)).mode & 0o777).toBe(0o600);
  });

  it('changes nothing for a name it does not hold, and reads damage as less rather than failing', () => {
    home = tempHome('steward-waiting-book-');
    const book = new WaitingBook(home.dir, createMemoryLogger());
    expect(book.remove(() => false)).toBe(false);
    expect(existsSync(join(home.dir, HOME_FILES.waitingPlans))).toBe(false);
    book.record(plan(1));
    const before = readFileSync(join(home.dir, HOME_FILES.waitingPlans), 'utf8');
    expect(book.remove((w) => w.waitingId === 'wait_9')).toBe(false);
    expect(readFileSync(join(home.dir, HOME_FILES.waitingPlans), 'utf8')).toBe(before);

    writeFileSync(join(home.dir, HOME_FILES.waitingPlans), JSON.stringify({ version: 1, plans: [plan(2), { waitingId: 7 }] }));
    expect(book.list().map((w) => w.waitingId)).toEqual(['wait_2']);
    writeFileSync(join(home.dir, HOME_FILES.waitingPlans), '{"version":1,"pla');
    expect(book.list()).toEqual([]);
  });
});
