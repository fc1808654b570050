import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cutShortWords, type SessionPart } from '../../../core/api/index.js';
import type { OrderedPart } from '../../../core/gateway/index.js';
import { partView } from '../../../core/history/messages.js';
import { boundResult, sha256 } from '../../../core/transcripts/bounds.js';
import { PartView } from '../../../renderer/src/places/sessions/PartView.js';
import { cutSentence, gapIn } from '../../../renderer/src/places/sessions/reading.js';
import { sessionPart } from '../../support/rows.js';

/*
 * A long tool result keeps its start and its end (bounds' boundResult): every reader says the middle
 * was left out, and the viewer shows where. One stored by an older parser (its start only) is said as before.
 */

const OUTPUT = `${Array.from({ length: 800 }, (_, i) => `step ${String(i).padStart(3, '0')} ok`).join('\n')}\nFAILED: 1 of 800 steps\n`;
const cut = boundResult(OUTPUT);
const stored = (text: string, truncated: unknown): OrderedPart => ({
  rowid: 1,
  partId: 'cc:u9:0',
  role: 'user',
  kind: 'tool_result',
  ts: 1,
  place: 1,
  text,
  meta: JSON.stringify({ toolUseId: 'toolu_01Run', truncated }),
  genuineUserTurn: false,
  isCompactSummary: false,
});

describe('a tool result cut at both ends, as a reader gets it', () => {
  it('says what it kept of its start and its end; its line counts the kept lines, not the gap', () => {
    const view = partView(stored(cut.text, cut.truncated), 'claude');
    const { head, tail } = cut.truncated!;
    expect(view.truncatedFrom).toBe(OUTPUT.length);
    expect(view.truncatedKept).toEqual({ first: head, last: tail });
    const kept = cut.text.split('\n').filter((l) => l.trim() !== '').length - 1;
    expect(view.summary).toBe(`at least ${kept} lines: step 000 ok`);
    expect(cutShortWords(view.truncatedFrom!, view.truncatedKept)).toBe(`cut short: Steward kept the first 6,144 and the last ${tail!.toLocaleString('en')} of its ${OUTPUT.length.toLocaleString('en')} characters; the middle is left out`);
  });

  it('one an older parser stored (its start only) keeps today’s words', () => {
    const old = partView(stored(OUTPUT.slice(0, 8192), { length: OUTPUT.length, sha256: sha256(OUTPUT) }), 'claude');
    expect(old).not.toHaveProperty('truncatedKept');
    expect(cutShortWords(old.truncatedFrom!, old.truncatedKept)).toBe(`cut short: Steward kept only the start of its ${OUTPUT.length.toLocaleString('en')} characters`);
    expect(cutSentence(8192, OUTPUT.length, old.truncatedKept)).toBe(`Only the first 8,192 of its ${OUTPUT.length.toLocaleString('en')} characters were kept.`);
  });
});

describe('the viewer', () => {
  const part = (fields: Partial<SessionPart>): SessionPart => sessionPart({ partId: 'cc:u9:0', kind: 'tool_result', toolUseId: 't', summary: 'at least 2 lines', ...fields });
  const html = (p: SessionPart) => renderToStaticMarkup(createElement(PartView, { part: p, role: 'user', hit: false, harness: undefined }));

  it('shows a divider where the middle was left out, and says under the part that it was', () => {
    const view = partView(stored(cut.text, cut.truncated), 'claude');
    const shown = html(part(view));
    const left = OUTPUT.length - view.truncatedKept!.first - view.truncatedKept!.last;
    // Named by its words as well: a separator's own text is hidden from screen readers (review).
    const words = `${left.toLocaleString('en')} characters left out here`;
    expect(shown).toContain(`<span class="fold__gap" role="separator" aria-label="${words}">${words}</span>`);
    // The gap line itself is not shown: the divider stands in its place, the end right after it.
    expect(shown).not.toContain('\n···\n');
    expect(shown).toMatch(/<\/span>step \d{3} ok\n[^]*FAILED: 1 of 800 steps\n<\/pre>/);
    expect(shown).toContain(`<p class="part__cut">Steward kept the first 6,144 and the last ${view.truncatedKept!.last.toLocaleString('en')} of its ${OUTPUT.length.toLocaleString('en')} characters; the middle is left out.</p>`);
  });

  it('finds the gap in a text redaction lengthened on either side; a prefix-cut part shows none', () => {
    const kept = { first: 10, last: 5 };
    expect(gapIn(`0123456789\n···\nabcde`, kept)).toBe(10);
    expect(gapIn(`0123[REDACTED]6789\n···\nabcde`, kept)).toBe(18);
    expect(gapIn(`0123456789\n···\nab[REDACTED]cde`, kept)).toBe(10);
    expect(gapIn('0123456789abcde', kept)).toBeNull();
    // An output decoded from its wrapper (Codex's JSON): its only gap line, wherever it is.
    expect(gapIn('start\n···\nend', kept)).toBe(5);
    expect(gapIn('aaaa\n···\nbbbb\n···\ncccc', kept)).toBeNull();
    expect(html(part({ text: 'a\n···\nb', truncatedFrom: 90_000 }))).not.toContain('fold__gap');
  });

  it('keeps a secret marked on each side of the divider', () => {
    const text = `key sk-AAAA ok\n···\nkey sk-BBBB ok`;
    const p = part({ text, summary: 'at least 2 lines', truncatedFrom: 90_000, truncatedKept: { first: 14, last: 14 }, secrets: [[4, 11], [23, 30]] });
    const shown = renderToStaticMarkup(createElement(PartView, { part: p, role: 'user', hit: false, harness: undefined, asWritten: true }));
    const body = shown.slice(shown.indexOf('<pre'), shown.indexOf('</pre>'));
    expect(body).toMatch(/^<pre class="fold__body">key <mark [^]*sk-AAAA<\/mark> ok<span class="fold__gap" role="separator" aria-label="[^"]*">[^<]*<\/span>key <mark [^]*sk-BBBB<\/mark> ok$/);
  });
});
