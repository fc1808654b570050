import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ForgetCover, Tombstone } from '../../../core/api/index.js';
import { NotesLabel } from '../../../renderer/src/places/projects/NotesLabel.js';
import { forgottenProjectRecord } from '../../../renderer/src/places/projects/opened.js';
import { ProjectNotHeld } from '../../../renderer/src/places/projects/ProjectView.js';
import { Unforget, type Lift } from '../../../renderer/src/places/projects/Unforget.js';
import { ConversationNotHeld, Forgotten } from '../../../renderer/src/places/sessions/index.js';
import { forgetQuestion } from '../../../renderer/src/places/sessions/SessionHeader.js';

const ID = '00000000-dead-beef-0000-000000000000';
const PARENT = '11111111-dead-beef-0000-000000000000';
const PROJECT = 'p_0123456789abcdef';
const AGO = Date.now() - 60_000;
const textOf = (html: string) => html.replace(/<\/?(code|time|span|a)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();
const liftedAs = (lifted: boolean): Lift => ({ data: { lifted }, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined });
const notHeld = (record: ForgetCover, lift?: Lift) => textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, record, lift })));

describe('a forgotten conversation’s page, once Unforget lifted the record', () => {
  it('no longer says it was forgotten: the lifted sentence replaces those words, with the import that brings it back', () => {
    const text = notHeld({ kind: 'session', id: ID, label: null, createdAt: AGO, via: 'self' }, liftedAs(true));
    expect(text).toContain('This conversation is no longer forgotten.');
    expect(text).toContain('Import earlier history on Projects, reaching back to when it was written, brings it back.');
    expect(text).not.toMatch(/You forgot|was deleted from Steward|not imported again/);
  });

  it('a subagent’s page names the conversation lifted, and says the import brings both back', () => {
    const text = notHeld({ kind: 'session', id: PARENT, label: 'Fix the login', createdAt: AGO, via: 'parent' }, liftedAs(true));
    expect(text).toContain('The conversation this subagent belongs to is no longer forgotten.');
    expect(text).toMatch(/brings both back/);
    expect(text).not.toMatch(/You forgot|was deleted from Steward/);
  });

  it('a conversation of a forgotten project names the project lifted, and says the import brings its conversations back', () => {
    const text = notHeld({ kind: 'project', id: PROJECT, label: 'ledger', createdAt: AGO, via: 'project' }, liftedAs(true));
    expect(text).toContain('The project ledger is no longer forgotten.');
    expect(text).toMatch(/brings its conversations back/);
    expect(text).not.toMatch(/You forgot|were deleted from Steward/);
  });

  it('just after forgetting it there, the page gives way the same', () => {
    const text = textOf(renderToStaticMarkup(createElement(Forgotten, { sessionId: ID, lift: liftedAs(true) })));
    expect(text).toContain('This conversation is no longer forgotten.');
    expect(text).not.toMatch(/Conversation forgotten|It was deleted from Steward/);
  });
});

describe('the way back, while still forgotten', () => {
  it('says unforgetting lets the next import of earlier history bring them back, not that unforgetting alone does', () => {
    const project = notHeld({ kind: 'project', id: PROJECT, label: 'ledger', createdAt: AGO, via: 'project' });
    expect(project).not.toMatch(/unforgetting the project brings them back/);
    expect(project).toMatch(/Import earlier history/);
    const parent = notHeld({ kind: 'session', id: PARENT, label: 'Fix the login', createdAt: AGO, via: 'parent' });
    expect(parent).not.toMatch(/unforgetting that conversation brings both back/);
    expect(parent).toMatch(/Import earlier history/);
  });
});

