import { describe, expect, it } from 'vitest';
import { COMPACTION_FOLD, COMPACTION_SPEAKER, foldLine, imageLine, isCompactionSummary, isSummaryMessage, partFold, ROLE_WORDS } from '../../../core/api/part-words.js';

/**
 * The one words table (core/api/part-words.ts) says how a compaction summary, an image and a thought
 * read, whichever agent stored them; the panel, `steward sessions show` and MCP get_session take its words.
 */
const part = (o: Partial<{ kind: string; summary: string | null; text: string | null; isCompactSummary: boolean; image: { mediaType: string | null; bytes: number } | null }>) => ({
  kind: 'text',
  summary: null,
  text: null,
  isCompactSummary: false,
  image: null,
  ...o,
});

describe('part-words: one wording per kind of part', () => {
  it('a compaction summary is one thing, however the agent stored it', () => {
    const claude = part({ kind: 'text', isCompactSummary: true, summary: 'This session is being continued from a previous conversation' });
    const codex = part({ kind: 'compaction', isCompactSummary: true, summary: 'Earlier conversation summarized' });
    const openclaw = part({ kind: 'compaction', isCompactSummary: true });
    for (const p of [claude, codex, openclaw]) {
      expect(isCompactionSummary(p)).toBe(true);
      expect(partFold(p)).toEqual(COMPACTION_FOLD);
    }
    expect(isCompactionSummary(part({ kind: 'text' }))).toBe(false);
    expect(isCompactionSummary(part({ kind: 'branch_summary' }))).toBe(false);
  });

  it('a message holding only a compaction summary has one neutral speaker, no role’s nor an app’s', () => {
    expect(isSummaryMessage([part({ kind: 'compaction', isCompactSummary: true })])).toBe(true);
    expect(isSummaryMessage([part({ kind: 'text', isCompactSummary: true })])).toBe(true);
    expect(isSummaryMessage([part({ kind: 'compaction', isCompactSummary: true }), part({ kind: 'text' })])).toBe(false);
    expect(isSummaryMessage([])).toBe(false);
    expect(Object.values(ROLE_WORDS)).not.toContain(COMPACTION_SPEAKER);
    expect(COMPACTION_SPEAKER).not.toMatch(/Claude|Codex|Gemini|OpenClaw/);
  });

  it('an image is said by its type and size, in a person’s words', () => {
    expect(imageLine({ mediaType: 'image/png', bytes: 27 })).toBe('PNG, 27 bytes');
    expect(imageLine({ mediaType: 'image/jpeg', bytes: 1 })).toBe('JPEG, 1 byte');
    expect(imageLine({ mediaType: 'image/svg+xml', bytes: 12_345 })).toBe('SVG, 12 KB');
    expect(imageLine({ mediaType: 'image/webp', bytes: 3 * 1024 * 1024 + 1 })).toBe('WEBP, 3.0 MB');
    expect(imageLine({ mediaType: null, bytes: 2_048 })).toBe('2.0 KB');
    expect(foldLine(partFold(part({ kind: 'image', image: { mediaType: 'image/png', bytes: 27 } })))).toBe('Image · PNG, 27 bytes');
    // The facts win over a line stored by an older owner ("image (image/png), 27 bytes").
    expect(foldLine(partFold(part({ kind: 'image', summary: 'image (image/png), 27 bytes', image: { mediaType: 'image/png', bytes: 27 } })))).toBe('Image · PNG, 27 bytes');
    expect(foldLine(partFold(part({ kind: 'image', image: { mediaType: null, bytes: 0 } })))).toBe('Image · An image; only its type and size are kept');
  });

  it('a thought reads as Thinking and its first line, or that no text was kept', () => {
    expect(foldLine(partFold(part({ kind: 'thinking', summary: 'Looking at upload.ts first.' })))).toBe('Thinking · Looking at upload.ts first.');
    expect(foldLine(partFold(part({ kind: 'thinking' })))).toBe('Thinking · No text kept');
  });
});
