import { describe, expect, it } from 'vitest';
import { countOf, nounFor } from '../../../core/api/index.js';

describe('how the owner says a count', () => {
  it('agrees the noun with the number through Intl.PluralRules', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(1204, 'message')).toBe('1,204 messages');
    expect(countOf(2, 'repository', 'repositories')).toBe('2 repositories');
    expect(nounFor(1, 'candidate')).toBe('candidate');
  });
});
