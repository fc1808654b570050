import { describe, expect, it } from 'vitest';
import { wrongAtDepths } from './depth-harness.js';

/**
 * What the fixes for attack-followups-8 must not break or over-reach: a numbered file's next key, a label's marks
 * for other secrets, placeholders in braces, and Markdown that holds no password.
 */
describe('attack-followups-8 fixes: their edges', () => {
  it.each([
    // A numbered block ends at a line as shallow as its key, whose number is no indentation.
    ['     1\u2192db:\n     2\u2192  password: |\n     3\u2192    Xk9mQ2zLw9\n     4\u2192  user: ana\n', '     1\u2192db:\n     2\u2192  password: |\n     3\u2192    [REDACTED]\n     4\u2192  user: ana\n'],
    // A bold label's closing marks stay for a key's name too.
    ['**API_KEY:**Xk9mQ2zLw9abcdEf', '**API_KEY:**[REDACTED]'],
    ['***Password:***hunter2x', '***Password:***[REDACTED]'],
    // Braced placeholders: numbered, formatted, or a name (with a digit only when it names a credential).
    ['Password={0};Pwd={0,-8};pwd={1:x}', 'Password={0};Pwd={0,-8};pwd={1:x}'],
    ['password={name} password={dbPassword} password={dbPassword2}', 'password={name} password={dbPassword} password={dbPassword2}'],
    ['Server=db;Uid=sa;Pwd={x9k2m7q4};', 'Server=db;Uid=sa;Pwd=[REDACTED];'],
    // A working directory written out in full stays; a folder under ~ beside a server is a password.
    ['PWD=/home/ana/src;Server=db;Uid=sa;', 'PWD=/home/ana/src;Server=db;Uid=sa;'],
    // Markdown with no password in it.
    ['| Password | Notes |\n|---|---|\n| pw_2x | rotated |', '| Password | Notes |\n|---|---|\n| pw_2x | rotated |'],
    ['| password | required |', '| password | required |'],
    ['Password:\n```bash\nexport FOO=bar\n```', 'Password:\n```bash\nexport FOO=bar\n```'],
    ['| Password | hunter2! |', '| Password | [REDACTED] |'],
  ])('%j', async (text, expected) => {
    expect(await wrongAtDepths(text, expected, [0, 1, 2, 3])).toEqual([]);
  });
});
