import { describe, expect, it } from 'vitest';
import { foldLine, partFold } from '../../../core/api/part-words.js';
import type { OrderedPart } from '../../../core/gateway/index.js';
import { partView } from '../../../core/history/messages.js';

/**
 * A model writes its reasoning in Markdown (Codex's summaries open with a bold heading): the one line
 * a folded thought shows is read as words, without the emphasis markers, on every surface (they all
 * fold a part through part-words' partFold).
 */
const thought = (text: string): OrderedPart => ({
  rowid: 1,
  partId: 'cx:r1:0',
  role: 'assistant',
  kind: 'thinking',
  ts: 1,
  place: 1,
  text,
  meta: null,
  genuineUserTurn: false,
  isCompactSummary: false,
});

const fold = (text: string) => foldLine(partFold(partView(thought(text), 'codex')));

describe('a folded thought’s one line', () => {
  it('drops bold and emphasis markers and a heading’s hashes', () => {
    expect(fold('**Inspecting the scheduler test** for timing assumptions')).toBe('Thinking · Inspecting the scheduler test for timing assumptions');
    expect(fold('__Planning__ the rename')).toBe('Thinking · Planning the rename');
    expect(fold('## Checking callers\n\nThen edit.')).toBe('Thinking · Checking callers');
    expect(fold('*Maybe* retry, _then_ give up')).toBe('Thinking · Maybe retry, then give up');
    // A bold opening whose closing the line's cut left out.
    expect(fold(`**Inspecting ${'the scheduler test '.repeat(10)}**`)).toMatch(/^Thinking · Inspecting the scheduler test the .*…$/);
  });

  it('keeps what only looks like a marker: a name in snake_case, a glob, arithmetic', () => {
    expect(fold('Look at __init__.py and src/**/*.ts')).toBe('Thinking · Look at __init__.py and src/**/*.ts');
    expect(fold('2 * 3 * 4 is 24; #42 is the issue')).toBe('Thinking · 2 * 3 * 4 is 24; #42 is the issue');
  });

  it('a line of markers alone says the kind’s words, and the text unfolded is left as written', () => {
    expect(fold('**\n')).toBe('Thinking · No text kept');
    expect(partFold({ kind: 'thinking', summary: null, text: '**Bold**' }).summary).toBe('Bold');
    expect(partView(thought('**Bold** words'), 'codex').text).toBe('**Bold** words');
  });

  it('other kinds keep their line as written (a notice about __init__ is not emphasis)', () => {
    expect(partFold({ kind: 'notice', summary: null, text: 'Failed to import __init__ from **pkg**' }).summary).toBe('Failed to import __init__ from **pkg**');
  });
});
