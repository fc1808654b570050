import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/** `text` as a tool's output nested `levels` deep in JSON (each level doubles the backslashes before a quote). */
function nested(text: string, levels: number): string {
  let out = text;
  for (let i = 0; i < levels; i += 1) out = JSON.stringify({ output: out });
  return out;
}

function innermost(text: string, levels: number): string {
  let out = text;
  for (let i = 0; i < levels; i += 1) out = (JSON.parse(out) as { output: string }).output;
  return out;
}

/** Milliseconds redactSecrets takes on `text`, and what it gave. */
function timed(text: string): { ms: number; out: string } {
  const started = performance.now();
  const out = redactSecrets(text);
  return { ms: performance.now() - started, out };
}

// A run of backslashes in a quoted flag value that finds no closing quote was read in exponentially many
// ways (a backslash alone, or with the next character): 34 backslashes took seconds; a 460-character line,
// a quoted password six JSON levels deep, ran for minutes and held the process the whole time. Their bound is a
// second: these take milliseconds on any machine, and exponential reading takes seconds to minutes.
describe('a quoted flag value never backtracks exponentially over backslashes', () => {
  it.each(['mysql -p"', 'docker login -p "', 'x --password "', 'keytool -storepass "', 'curl -u "ana:'])('%s then 40 backslashes', (prefix) => {
    expect(timed(`${prefix}${'\\'.repeat(40)} x`).ms).toBeLessThan(1000);
  });

  it.each([4, 5, 6, 7])('a quoted password %i JSON levels deep: fast, hidden, and the JSON intact', (levels) => {
    const { ms, out } = timed(nested('mysql -u root -p"Xk9mQ2zPw" db', levels));
    expect(ms).toBeLessThan(1000);
    expect(out).not.toContain('Xk9mQ2zPw');
    expect(innermost(out, levels)).toMatch(/^mysql -u root -p"?\[REDACTED\]"? db$/);
  });

  it('a password after an escaped quote that never closes, six JSON levels deep (460 characters), takes milliseconds', () => {
    expect(timed(nested('mysql -u root -p\\"Xk9mQ2z db', 6)).ms).toBeLessThan(1000);
  });
});

// The shapes attack-followups-5 widened, each on a 1 MB line built to make it read a character two ways: four
// times the line must take about four times as long (a 1 MB line takes 80-120 ms on an idle machine, more on a slow one).
describe('the widened shapes read a 1 MB adversarial line in a moment', () => {
  const MB = 1_000_000;
  const fill = (unit: string, prefix = '', suffix = '') => (chars: number) => `${prefix}${unit.repeat(Math.ceil(chars / unit.length))}${suffix}`;
  it.each([
    ['a pwd / _pass name repeated (secret-assignment)', fill('a_pass_pwd', '', '=Hx7mQ2zLw9;')],
    ['pwd names with signs (secret-assignment)', fill('Pwd=;')],
    ['single-dash -Password repeated (password-flag)', fill(' -Password')],
    ['-Password and an unclosed quote of backslashes (password-flag)', fill('\\', ' -Password "', ' x')],
    ['Markdown bold labels repeated (password-assignment)', fill('**Password:**')],
    ['Markdown bold before the colon repeated (password-assignment)', fill('**Password**')],
    ['a prose word then backslashes (password-in-prose)', fill('\\', 'password is wrong', '')],
    ['a prose word then dots (password-in-prose)', fill('.', 'password is wrong', 'x')],
    ['a prompt whose user never ends in a colon, repeated (password-in-prose)', fill(`password for ${'a'.repeat(40)} `)],
    ['requirepass repeated (password-named-bare)', fill('requirepass ')],
    ['az login then -p repeated (platform-login-password)', fill(' -p', 'az login', '')],
    ['ssh-keygen then -N repeated (ssh-keygen-passphrase)', fill(' -N', 'ssh-keygen', '')],
    ['ssh-keygen -N and an unclosed quote of backslashes (ssh-keygen-passphrase)', fill('\\', "ssh-keygen -N '", ' x')],
    ['setx then names repeated (setx-password)', fill(' DB_PASSWORD', 'setx', '')],
    ['<add key=… value=" then backslashes (dotnet-app-setting)', fill('\\', '<add key="SmtpPassword" value="', '')],
    ['<add key=" repeated (dotnet-app-setting)', fill('<add key="pwd" value="')],
    ['a prompt answered by spaces then a line break, repeated (password-in-prose)', fill('password for ana: \t \n')],
    ['bold labels each with no value (password-assignment)', fill('**Password:**;')],
    ['setx then names about a password repeated (setx-password)', fill(' PASSWORD_LENGTH', 'setx', '')],
    ['a connection string whose parts never reach a password (connection-string-password)', fill('Server=x;Uid=sa;')],
    ['a connection string of keys without values (connection-string-password)', fill('a=;', 'Server=;', '')],
    ['a connection string whose password never ends (connection-string-password)', fill('x', 'Server=x;Pwd=', '')],
    // attack-followups-6's shapes, and lines of many matches: 1 MB of `Password: See ` took 550-850 ms (71,000 matches, no backtracking).
    ['a password label and a word repeated (password-assignment)', fill('Password: See ')],
    ['a password first whose server never comes (connection-string-password)', fill('Pwd=x;', 'Server', '')],
    ['password keys before a block that never comes (yaml-block-secret)', fill('password: |\n')],
    ['a YAML block of many lines (yaml-block-secret)', fill('\n  x', 'password: |', '')],
    ['a YAML block of blank lines (yaml-block-secret)', fill('\n\n  y', 'password: |', '')],
    ['YAML blocks repeated (yaml-block-secret)', fill('password: |\n  Hx7mQ2zLw9\n')],
    ['token blocks of a token-like line repeated (yaml-block-secret)', fill(`token: |\n  ${'a'.repeat(70)}\n`)],
    ['a package manager then names repeated (sshpass)', fill(' sshpass', 'brew install', ' -p x')],
    ['a client secret of letters repeated (credential-in-prose)', fill('the client secret was YaZqYUxUelhkOUSTpNKrTHTC ')],
  ])('%s', (name, make) => {
    expect(redactionGrowth(make, MB), name).toBeLessThan(LINEAR_GROWTH);
  });
});
