import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionPart } from '../../../core/api/index.js';
import { PartView } from '../../../renderer/src/places/sessions/PartView.js';

const result = (over: Partial<SessionPart>): SessionPart => ({
  partId: 'cc:u1:0',
  kind: 'tool_result',
  text: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'",
  summary: "failed: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'",
  toolName: null,
  toolUseId: 't1',
  isError: true,
  truncatedFrom: null,
  image: null,
  genuineUserTurn: false,
  isCompactSummary: false,
  slashCommand: null,
  ...over,
});

/** The fold's one line as a reader sees it: its label, then its summary. */
function foldLine(part: SessionPart): string {
  const html = renderToStaticMarkup(createElement(PartView, { part, role: 'user', hit: false, harness: undefined }));
  const summary = /<summary>(.*?)<\/summary>/s.exec(html)?.[1] ?? '';
  return summary.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");
}

describe('a tool result folded in a conversation', () => {
  it('says it failed once: the label, then what went wrong', () => {
    expect(foldLine(result({}))).toBe("Failed Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'");
    expect(foldLine(result({ summary: 'exit code 1: npm ERR! missing script', exitCode: 1 }))).toBe('Failed exit code 1: npm ERR! missing script');
    expect(foldLine(result({ isError: false, summary: '12 lines' }))).toBe('Result 12 lines');
  });
});
