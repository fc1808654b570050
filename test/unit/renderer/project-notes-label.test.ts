import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NOTES_STATES, type NotesState, type ProjectListed } from '../../../core/api/index.js';
import { projectNotes } from '../../../core/sweeper/notes-state.js';
import { NOTES_LABELS, NotesLabel } from '../../../renderer/src/places/projects/NotesLabel.js';
import { projectMatches } from '../../../renderer/src/places/projects/filter.js';

const render = (state: NotesState, words: string) => renderToStaticMarkup(createElement(NotesLabel, { notes: { state, words } }));
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'").trim();

describe('the notes label of a project in the list', () => {
  it('has a distinct label in words for every notes state', () => {
    const labels = NOTES_STATES.map((state) => NOTES_LABELS[state].label);
    expect(new Set(labels).size).toBe(NOTES_STATES.length);
    for (const label of labels) expect(label).toMatch(/^[A-Z][a-z ,]+$/);
  });

  it('says the state as text and reads out the whole sentence, its tooltip too, without CLI markup', () => {
    const html = render('waiting', 'The last sweep stopped: `claude` was not found.');
    expect(textOf(html)).toBe('Notes waiting: The last sweep stopped: claude was not found.');
    expect(html).toContain('title="The last sweep stopped: claude was not found."');
    expect(html).toContain('class="visually-hidden"');
    expect(html).not.toContain('badge');
  });

  it('marks a failure and a pause as the panel marks other problems, with words, not colour alone', () => {
    expect(render('failed', 'The last sweep failed.')).toContain('<span class="badge badge--danger">Notes failed</span>');
    expect(render('paused', 'Curation is paused.')).toContain('<span class="badge badge--warn">Notes paused</span>');
    for (const state of ['current', 'scratch', 'ignored', 'off', 'none'] as const) expect(render(state, 'Why.')).not.toContain('badge');
  });

  it('says "No notes yet" in the label as in the tooltip for a project never swept, with or without activity', () => {
    const never = { scratch: false, lastOutcome: null, lastError: null, nextAttemptAt: null, watermark: null };
    const gate = { enabled: true, ignored: false, paused: false, now: 2_000 };
    for (const activity of [1_000, null]) {
      const notes = projectNotes(activity, never, gate);
      expect(NOTES_LABELS[notes.state].label).toBe('No notes yet');
      expect(notes.words).toMatch(/^No notes yet\b/);
    }
  });
});

describe('the notes words the panel shows', () => {
  it('names the panel’s own actions where the sweeper names the CLI’s command', () => {
    const text = (words: string) => textOf(render('waiting', words));
    expect(text('Activity since the last sweep is not in the notes yet; `steward sweeper run` curates it now.')).toBe(
      "Notes waiting: Activity since the last sweep is not in the notes yet; Sweep now on the project's page, or Sweep all projects now below the list, curates it.",
    );
  });
});

describe('the Filter box of the project list', () => {
  const project = (name: string, state: NotesState): ProjectListed => ({
    projectKey: `p_${name}`,
    name,
    cwd: `/work/${name}`,
    repoId: null,
    repoBacked: false,
    lastActivityAt: null,
    sessions: 1,
    notes: { state, words: 'The sweeper says why; `steward sweeper run` is not a label.' },
  });
  const rows = [project('orchard', 'current'), project('compost', 'failed'), project('meadow', 'paused'), project('seedbed', 'waiting'), project('scraps', 'none')];
  const shown = (filter: string) => rows.filter((p) => projectMatches(p, filter)).map((p) => p.name);

  it('narrows by the words of the notes label, as it narrows by name and folder', () => {
    expect(shown('failed')).toEqual(['compost']);
    expect(shown('Paused')).toEqual(['meadow']);
    expect(shown('waiting')).toEqual(['seedbed']);
    expect(shown('notes current')).toEqual(['orchard']);
    expect(shown('no notes yet')).toEqual(['scraps']);
    expect(shown('mead')).toEqual(['meadow']);
    expect(shown('work/orch current')).toEqual(['orchard']);
    expect(shown('orchard failed')).toEqual([]);
    expect(shown('')).toEqual(rows.map((p) => p.name));
  });

  it('a few letters match a label only at the start of its own word, never of a word every label shares', () => {
    // Every label says "notes": "n" and "not" narrow by name and folder, as they did before labels.
    expect(shown('n')).toEqual([]);
    expect(shown('not')).toEqual([]);
    expect(shown('cur')).toEqual(['orchard']);
    expect(shown('fail')).toEqual(['compost']);
  });

  it('matches the label the list shows, not the sentence of its tooltip', () => {
    expect(shown('sweeper')).toEqual([]);
  });
});
