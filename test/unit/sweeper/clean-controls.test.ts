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

  it('removes bidi embedding, override and isolate controls ("Trojan Source" reordering)', () => {
    const controls = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of controls) expect(clean(`fix ${c}the parser${c} today`)).toBe('fix the parser today');
    expect(clean('access \u202e\u2066// check later\u2069\u2066 if admin')).toBe('access // check later if admin');
  });

  it('keeps right-to-left text and the marks that only direct it', () => {
    const rtl = 'תקן את המנתח — أصلح المحلل';
    expect(clean(rtl)).toBe(rtl);
    expect(clean(`version 2.0\u200e of ${rtl}\u200f`)).toBe(`version 2.0\u200e of ${rtl}\u200f`);
  });

  it('keeps newlines and tabs, and turns CRLF into a newline', () => {
    expect(clean('a\tb\r\nc')).toBe('a\tb\nc');
  });
});
