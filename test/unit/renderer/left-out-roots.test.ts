import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { RootKindField } from '../../../renderer/src/places/settings/TranscriptFolders.js';

type Kind = Result<'Providers.Roots'>['providers'][number]['roots'][number];

const kind = (leftOut?: Kind['leftOut']): Kind => ({
  key: 'roots',
  label: 'Claude Code',
  holds: 'projects/',
  env: 'STEWARD_CLAUDE_ROOTS',
  watched: [{ path: '/abs/claude', exists: true }],
  source: 'config',
  configured: ['/abs/claude', '~/work/claude'],
  detected: [],
  ...(leftOut && { leftOut }),
});
const textOf = (html: string) => html.replace(/<\/?(code|wbr|span)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();
const render = (k: Kind) => textOf(renderToStaticMarkup(createElement(RootKindField, { id: 'providers.claude.roots', kind: k, draft: '', onDraft: () => undefined, problem: undefined })));

/** A `~` root Steward left out because HOME is not a full path (Providers.Roots' leftOut), said in Settings where the folders are. */
describe('a folder Steward left out, in Settings', () => {
  it('names the folder as written, and why, in plain words with the way out', () => {
    const text = render(kind([{ path: '~/work/claude', reason: 'home_not_full_path' }]));
    expect(text).toContain('~/work/claude is left out: your home folder (HOME) is not a full path');
    expect(text).toMatch(/Set HOME to a full path.*, or write the folder in full\./);
  });

  it('says nothing of it when none was left out', () => {
    expect(render(kind())).not.toMatch(/left out/);
  });
});
