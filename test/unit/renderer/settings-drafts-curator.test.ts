import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeyField, keyDraftOf } from '../../../renderer/src/places/settings/ApiKeyField.js';
import { CuratorForm, type SweeperView } from '../../../renderer/src/places/settings/CuratorForm.js';
import { clearDrafts, hasUnsavedSettings, keepDraft } from '../../../renderer/src/places/settings/drafts.js';

// The curator form and the API key field lost what was typed when the person left Settings and came
// back; the other Settings forms kept it, said unsaved, with Discard changes. A typed key is kept the
// same way, in the page's memory only: never in localStorage or sessionStorage, which outlive the page.

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|’/g, "'").replace(/\s+/g, ' ').trim();
const absent = { present: false, source: 'none', envVar: 'ANTHROPIC_API_KEY' } as const;
const VIEW = {
  curator: 'offline',
  model: 'claude-haiku-4-5',
  baseUrl: null,
  apiKeys: { anthropic: absent, 'openai-compatible': { ...absent, envVar: 'OPENAI_API_KEY' } },
  keyStore: { kind: 'keychain', writable: true, message: null },
  paused: [],
} as unknown as SweeperView;
const curatorForm = (view = VIEW) => renderToStaticMarkup(createElement(CuratorForm, { view, onSaved: () => undefined }));
const keyField = (curator: 'anthropic' | 'openai-compatible') => renderToStaticMarkup(createElement(ApiKeyField, { curator, view: VIEW, onChanged: () => undefined }));

afterEach(() => clearDrafts());

describe('the curator form, when the person comes back to Settings', () => {
  it('shows the curator, model and base URL chosen before leaving, said unsaved, with Discard changes', () => {
    keepDraft('curator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://localhost:11434/v1' });
    const html = curatorForm();
    expect(html).toMatch(/checked="" value="openai-compatible"/);
    expect(html).toMatch(/value="llama3.2"/);
    expect(html).toMatch(/value="http:\/\/localhost:11434\/v1"/);
    expect(text(html)).toContain('Not saved yet');
    expect(text(html)).toContain('Discard changes');
  });

  it('with nothing kept, shows what is saved and no unsaved mark', () => {
    const html = curatorForm();
    expect(html).toMatch(/checked="" value="offline"/);
    expect(text(html)).not.toContain('Not saved yet');
  });

  it('an edit that says what is saved (spaces around it) is no edit', () => {
    keepDraft('curator', { curator: 'anthropic', model: ' claude-haiku-4-5 ' });
    expect(text(curatorForm({ ...VIEW, curator: 'anthropic' }))).not.toContain('Not saved yet');
  });
});

describe('a typed API key, when the person comes back to Settings', () => {
  it('is still there, said unsaved (in this window only), with Discard changes, and closing the page asks', () => {
    keepDraft(keyDraftOf('anthropic'), { key: 'sk-ant-typed-not-saved' });
    const said = text(keyField('anthropic'));
    expect(said).toContain('Not saved yet');
    expect(said).toContain('Discard changes');
    expect(said).toContain('only while this window is open');
    expect(hasUnsavedSettings()).toBe(true);
  });

  it("stays with its own curator: another curator's field starts empty", () => {
    keepDraft(keyDraftOf('anthropic'), { key: 'sk-ant-typed-not-saved' });
    const html = keyField('openai-compatible');
    expect(html).not.toContain('sk-ant-typed-not-saved');
    expect(text(html)).not.toContain('Not saved yet');
  });

  it('only blanks typed is nothing to keep', () => {
    keepDraft(keyDraftOf('anthropic'), { key: '   ' });
    expect(text(keyField('anthropic'))).not.toContain('Not saved yet');
  });

  it('no Settings code keeps anything in storage that outlives the page', () => {
    const dir = join(import.meta.dirname, '../../../renderer/src/places/settings');
    for (const file of readdirSync(dir).filter((f) => /\.tsx?$/.test(f))) {
      // The code, not its comments (which say why not).
      const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/localStorage|sessionStorage|indexedDB|document\.cookie/);
    }
  });
});
