import { describe, expect, it } from 'vitest';
import { exportFileName } from '../../../core/history/export-name.js';

// QA: an export downloaded as `session-31738a5a-….md`, a name that says nothing of what is in it. The
// name is Sessions.Export's own (`filename`), so the panel, `steward sessions export --output FOLDER`
// and any other client save under the same one (moved here from the panel's copy of the rule).

const ID = '31738a5a-1b2c-4d5e-8f90-123456789abc';
const titled = (title: string | null, sessionId = ID, firstRequest: string | null = null) => ({ title, firstRequest, sessionId });

describe('an exported conversation’s file name', () => {
  it('is its title in safe characters, with a short id, in the format’s extension', () => {
    expect(exportFileName(titled('Fix the flaky build'), 'markdown')).toBe('fix-the-flaky-build-31738a5a.md');
    expect(exportFileName(titled('Why does parseConfig throw ERR_MODULE_NOT_FOUND?'), 'json')).toBe('why-does-parseconfig-throw-err_module_not_found-31738a5a.json');
  });

  it('drops what a file system or a shell stumbles on, and cuts a long title at a word', () => {
    expect(exportFileName(titled('  ../../etc/passwd: "quotes" & <tags> | pipes  '), 'markdown')).toBe('etc-passwd-quotes-tags-pipes-31738a5a.md');
    const long = exportFileName(titled('Refactor the settings loader so that every room reads its own configuration file without a global'), 'markdown');
    expect(long).toBe('refactor-the-settings-loader-so-that-every-room-reads-31738a5a.md');
    expect(long.length).toBeLessThanOrEqual(70);
  });

  it('keeps letters of other scripts, and says the id alone when the title has no word', () => {
    expect(exportFileName(titled('Réparer le déploiement'), 'markdown')).toBe('réparer-le-déploiement-31738a5a.md');
    expect(exportFileName(titled('!!!'), 'markdown')).toBe('conversation-31738a5a.md');
    // Review: vowel signs and viramas (combining marks) split Hindi and Thai words (`हिन्दी` → `ह-न-द`).
    expect(exportFileName(titled('हिन्दी में सारांश'), 'markdown')).toBe('हिन्दी-में-सारांश-31738a5a.md');
    expect(exportFileName(titled('แก้ไขบั๊ก ด่วน'), 'markdown')).toBe('แก้ไขบั๊ก-ด่วน-31738a5a.md');
  });

  it('cuts a first word too long for the name between letters, never inside one (attack: 𝐀 is two UTF-16 units)', () => {
    const name = exportFileName(titled(`a${'𝐀'.repeat(40)}`), 'markdown');
    expect(name).not.toContain('\uFFFD');
    expect(name).toMatch(/^a(?:𝐀)+-31738a5a\.md$/u);
    expect(() => encodeURIComponent(name)).not.toThrow();
  });

  it('tells apart conversations whose ids share their start: an OpenClaw agent’s, a parent and its subagent (review)', () => {
    const names = ['oc:main:0b1e2f3a-aaaa', 'oc:main:ffff0000-bbbb', `${ID}:agent-a1b2c3`, `${ID}:agent-d4e5f6`, ID].map((id) => exportFileName(titled(null, id, 'hello there'), 'markdown'));
    expect(new Set(names).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^hello-there-[0-9a-f]{8}\.md$/);
    expect(names[4]).toBe('hello-there-31738a5a.md');
  });

  it('names an untitled conversation as the panel does (conversationName): its first request’s first sentence', () => {
    expect(exportFileName(titled(null, ID, 'Add frost dates to the planner. Then the rest of a long request'), 'markdown')).toBe('add-frost-dates-to-the-planner-31738a5a.md');
    expect(exportFileName(titled(null), 'json')).toBe('untitled-conversation-31738a5a.json');
  });
});
