import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Listing } from '../../../renderer/src/places/home/Listing.js';
import { surveyedAgent } from '../../support/survey.js';

const headersOf = (html: string): string[] => [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

// QA B8: "Older than the window: none" read as if nothing stored was older (so nothing a prune would
// remove), when the column counts what is in the agents' folders on disk.
describe("Home's listing: the column of what is older than the window", () => {
  it('says it counts what is in the folders, not what Steward holds', () => {
    const html = renderToStaticMarkup(createElement(Listing, { survey: { providers: [surveyedAgent()], durationMs: 1 } }));
    expect(headersOf(html)).toContain('In the folders, older than the window');
    expect(headersOf(html)).not.toContain('Older than the window');
  });

  // QA 11: the header said "Transcript files older than the window" above "up to 18 messages in newer
  // files": a cell that counts messages in files changed within the window, under a header of files older than it.
  it('does not call the column files when a cell counts messages in newer files', () => {
    const agent = surveyedAgent({ olderMessages: 18 });
    const html = renderToStaticMarkup(createElement(Listing, { survey: { providers: [agent], durationMs: 1 } }));
    expect(html).toContain('up to 18 messages in newer files');
    expect(headersOf(html).filter((h) => /files older than the window/i.test(h))).toEqual([]);
  });
});
