import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NoToken } from '../../../renderer/src/shell/NoToken.js';

const gate = (expired: boolean, origin: string) => renderToStaticMarkup(createElement(NoToken, { expired, origin }));

describe('the page a browser not let in is shown', () => {
  it('gives the private link as this Steward’s address, on the port it runs on', () => {
    // `steward serve --port 0`, or 47470 taken: the panel runs on another port.
    for (const expired of [true, false]) {
      const html = gate(expired, 'http://127.0.0.1:51234');
      expect(html).toContain('<code>http://127.0.0.1:51234/#token=…</code>');
      expect(html).not.toContain('47470');
    }
  });

  it('a page with no web address of its own (opened from a file) is given the default one', () => {
    expect(gate(true, 'null')).toContain('<code>http://127.0.0.1:47470/#token=…</code>');
  });

  // QA 11: a link copied from a terminal that wrapped it carries a cut key; the page named only a
  // rotation or another Steward, never the likeliest cause on a first visit.
  it('says a refused link may have been copied incompletely', () => {
    expect(gate(true, 'http://127.0.0.1:47470')).toMatch(/not copied whole/);
  });
});
