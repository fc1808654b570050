import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Listing } from '../../../renderer/src/places/home/Listing.js';
import { surveyedAgent } from '../../support/survey.js';


// QA B8: "Older than the window: none" read as if nothing stored was older (so nothing a prune would
// remove), when the column counts the agents' transcript files on disk.
describe("Home's listing: the column of what is older than the window", () => {
  it('says it counts transcript files, not what Steward holds', () => {
    const html = renderToStaticMarkup(createElement(Listing, { survey: { providers: [surveyedAgent()], durationMs: 1 } }));
    const headers = [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    expect(headers).toContain('Transcript files older than the window');
    expect(headers).not.toContain('Older than the window');
  });
});
