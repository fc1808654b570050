import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { resultImageLines, resultImagesLine } from '../../../core/api/part-words.js';
import type { OrderedPart } from '../../../core/gateway/index.js';
import { partView } from '../../../core/history/messages.js';
import { PartView } from '../../../renderer/src/places/sessions/PartView.js';

/*
 * A tool result's images (a browser tool's screenshots) said by the facts capture kept of each, its
 * type and size, in the fold's line, under the result in the viewer, and in the exports; a result
 * stored before capture kept them (meta `images`, a count only) is said by its count, as before.
 */

/** A Claude tool result as capture stores it: `meta` as written to the row. */
const stored = (text: string, meta: Record<string, unknown>): OrderedPart => ({
  rowid: 1,
  partId: 'cc:a5555555:0',
  role: 'user',
  kind: 'tool_result',
  ts: 1,
  place: 1,
  text,
  meta: JSON.stringify(meta),
  genuineUserTurn: false,
  isCompactSummary: false,
});

const TWO = [
  { media_type: 'image/png', bytes: 34_816 },
  { media_type: 'image/jpeg', bytes: 1_258_291 },
];

describe('the words for a tool result’s images', () => {
  it('the fold’s line: how many, then each one’s type and size; the count alone when that is all there is', () => {
    expect(resultImagesLine(2, [{ mediaType: 'image/png', bytes: 34_816 }, { mediaType: 'image/jpeg', bytes: 1_258_291 }])).toBe('2 images: PNG, 34 KB; JPEG, 1.2 MB');
    expect(resultImagesLine(1, [{ mediaType: 'image/png', bytes: 70 }])).toBe('1 image: PNG, 70 bytes');
    expect(resultImagesLine(5, Array.from({ length: 5 }, (_, i) => ({ mediaType: 'image/png', bytes: (i + 1) * 1024 })))).toBe('5 images: PNG, 1.0 KB; PNG, 2.0 KB; PNG, 3.0 KB; and 2 more');
    expect(resultImagesLine(2)).toBe('2 images');
    // An image named only by a link (no type, no size) is counted, not said as nothing.
    expect(resultImagesLine(1, [{ mediaType: null, bytes: 0 }])).toBe('1 image');
  });

  it('under the result: a placeholder each, as an image part is said; the rest counted', () => {
    expect(resultImageLines(2, [{ mediaType: 'image/png', bytes: 34_816 }, { mediaType: 'image/jpeg', bytes: 1_258_291 }])).toEqual(['Image · PNG, 34 KB', 'Image · JPEG, 1.2 MB']);
    expect(resultImageLines(3, [{ mediaType: 'image/png', bytes: 70 }])).toEqual(['Image · PNG, 70 bytes', '2 more images']);
    expect(resultImageLines(2)).toEqual(['2 images']);
    expect(resultImageLines(0)).toEqual([]);
  });
});

describe('a stored tool result’s images, as a reader is given them', () => {
  it('a result stored with its images’ facts: each one’s type and size, and its line says them', () => {
    const part = partView(stored('', { toolUseId: 'toolu_02Login', images: 2, imageFacts: TWO }), 'claude');
    expect(part).toMatchObject({
      summary: '2 images: PNG, 34 KB; JPEG, 1.2 MB',
      images: 2,
      resultImages: [
        { mediaType: 'image/png', bytes: 34_816 },
        { mediaType: 'image/jpeg', bytes: 1_258_291 },
      ],
    });
  });

  it('a result stored before (a count only) reads as before', () => {
    const part = partView(stored('', { toolUseId: 'toolu_02Login', images: 2 }), 'claude');
    expect(part.summary).toBe('2 images');
    expect(part.images).toBe(2);
    expect(part.resultImages).toBeUndefined();
  });

  it('a result with text keeps its line; its images are still given', () => {
    const part = partView(stored('Saved screenshot.png', { toolUseId: 't', images: 1, imageFacts: [TWO[0]] }), 'claude');
    expect(part.summary).toBe('1 line: Saved screenshot.png');
    expect(part.resultImages).toEqual([{ mediaType: 'image/png', bytes: 34_816 }]);
  });

  it('facts of a shape capture never writes are left out, never shown as a wrong size', () => {
    const part = partView(stored('', { images: 2, imageFacts: [{ media_type: 'image/png', bytes: -1 }, 'x', { media_type: 7, bytes: 10 }] }), 'claude');
    expect(part.resultImages).toEqual([{ mediaType: null, bytes: 10 }]);
    expect(part.summary).toBe('2 images: 10 bytes; and 1 more');
  });
});

describe('the viewer: a tool result’s images under it, folded with it', () => {
  const render = (meta: Record<string, unknown>, text = '') => renderToStaticMarkup(createElement(PartView, { part: partView(stored(text, meta), 'claude'), role: 'user', hit: false, harness: undefined }));
  const placeholders = (html: string) => [...html.matchAll(/<p class="part__image"[^>]*>(.*?)<\/p>/gs)].map((m) => m[1]);

  it('each image is a placeholder with its type and size, inside the result’s fold', () => {
    const html = render({ toolUseId: 't', images: 2, imageFacts: TWO });
    expect(placeholders(html)).toEqual(['Image · PNG, 34 KB', 'Image · JPEG, 1.2 MB']);
    expect(html).toContain('aria-label="Image, PNG, 34 KB"');
  });

  it('folded the same way: inside the result’s <details>, after its body', () => {
    // A result with text, so it has a body to come after (one without has none, and -1 proves nothing).
    const html = render({ toolUseId: 't', images: 2, imageFacts: TWO }, 'ok');
    const body = html.indexOf('fold__body');
    expect(body).toBeGreaterThan(-1);
    expect(html.indexOf('part__image')).toBeGreaterThan(html.indexOf('ok', body));
    expect(html.lastIndexOf('part__image')).toBeLessThan(html.indexOf('</details>'));
  });

  it('a result stored before says its count there', () => {
    expect(placeholders(render({ toolUseId: 't', images: 2 }))).toEqual(['2 images']);
  });

  it('a result without images shows none', () => {
    expect(render({ toolUseId: 't' }, 'ok')).not.toContain('part__image');
  });

  it('a result with text counts its images on its folded line, so a screenshot is not hidden behind its caption', () => {
    const summary = (html: string) => /<summary>(.*?)<\/summary>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    expect(summary(render({ toolUseId: 't', images: 2, imageFacts: TWO }, 'Saved screenshot.png'))).toMatch(/Saved screenshot\.png · 2 images$/);
    // A result of only images says them in its line already; one without says nothing of them.
    expect(summary(render({ toolUseId: 't', images: 2, imageFacts: TWO }))).not.toContain(' · 2 images');
    expect(summary(render({ toolUseId: 't' }, 'ok'))).not.toContain('image');
  });
});
