import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TombstoneName } from '../../../renderer/src/places/settings/ForgottenList.js';

const name = (id: string, label: string | null) => renderToStaticMarkup(createElement(TombstoneName, { tombstone: { id, label } }));
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('a row of Settings’ forgotten list', () => {
  it('is called by its label when it kept one', () => {
    expect(text(name('p_0123456789abcdef', 'steward'))).toBe('steward');
  });

  it('forgotten with --not-stored (no label), it is called by its id, shortened, the whole id its tooltip', () => {
    const id = '0f8e2c4a-1b3d-4e5f-8a9b-0c1d2e3f4a5b';
    const html = name(id, null);
    expect(text(html)).toBe('0f8e2c4a-1b3…');
    expect(html).toContain(`title="${id}"`);
    expect(text(html)).not.toMatch(/Untitled|Unnamed/);
  });

  it('two unlabelled rows read apart; a short id is shown whole', () => {
    expect(text(name('p_0123456789abcdef', null))).toBe('p_0123456789…');
    expect(text(name('abc123', null))).toBe('abc123');
  });
});
