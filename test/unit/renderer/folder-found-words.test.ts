import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS, type Result } from '../../../core/api/index.js';
import { folderFoundWords } from '../../../core/api/root-words.js';
import { Folders } from '../../../renderer/src/places/home/Watched.js';

type Provider = Result<'Providers.Roots'>['providers'][number];

/**
 * Panel QA (a new user): an OpenClaw folder that exists but holds no transcript read "Found", as one
 * full of conversations does. One rule says a found folder empty, for every agent.
 */
const provider = (id: Provider['provider'], folders: Array<{ path: string; exists: boolean }>): Provider => ({
  provider: id,
  label: id,
  enabled: true,
  roots: [{ key: 'roots', label: id, holds: 'transcripts', env: 'STEWARD_X_ROOTS', watched: folders, source: 'environment', configured: null, detected: [] }],
});
const textOf = (html: string) => html.replace(/<\/?(wbr|span)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a watched folder found, with or without conversations', () => {
  it('one rule: not there, there with no transcript, there with transcripts (unknown yet: found)', () => {
    expect(folderFoundWords(false, 0)).toBe('Not found');
    expect(folderFoundWords(false, undefined)).toBe('Not found');
    expect(folderFoundWords(true, 0)).toBe('Found, no conversations yet');
    expect(folderFoundWords(true, 3)).toBe('Found');
    expect(folderFoundWords(true, undefined)).toBe('Found');
  });

  it.each(PROVIDER_IDS)('Home and Getting started say an empty %s folder so', (id) => {
    const folders = [
      { path: '/abs/there', exists: true },
      { path: '/abs/gone', exists: false },
    ];
    const empty = textOf(renderToStaticMarkup(createElement(Folders, { provider: provider(id, folders), files: 0 })));
    expect(empty).toContain('Found, no conversations yet /abs/there');
    expect(empty).toContain('Not found /abs/gone');
    const full = textOf(renderToStaticMarkup(createElement(Folders, { provider: provider(id, folders), files: 2 })));
    expect(full).toMatch(/^Found \/abs\/there/);
    expect(full).not.toContain('no conversations');
  });
});
