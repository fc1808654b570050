import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NOTES_STATES, type NotesState } from '../../../core/api/index.js';
import { NOTES_LABELS, NotesLabel } from '../../../renderer/src/places/projects/NotesLabel.js';

const render = (state: NotesState, words: string) => renderToStaticMarkup(createElement(NotesLabel, { notes: { state, words } }));
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'").trim();

describe('the notes label of a project in the list', () => {
  it('has a distinct label in words for every notes state', () => {
    const labels = NOTES_STATES.map((state) => NOTES_LABELS[state].label);
    expect(new Set(labels).size).toBe(NOTES_STATES.length);
    for (const label of labels) expect(label).toMatch(/^[A-Z][a-z ,]+$/);
  });

  it('says the state as text and reads out the whole sentence, its tooltip too, without CLI markup', () => {
    const html = render('waiting', 'Activity since the last sweep is not in the notes yet; `steward sweeper run` curates it now.');
    expect(textOf(html)).toBe('Notes waiting: Activity since the last sweep is not in the notes yet; steward sweeper run curates it now.');
    expect(html).toContain('title="Activity since the last sweep is not in the notes yet; steward sweeper run curates it now."');
    expect(html).toContain('class="visually-hidden"');
    expect(html).not.toContain('badge');
  });

  it('marks a failure and a pause as the panel marks other problems, with words, not colour alone', () => {
    expect(render('failed', 'The last sweep failed.')).toContain('<span class="badge badge--danger">Notes failed</span>');
    expect(render('paused', 'Curation is paused.')).toContain('<span class="badge badge--warn">Notes paused</span>');
    for (const state of ['current', 'scratch', 'ignored', 'off', 'none'] as const) expect(render(state, 'Why.')).not.toContain('badge');
  });
});
