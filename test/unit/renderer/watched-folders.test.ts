import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { Folders } from '../../../renderer/src/places/home/Watched.js';

type Provider = Result<'Providers.Roots'>['providers'][number];
type Kind = Provider['roots'][number];

const kind = (source: Kind['source'], path: string): Kind => ({
  key: 'roots',
  label: 'Codex CLI',
  holds: 'sessions/',
  env: 'STEWARD_CODEX_ROOTS',
  watched: [{ path, exists: false }],
  source,
  configured: null,
  detected: [],
});
const render = (k: Kind) => renderToStaticMarkup(createElement(Folders, { provider: { provider: 'codex', label: 'Codex CLI', enabled: true, roots: [k] } }));
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').trim();

/** Home's agents watched: a folder set by hand that is not there is a typo to see, a default one only an agent not installed. */
describe('the folders an agent is watched in, on Home', () => {
  it('marks a folder the person set that is not found, and names what set it', () => {
    const html = render(kind('environment', '/nonexistent'));
    expect(html).toContain('<span class="badge badge--warn">Not found</span>');
    expect(textOf(html)).toContain('set by STEWARD_CODEX_ROOTS');
    expect(textOf(render(kind('config', '/typo')))).toContain('set in Settings');
  });

  it('leaves a default folder that is not there as quiet as before', () => {
    const html = render(kind('default', '/home/u/.codex'));
    expect(html).toContain('<span class="badge badge--neutral">Not found</span>');
    expect(textOf(html)).not.toContain('set ');
  });
});
