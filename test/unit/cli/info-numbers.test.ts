import { describe, expect, it } from 'vitest';
import { storedLine } from '../../../core/cli/commands/info.js';
import { formatSearch } from '../../../core/cli/commands/search.js';

/*
 * QA: human-readable output mixed number formats ("114594 of 120,000 parts"). Every count a person
 * reads is written with separators; --json keeps numbers.
 */
describe('numbers in what a person reads', () => {
  it("info's stored line writes every count with separators, the projects left empty too", () => {
    const line = storedLine({ conversations: 12_345, messages: 1_234_567, projects: 1_200, projectsEmpty: 1_500, lastCheckedAt: null });
    expect(line).toBe("Stored: 1,234,567 messages in 12,345 conversations from 1,200 projects (1,500 more have no conversations left); the agents' folders were never checked");
  });

  it("a search's indexing note writes both figures with separators", () => {
    const indexing = { phase: 'backfill', indexedParts: 114_594, totalParts: 120_000 } as const;
    const text = formatSearch({ hits: [], sessions: [], indexing } as unknown as Parameters<typeof formatSearch>[0]);
    expect(text).toContain('still being indexed (114,594 of 120,000 parts)');
  });
});
