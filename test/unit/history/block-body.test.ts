import { describe, expect, it } from 'vitest';
import { withoutBlankEnds } from '../../../core/api/reading.js';

describe('withoutBlankEnds: a block body as a reader shows it', () => {
  it('drops empty lines at the ends, keeps a line of spaces (a diff’s blank context line), and says nothing for white space alone', () => {
    expect(withoutBlankEnds('Request was aborted\n\n')).toBe('Request was aborted');
    expect(withoutBlankEnds('\r\n\nfirst\n  indented')).toBe('first\n  indented');
    expect(withoutBlankEnds('@@ -1,3 +1,3 @@\n-a\n+b\n ')).toBe('@@ -1,3 +1,3 @@\n-a\n+b\n ');
    expect(withoutBlankEnds(' \ncontext first\n')).toBe(' \ncontext first');
    expect(withoutBlankEnds('  \n \t')).toBe('');
  });
});
