import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { byUrgency, type StatusItem } from '../../../core/api/index.js';
import { composeStatus } from '../../../core/app/status.js';
import { NeedsYouList } from '../../../renderer/src/places/home/NeedsYou.js';

const item = (kind: StatusItem['kind'], text: string, subject: string | null = null): StatusItem => ({ kind, subject, text, place: null });
const conflict = item('conflict', 'A cache conflict over github.com/acme/widgets needs your choice', 'ic_1');
const plan = item('plan-waiting', 'A maintenance plan for acme/tools waits for your confirmation', 'w_1');
const paused = item('curator-paused', 'The Anthropic curator is paused: credit balance too low', 'anthropic');
const failed = item('sync-failed', 'Updating the github.com/acme/gadgets cache failed: the forge did not answer', 'reg_b');

/** The texts of Home's "Needs you" list, top to bottom. */
function listed(items: StatusItem[]): string[] {
  const html = renderToStaticMarkup(createElement(NeedsYouList, { status: composeStatus(false, items) }));
  return [conflict, plan, paused, failed].filter((i) => html.includes(i.text)).sort((a, b) => html.indexOf(a.text) - html.indexOf(b.text)).map((i) => i.text);
}

describe('the order of what needs the person', () => {
  it('puts decisions only the person can make first, then failures, then the rest (one rule)', () => {
    expect(byUrgency({ errors: [failed], attention: [paused, conflict, plan] })).toEqual([conflict, plan, failed, paused]);
  });

  it('Home lists a conflict and a waiting plan before a failure, as the status headline leads with them', () => {
    expect(listed([failed, paused, conflict, plan])).toEqual([conflict.text, plan.text, failed.text, paused.text]);
    // With no decision waiting, a failure still comes before what else needs the person.
    expect(listed([paused, failed])).toEqual([failed.text, paused.text]);
  });

  it('the status details (what `steward info` prints under the headline) follow the same order', () => {
    const status = composeStatus(false, [paused, failed, conflict]);
    expect(status).toMatchObject({ state: 'attention', message: '2 things need you' });
    expect(status.details).toEqual([conflict.text, failed.text, paused.text]);
  });
});
