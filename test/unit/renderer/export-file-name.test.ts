import { describe, expect, it } from 'vitest';
import { exportFileName } from '../../../renderer/src/places/sessions/export.js';

// QA: an export downloaded as `session-31738a5a-….md`, a name that says nothing of what is in it.

const ID = '31738a5a-1b2c-4d5e-8f90-123456789abc';

describe('an exported conversation’s file name', () => {
  it('is its title in safe characters, with a short id, in the format’s extension', () => {
    expect(exportFileName({ title: 'Fix the flaky build', sessionId: ID }, 'session-31738a5a-1b2c-4d5e-8f90-123456789abc.md')).toBe('fix-the-flaky-build-31738a5a.md');
    expect(exportFileName({ title: 'Why does parseConfig throw ERR_MODULE_NOT_FOUND?', sessionId: ID }, 'x.json')).toBe('why-does-parseconfig-throw-err_module_not_found-31738a5a.json');
  });

  it('drops what a file system or a shell stumbles on, and cuts a long title at a word', () => {
    expect(exportFileName({ title: '  ../../etc/passwd: "quotes" & <tags> | pipes  ', sessionId: ID }, 'a.md')).toBe('etc-passwd-quotes-tags-pipes-31738a5a.md');
    const long = exportFileName({ title: 'Refactor the settings loader so that every room reads its own configuration file without a global', sessionId: ID }, 'a.md');
    expect(long).toBe('refactor-the-settings-loader-so-that-every-room-reads-31738a5a.md');
    expect(long.length).toBeLessThanOrEqual(70);
  });

  it('keeps letters of other scripts, and says the id alone when the title has no word', () => {
    expect(exportFileName({ title: 'Réparer le déploiement', sessionId: ID }, 'a.md')).toBe('réparer-le-déploiement-31738a5a.md');
    expect(exportFileName({ title: '!!!', sessionId: ID }, 'a.md')).toBe('conversation-31738a5a.md');
    // Review: vowel signs and viramas (combining marks) split Hindi and Thai words (`हिन्दी` → `ह-न-द`).
    expect(exportFileName({ title: 'हिन्दी में सारांश', sessionId: ID }, 'a.md')).toBe('हिन्दी-में-सारांश-31738a5a.md');
    expect(exportFileName({ title: 'แก้ไขบั๊ก ด่วน', sessionId: ID }, 'a.md')).toBe('แก้ไขบั๊ก-ด่วน-31738a5a.md');
    expect(exportFileName({ title: 'Untitled', sessionId: 'oc:main:hdr-9f1e' }, 'a.md')).toBe('untitled-oc-main.md');
  });
});
