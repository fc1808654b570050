import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TelemetryEntry } from '../../../core/api/index.js';
import { scheduledTotal, whatOf } from '../../../renderer/src/places/telemetry/sentences.js';
import { tickOf } from '../../../renderer/src/places/telemetry/ticks.js';
import { Totals } from '../../../renderer/src/places/telemetry/Totals.js';

// Panel QA: "Check now" (Sweep.Tick) showed as a "Scheduled check", and "Imports on request" stayed 0.
// A tick's row says who started it (`trigger`); a row from before it did reads as scheduled.

const stats = { provider: 'claude', discovered: 3, read: 0, unchanged: 3, failed: 0, partsWritten: 0, durationMs: 4, failedLines: 0 };
let id = 0;
const row = (data: Record<string, unknown>, kind = 'sweep.tick'): TelemetryEntry => ({ id: ++id, at: Date.UTC(2026, 11, 5, 17) + id, kind, data });
const byHand = row({ kind: 'scheduled', unchanged: true, trigger: 'hand', providers: [stats] });
const bySchedule = row({ kind: 'scheduled', unchanged: true, trigger: 'schedule', providers: [stats] });
const old = row({ kind: 'scheduled', unchanged: true, providers: [stats] });
const imported = row({ kind: 'manual', providers: [stats] }, 'backfill.run');
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a check by hand in Telemetry', () => {
  it('is called a check on request; a scheduled one, and one recorded before the trigger was, a scheduled check', () => {
    expect(whatOf(byHand)).toBe('Check on request');
    expect(whatOf(bySchedule)).toBe('Scheduled check');
    expect(whatOf(old)).toBe('Scheduled check');
    expect(whatOf(imported)).toBe('Import on request');
    expect(tickOf(byHand)?.byHand).toBe(true);
    expect(tickOf(old)?.byHand).toBe(false);
  });

  it('is counted on request in the totals, not as a scheduled check', () => {
    expect(scheduledTotal([byHand, bySchedule, old])).toBe('2 checks, none found anything new');
    const totals = textOf(renderToStaticMarkup(createElement(Totals, { entries: [byHand, bySchedule, imported] })));
    expect(totals).toContain('Scheduled checks 1 check, which found nothing new');
    expect(totals).toContain('Checks on request 1 check');
    expect(totals).toContain('Imports on request 1 import');
  });
});
