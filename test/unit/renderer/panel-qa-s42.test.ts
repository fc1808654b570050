import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionSummary, Tombstone } from '../../../core/api/index.js';
import { formatDate, formatRelativeTime, parentKindWords } from '../../../renderer/src/components/index.js';
import { Listing } from '../../../renderer/src/places/home/Listing.js';
import { datesWords, olderCellWords } from '../../../renderer/src/places/home/listing-words.js';
import { keepWords, startingChoice } from '../../../renderer/src/places/home/saved-window.js';
import type { Lift } from '../../../renderer/src/places/projects/Unforget.js';
import { Facts, forgetQuestion } from '../../../renderer/src/places/sessions/SessionHeader.js';
import { ForgottenRow } from '../../../renderer/src/places/settings/ForgottenList.js';
import { surveyedAgent } from '../../support/survey.js';


const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const agent = surveyedAgent;

describe('a forgotten row once Unforget lifted it (Settings)', () => {
  const record: Tombstone = { kind: 'project', id: 'p_0123456789abcdef', label: 'dotfiles', createdAt: Date.now() - 5_000 };
  const lift: Lift = { data: { lifted: true }, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined };
  const lifted = () => renderToStaticMarkup(createElement(ForgottenRow, { tombstone: record, tombstones: [record], lift }));

  it('reads as unforgotten, not forgotten, beside the lifted sentence', () => {
    const html = lifted();
    expect(text(html)).toMatch(/dotfiles project, unforgotten just now/);
    expect(text(html)).not.toMatch(/\bforgotten just now/);
    expect(text(html)).toContain('This project is no longer forgotten.');
  });

  it('stacks the answer under the name, so the name keeps its width', () => {
    expect(lifted()).toMatch(/class="forgotten-list__item forgotten-list__item--lifted"/);
  });

  it('still forgotten, it says so and keeps the one-line row', () => {
    const still = renderToStaticMarkup(createElement(ForgottenRow, { tombstone: record, tombstones: [record] }));
    expect(text(still)).toMatch(/dotfiles project, forgotten just now/);
    expect(still).not.toMatch(/--lifted/);
  });
});

describe('Home’s listing', () => {
  it('says "none" when nothing is older than the window, never "0 (0 bytes)"', () => {
    expect(olderCellWords(agent())).toBe('none');
  });

  it('says older messages in newer files in words, without a count of no files', () => {
    expect(olderCellWords(agent({ olderMessages: 4 }))).toBe('up to 4 messages in newer files');
    expect(olderCellWords(agent({ older: { files: 2, bytes: 3072, imported: { files: 0, bytes: 0 } }, olderMessages: 4 }))).toBe('2 files (3.0 KB), and up to 4 messages in newer files');
    expect(olderCellWords(agent({ windowDays: 0 }))).toBe('none (keeps everything)');
  });

  it('keeps a size’s number and unit on one line', () => {
    const html = renderToStaticMarkup(createElement(Listing, { survey: { providers: [agent()], durationMs: 1 } }));
    expect(html).toContain('<span class="together">69 KB</span>');
    expect(text(html)).not.toMatch(/0 \(0 bytes\)/);
  });

  it('says a one-day range once', () => {
    const at = Date.UTC(2026, 8, 19, 12);
    expect(datesWords({ files: 1, oldestAt: null, newestAt: null, stored: { oldestAt: at, newestAt: at + 3_600_000 } })).toBe(`messages imported: ${formatDate(at)}`);
  });
});

describe('Home’s "Keep more, or less?"', () => {
  it('starts on the window in use, not on Everything', () => {
    expect(startingChoice(undefined, [30, 90])).toBe('keep');
    expect(startingChoice(60, [30, 90])).toBe('keep');
    expect(startingChoice(30, [30, 90])).toBe('30');
  });

  it('names the window in use as that choice', () => {
    expect(keepWords({ providers: [agent()], durationMs: 1 }, undefined)).toBe('As it is: the last year');
    expect(keepWords({ providers: [agent()], durationMs: 1 }, 60)).toBe('As saved: the last 60 days, from the next start');
  });
});

describe('dates', () => {
  it('are written one way: a date older than a few weeks reads as the conversations’ do ("Sep 10, 2026")', () => {
    const at = Date.UTC(2026, 6, 13, 12);
    expect(formatRelativeTime(at, at + 90 * 86_400_000)).toBe(formatDate(at));
    expect(formatDate(at)).toBe(new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' }));
  });
});

describe('a conversation’s header', () => {
  const session = { app: 'Claude Code', agentType: null, model: null, startedAt: null, durationMs: null, messages: 2, toolCalls: 3, subagents: 1, projectKey: null, projectName: 'invoice-api' } as unknown as SessionSummary;

  it('keeps each count with its word', () => {
    const html = renderToStaticMarkup(createElement(Facts, { session }));
    expect(html).toContain('<span class="together">2 messages</span>');
    expect(html).toContain('<span class="together">3 tool calls</span>');
  });
});

describe('a branched conversation', () => {
  it('is said in words, not as "branch"', () => {
    expect(parentKindWords('branch')).toBe('branched from an earlier conversation');
    expect(parentKindWords('subagent')).toBe('subagent');
    expect(parentKindWords(null)).toBeNull();
  });
});

describe('Forget’s question about the notes', () => {
  it('says plainly which notes are lost, the person’s own edits included', () => {
    const q = forgetQuestion(false);
    expect(q).not.toMatch(/edits you made to those days are not kept/);
    expect(q).toMatch(/CHANGELOG\.md/);
    expect(q).toMatch(/from the day it began on/);
    expect(q).toMatch(/OVERVIEW\.md/);
    expect(q).toMatch(/your own edits/);
  });
});
