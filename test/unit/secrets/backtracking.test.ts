import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';

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
// a quoted password six JSON levels deep, ran for minutes and held the process the whole time.
describe('a quoted flag value never backtracks exponentially over backslashes', () => {
  it.each(['mysql -p"', 'docker login -p "', 'x --password "', 'keytool -storepass "', 'curl -u "ana:'])('%s then 40 backslashes', (prefix) => {
    expect(timed(`${prefix}${'\\'.repeat(40)} x`).ms).toBeLessThan(250);
  });

  it.each([4, 5, 6, 7])('a quoted password %i JSON levels deep: fast, hidden, and the JSON intact', (levels) => {
    const { ms, out } = timed(nested('mysql -u root -p"Xk9mQ2zPw" db', levels));
    expect(ms).toBeLessThan(250);
    expect(out).not.toContain('Xk9mQ2zPw');
    expect(innermost(out, levels)).toMatch(/^mysql -u root -p"?\[REDACTED\]"? db$/);
  });

  it('a password after an escaped quote that never closes, six JSON levels deep (460 characters), takes milliseconds', () => {
    expect(timed(nested('mysql -u root -p\\"Xk9mQ2z db', 6)).ms).toBeLessThan(250);
  });
});
