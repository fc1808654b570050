import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionPart } from '../../../core/api/index.js';
import { hitLabel } from '../../../renderer/src/places/search/sentences.js';
import { kindLabel } from '../../../core/api/part-words.js';
import { PartView } from '../../../renderer/src/places/sessions/PartView.js';
import { harnessFold, messageSpeaker } from '../../../renderer/src/places/sessions/reading.js';
import { sessionPart } from '../../support/rows.js';

const result = (over: Partial<SessionPart>): SessionPart =>
  sessionPart({
    partId: 'cc:u1:0',
    kind: 'tool_result',
    text: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'",
    summary: "failed: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'",
    toolUseId: 't1',
    isError: true,
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

/** A part of `kind` as the contract gives it: the summary of a kind it has no line for is the kind's name. */
const other = (kind: string, text: string | null, summary: string | null = kind): SessionPart => result({ kind, text, summary, isError: false, toolUseId: null });

describe('a part that is not text, a tool call or its result', () => {
  it('is said in a person’s words with one line, never by its kind’s name', () => {
    expect(foldLine(other('compaction', 'The user asked for exponential backoff in upload().'))).toBe('Summary Earlier conversation summarized');
    expect(foldLine(other('branch_summary', 'Tried the CSV route first.'))).toBe('Summary Another branch of the conversation summarized');
    expect(foldLine(other('notice', 'Chat history compressed from 48210 to 5230 tokens.'))).toBe('Notice Chat history compressed from 48210 to 5230 tokens.');
    expect(foldLine(other('error', '\nAPI Error: 529 overloaded\n{"type":"error"}'))).toBe('Error API Error: 529 overloaded');
    expect(foldLine(other('error', ''))).toBe('Error The agent reported an error');
    expect(foldLine(other('context', 'Content from @src/upload.ts:'))).toBe('Added context Text the agent added to the prompt');
    expect(foldLine(other('agent_message', 'Review done: two nits.'))).toBe('Agent message Review done: two nits.');
    expect(foldLine(other('document', null))).toBe('File A file attached to the message; its contents are not kept');
    expect(foldLine(other('unknown', '{}'))).toBe('Other content Content of no known kind');
    // Redacted thinking has no text: the contract's line for it is the kind's name.
    expect(foldLine(other('thinking', null, 'thinking'))).toBe('Thinking No text kept');
    expect(foldLine(other('thinking', 'Compare the fares.', 'Compare the fares.'))).toBe('Thinking Compare the fares.');
  });

  it('a kind no parser names (a block type an agent added later) says what it is recorded as', () => {
    expect(foldLine(other('server_tool_use', '{"name":"web_search"}'))).toBe('Other content server_tool_use');
  });

  it('every kind the parsers store has a label of its own', () => {
    for (const kind of ['thinking', 'tool_use', 'tool_result', 'image', 'compaction', 'branch_summary', 'notice', 'error', 'context', 'agent_message', 'document', 'unknown']) {
      const label = kindLabel(kind);
      expect(label, kind).toMatch(/^[A-Z]/);
      expect(label, kind).not.toContain('_');
    }
    expect(kindLabel('text')).toBeUndefined();
  });
});

describe('who a message is from', () => {
  it('the agent’s runtime (OpenClaw’s branch summaries, Gemini CLI’s notices) is the System, capitalised like every speaker', () => {
    const branch = other('branch_summary', 'Tried the night train first.');
    expect(messageSpeaker({ role: 'system', parts: [branch] }, false, 'OpenClaw')).toEqual({ who: 'System', kind: 'turn' });
    expect(messageSpeaker({ role: 'system', parts: [other('notice', 'Starting session')] }, false, 'Gemini CLI')).toEqual({ who: 'System', kind: 'turn' });
    expect(hitLabel({ role: 'system', kind: 'compaction', toolName: null, genuineUserTurn: false, isCompactSummary: true }, false, 'OpenClaw')).toBe('Conversation summary');
    expect(hitLabel({ role: 'system', kind: 'notice', toolName: null, genuineUserTurn: false, isCompactSummary: false }, false, 'Gemini CLI')).toBe('System · Notice');
  });
});

describe('a compaction summary, an image and a thought in the session viewer', () => {
  const summaryOf = (kind: string, role: string, text: string) => result({ kind, text, summary: kind === 'text' ? text : 'Earlier conversation summarized', isError: false, toolUseId: null, isCompactSummary: true, partId: `x:${kind}:${role}` });
  const claude = summaryOf('text', 'user', 'This session is being continued from a previous conversation.');
  const codex = summaryOf('compaction', 'assistant', 'The user asked for exponential backoff in upload().');
  const openclaw = summaryOf('compaction', 'system', 'Kept: the Lyon trip.');

  it('is said by one neutral speaker and folds the same, whichever agent and role stored it', () => {
    for (const [part, role, app] of [[claude, 'user', 'Claude Code'], [codex, 'assistant', 'Codex CLI'], [openclaw, 'system', 'OpenClaw']] as const) {
      expect(messageSpeaker({ role, parts: [part] }, false, app), app).toEqual({ who: 'Conversation summary', kind: 'summary' });
      const html = renderToStaticMarkup(createElement(PartView, { part, role, hit: false, harness: harnessFold(part, role, false, app) }));
      expect(html, app).toContain('fold--summary');
      expect(foldLine(part), app).toBe('Summary Earlier conversation summarized');
    }
  });

  it('an image and a thought read in part-words’ words, as the CLI and MCP say them', () => {
    const image = result({ kind: 'image', text: null, summary: 'PNG, 27 bytes', image: { mediaType: 'image/png', bytes: 27 }, isError: false, toolUseId: null });
    const html = renderToStaticMarkup(createElement(PartView, { part: image, role: 'user', hit: false, harness: undefined }));
    const shown = /<p class="part__image"[^>]*>(.*?)<\/p>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    expect(shown).toBe('Image · PNG, 27 bytes');
    expect(html).toContain('aria-label="Image, PNG, 27 bytes"');
    expect(foldLine(other('thinking', 'Compare the fares.', 'Compare the fares.'))).toBe('Thinking Compare the fares.');
  });
});

describe('a message of texts with no words', () => {
  it('reads as one line saying it is empty, with nothing to unfold', () => {
    const html = renderToStaticMarkup(createElement(PartView, { part: result({ kind: 'empty', text: '', summary: null, isError: false }), role: 'assistant', hit: false, harness: undefined }));
    expect(html).not.toContain('<details');
    expect(html).toContain('<p class="part__empty">Empty message · No text was written</p>');
  });
});
