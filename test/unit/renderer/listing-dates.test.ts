import { describe, expect, it } from 'vitest';
import { datesWords } from '../../../renderer/src/places/home/listing-words.js';

const day = (at: number) => new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' });
const copiedAt = Date.UTC(2026, 11, 3, 12);
const written = { oldestAt: Date.UTC(2025, 2, 1, 12), newestAt: Date.UTC(2025, 5, 30, 12) };

describe('the dates Home’s listing gives each agent', () => {
  it('are the imported messages’ own once any were imported, not the files’ (a copied history’s files are dated the day of the copy)', () => {
    expect(datesWords({ files: 2, oldestAt: copiedAt, newestAt: copiedAt, stored: written })).toBe(`messages imported: ${day(written.oldestAt)} – ${day(written.newestAt)}`);
  });

  it('say they are the files’ dates when nothing was imported yet', () => {
    expect(datesWords({ files: 2, oldestAt: copiedAt - 86_400_000, newestAt: copiedAt })).toBe(`files dated ${day(copiedAt - 86_400_000)} – ${day(copiedAt)}`);
    expect(datesWords({ files: 0, oldestAt: null, newestAt: null })).toBe('—');
  });
});
