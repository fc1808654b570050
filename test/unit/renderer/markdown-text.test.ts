import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from '../../../renderer/src/components/MarkdownText.js';

const html = (text: string) => renderToStaticMarkup(createElement(MarkdownText, { text }));

describe('Markdown in the panel (notes and conversations)', () => {
  it('renders what agents write in GitHub’s flavour: tables, task lists, strikethrough', () => {
    const out = html('| File | Change |\n| --- | --- |\n| a.ts | renamed |\n\n- [x] tests\n- [ ] docs\n\n~~old~~');
    expect(out).toContain('<table>');
    expect(out).toContain('<td>a.ts</td>');
    expect(out).toMatch(/<input[^>]*type="checkbox"[^>]*checked/);
    expect(out).toContain('<del>old</del>');
    expect(out).not.toContain('| --- |');
  });

  it('never passes raw HTML through', () => {
    const out = html('before <img src=x onerror="alert(1)"> <script>alert(2)</script> after');
    expect(out).not.toMatch(/<img|<script|onerror/);
    expect(out).toContain('before');
  });
});
