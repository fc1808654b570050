import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { NOTES_STATES, type NotesState } from '../../../core/api/index.js';
import { projectNotes } from '../../../core/sweeper/notes-state.js';
import { NOTES_LABELS, NotesLabel } from '../../../renderer/src/places/projects/NotesLabel.js';
import { CuratorForm, type SweeperView } from '../../../renderer/src/places/settings/CuratorForm.js';
import { clearDrafts } from '../../../renderer/src/places/settings/drafts.js';
import { NotesSettings } from '../../../renderer/src/places/settings/NotesSettings.js';
import type { ConfigView } from '../../../renderer/src/places/settings/saving.js';

// Panel QA (screen reader): every Projects row read "No notes yet : No notes yet; Sweep now …", and the
// Project notes section of Settings had two buttons both called only "Save".

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;|’/g, "'").replace(/\s+/g, ' ').trim();
const buttons = (html: string) => [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map((m) => text(m[1]!));

afterEach(() => clearDrafts());

describe('a project row’s notes label, read out', () => {
  const read = (state: NotesState, words: string) => text(renderToStaticMarkup(createElement(NotesLabel, { notes: { state, words } })));
  const never = { scratch: false, lastOutcome: null, lastError: null, nextAttemptAt: null, watermark: null };
  const gate = { enabled: true, ignored: false, paused: false, now: 2_000 };

  it('says "No notes yet" once, then the rest of the sentence', () => {
    expect(read('none', projectNotes(1_000, never, gate).words)).toBe("No notes yet: Sweep now on the project's page, or Sweep all projects now below the list, writes them.");
    expect(read('none', projectNotes(null, never, gate).words)).toBe('No notes yet: nothing to curate.');
  });

  it('never says its label twice, whatever the state', () => {
    for (const state of NOTES_STATES) {
      const { label } = NOTES_LABELS[state];
      expect(read(state, `${label}; why.`).split(label)).toHaveLength(2);
      expect(read(state, 'The sweeper says why.')).toBe(`${label}: The sweeper says why.`);
    }
  });
});

describe('the Save buttons of Settings’ Project notes section', () => {
  const config = { saved: { sweeperIgnore: [], dailyModelCalls: 200 }, environment: [] } as unknown as ConfigView;
  const view = { curator: 'offline', model: 'claude-haiku-4-5', baseUrl: null, apiKeys: {}, keyStore: { kind: 'keychain', writable: true, message: null }, paused: [] } as unknown as SweeperView;
  const curator = buttons(renderToStaticMarkup(createElement(CuratorForm, { view, onSaved: () => undefined })));
  const notes = buttons(renderToStaticMarkup(createElement(NotesSettings, { config, budgetUsed: 0, onSaved: () => undefined })));

  it('each say what they save, and no two share a name', () => {
    const saves = [...curator, ...notes].filter((name) => /save/i.test(name));
    expect(saves).toEqual(['Save curator', 'Save folders and budget']);
    expect(saves).not.toContain('Save');
  });
});
