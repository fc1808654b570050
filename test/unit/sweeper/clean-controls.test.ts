import { describe, expect, it } from 'vitest';
import { clean } from '../../../core/sweeper/clean.js';

describe('clean: what a transcript holds never reaches a note as a control', () => {
  it('removes a terminal-title sequence whole, not only its ends', () => {
    expect(clean('before \u001b]0;PWNED-TITLE\u0007after')).toBe('before after');
    expect(clean('before \u001b]2;x\u001b\\after')).toBe('before after');
  });

  it('removes C1 controls as it removes C0 ones, and keeps the letters beside them', () => {
    expect(clean('done over \u009b6n here\u0085 café')).toBe('done over 6n here café');
  });

  it('keeps newlines and tabs, and turns CRLF into a newline', () => {
    expect(clean('a\tb\r\nc')).toBe('a\tb\nc');
  });
});
