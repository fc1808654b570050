import { describe, expect, it } from 'vitest';
import { outputLinesWords } from '../../../core/api/index.js';
import type { OrderedPart } from '../../../core/gateway/index.js';
import { partView } from '../../../core/history/messages.js';

// A long tool output stored cut short was summarised as "90 lines: …" for an output of 3,001 lines:
// 90 is what was kept (QA session 42). The fold's line says the count is a floor when the part was cut.

const result = (text: string, truncatedFrom: number | null): OrderedPart => ({
  rowid: 1,
  partId: 'cc:u4:0',
  role: 'user',
  kind: 'tool_result',
  ts: 1,
  place: 1,
  text,
  meta: JSON.stringify({ toolUseId: 'toolu_01Run', ...(truncatedFrom !== null ? { truncated: { length: truncatedFrom } } : {}) }),
  genuineUserTurn: false,
  isCompactSummary: false,
});

const kept = Array.from({ length: 90 }, (_, i) => `line ${String(i).padStart(5, '0')}: PASS case ${i}`).join('\n');

describe('the one line of a tool output', () => {
  it('counts the lines of an output kept whole', () => {
    expect(partView(result(kept, null), 'claude').summary).toBe('90 lines: line 00000: PASS case 0');
    expect(partView(result('ok', null), 'claude').summary).toBe('1 line: ok');
  });

  it('says the count is only of what was kept when the output was cut short', () => {
    const view = partView(result(kept, 280_920), 'claude');
    expect(view.truncatedFrom).toBe(280_920);
    expect(view.summary).toBe('at least 90 lines: line 00000: PASS case 0');
  });

  it('is one rule: the words every reader gets', () => {
    expect(outputLinesWords(1, false)).toBe('1 line');
    expect(outputLinesWords(3_001, false)).toBe('3,001 lines');
    expect(outputLinesWords(1, true)).toBe('at least 1 line');
  });
});