describe('a forgotten project’s own address', () => {
  const record: Tombstone = { kind: 'project', id: PROJECT, label: 'lighthouse', createdAt: AGO };
  const other: Tombstone = { kind: 'session', id: ID, label: 'lighthouse', createdAt: AGO };

  it('finds the project’s record by its key or its name, in any case, never a conversation’s', () => {
    expect(forgottenProjectRecord([other, record], PROJECT)).toBe(record);
    expect(forgottenProjectRecord([other, record], 'Lighthouse')).toBe(record);
    expect(forgottenProjectRecord([other], 'lighthouse')).toBeUndefined();
  });

  it('says the person forgot it, when, and offers Unforget', () => {
    const text = textOf(renderToStaticMarkup(createElement(ProjectNotHeld, { projectKey: PROJECT, record })));
    expect(text).toContain('You forgot the project lighthouse');
    expect(text).toMatch(/minute/);
    expect(text).toMatch(/Unforget/);
    expect(text).not.toMatch(/not in Steward|mistyped/);
  });

  it('once lifted, says so instead', () => {
    const text = textOf(renderToStaticMarkup(createElement(ProjectNotHeld, { projectKey: PROJECT, record, lift: liftedAs(true) })));
    expect(text).toContain('This project is no longer forgotten.');
    expect(text).not.toMatch(/You forgot/);
  });

  it('with no record, says plainly it is not in Steward', () => {
    const text = textOf(renderToStaticMarkup(createElement(ProjectNotHeld, { projectKey: PROJECT, record: null })));
    expect(text).toContain('This project is not in Steward');
    expect(text).not.toMatch(/You forgot/);
  });
});

describe('forgetting from a conversation’s page', () => {
  it('a subagent’s question says only the subagent goes, and its conversation stays', () => {
    const q = forgetQuestion(true);
    expect(q).toMatch(/^Forget this subagent\?/);
    expect(q).not.toMatch(/its subagents/);
    expect(q).toMatch(/the conversation it belongs to stays/);
  });

  it('a conversation’s question still says its subagents go with it', () => {
    expect(forgetQuestion(false, undefined, 2)).toMatch(/^Forget this conversation\? Its messages and its 2 subagents are deleted/);
  });
});

describe('the notes label of a project in the panel', () => {
  it('names the panel’s own action, not the CLI’s command', () => {
    const html = renderToStaticMarkup(createElement(NotesLabel, { notes: { state: 'none', words: 'No notes yet; `steward sweeper run` writes them now.' } }));
    expect(textOf(html)).not.toMatch(/steward sweeper run/);
    expect(textOf(html)).toMatch(/Sweep now/);
  });
});

describe('what Unforget says the lift does not undo (Forget.Lift’s stillOut and notesRemoved)', () => {
  const liftedWith = (data: Partial<NonNullable<Lift['data']>>): Lift => ({ ...liftedAs(true), data: { lifted: true, ...data } });
  const said = (kind: 'session' | 'project', id: string, lift: Lift) => renderToStaticMarkup(createElement(Unforget, { kind, id, lift }));

  it('a conversation its project still keeps out says so, with that project’s Unforget, and not that the import brings it back', () => {
    const html = said('session', ID, liftedWith({ stillOut: { kind: 'project', id: PROJECT, label: 'ledger', createdAt: AGO, via: 'project' } }));
    const text = textOf(html);
    expect(text).toMatch(/stays out of imports/);
    expect(text).toMatch(/its project ledger is forgotten/);
    expect(text).toMatch(/Unforget the project ledger/);
    expect(html).toContain(`href="#/projects/${PROJECT}"`);
    expect(text).not.toMatch(/brings it back/);
  });

  it('a subagent the conversation it belongs to still keeps out names that conversation, with its Unforget', () => {
    const html = said('session', `${PARENT}:agent-a1`, liftedWith({ stillOut: { kind: 'session', id: PARENT, label: 'Fix the login', createdAt: AGO, via: 'parent' } }));
    const text = textOf(html);
    expect(text).toMatch(/stays out of imports/);
    expect(text).toMatch(/the conversation it belongs to \(Fix the login\) is forgotten/);
    expect(text).toMatch(/Unforget that conversation/);
    expect(html).toContain(`href="#/sessions/${PARENT}"`);
  });

  it('a project whose notes its cut-short forget removed says the next sweep writes them again, with Sweep now', () => {
    const text = textOf(said('project', PROJECT, liftedWith({ notesRemoved: true })));
    expect(text).toContain('This project is no longer forgotten.');
    expect(text).toMatch(/notes \(OVERVIEW\.md, CHANGELOG\.md\) were removed/);
    expect(text).toMatch(/the project's next sweep writes them again/);
    expect(text).toMatch(/Sweep now/);
  });

  it('a plain lift says neither', () => {
    const text = textOf(said('project', PROJECT, liftedAs(true)));
    expect(text).not.toMatch(/stays out|notes|Sweep now/);
  });
});
