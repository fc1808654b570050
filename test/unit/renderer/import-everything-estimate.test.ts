import { describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { estimateMs, everythingWords } from '../../../renderer/src/places/home/window.js';

type Entries = Result<'Telemetry.Recent'>['entries'];
/** A sweep tick that read `read` files in `durationMs`. */
const tick = (read: number, durationMs: number): Entries[number] => ({ data: { providers: [{ read, durationMs }] } }) as unknown as Entries[number];

/**
 * QA: Home's Everything named one older file and said ~0.3 s, then the import read all 13 files (~1 s).
 * Backfill.Run with `all` reads every file of every enabled agent (driver.backfill: window null), so the
 * words say so and the estimate counts every one of them.
 */
describe('Home’s "Everything": the estimate and the words describe the import that runs', () => {
  it('estimates the time to read every file at the pace a tick read its own', () => {
    // 13 files read in 1.3 s: 100 ms each.
    expect(estimateMs(13, [tick(13, 1300)])).toBe(1300);
    expect(estimateMs(13, [tick(0, 50)])).toBeUndefined();
  });

  it('says the import reads every file, not only the older one it brings in', () => {
    const words = everythingWords(1, 2048, '1.3 s', 0, 0, 0, { reads: 13 });
    expect(words).toMatch(/^Everything: also import the 1 older file \(2(\.0)? KB\), reading all 13 files, about 1\.3 s$/);
  });

  it('says the reading with older messages in newer files too, with the estimate', () => {
    expect(everythingWords(0, 0, '1.3 s', 0, 9, 0, { reads: 13 })).toBe('Everything: also import up to 9 older messages in files changed within the window, reading all 13 files, about 1.3 s');
  });

  it('says nothing more when the older files are all there is to read', () => {
    expect(everythingWords(2, 2048, '3 s', 0, 0, 0, { reads: 2 })).toMatch(/^Everything: also import the 2 older files \(2(\.0)? KB\), about 3 s$/);
  });
});
