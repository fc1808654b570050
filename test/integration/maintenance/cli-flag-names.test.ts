import { afterEach, describe, expect, it } from 'vitest';
import { namedFor, StewardError } from '../../../core/api/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

// A value the contract refuses (zod, in the dispatcher) is said with the flag the person typed
// (`--base-url`), not the request field it fills (`baseUrl`), on every verb; --json says it so too,
// while the error's details keep the contract's field names for scripts.

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

function env(): NodeJS.ProcessEnv {
  home = tempHome('steward-cli-flag-names-');
  return { ...home.env, STEWARD_CLAUDE_ROOTS: '', STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', STEWARD_OPENCLAW_ROOTS: '', STEWARD_CLAUDE_DESKTOP_ROOTS: '' };
}

const add = ['maintenance', 'add', '--repo', 'acme/widgets', '--forge', 'gitea'];

describe('a value the contract refuses, on the command line', () => {
  it('maintenance add --base-url ftp://… names --base-url, in words and in --json', async () => {
    const e = env();
    const words = await runIn(e, ...add, '--base-url', 'ftp://forge.example/api/v1', '--idempotency-key', 'flags-1');
    expect(words).toEqual({ code: 2, out: '', err: 'steward: --base-url must be a URL that starts with http:// or https://\n' });
    const json = await runIn(e, ...add, '--base-url', 'ftp://forge.example/api/v1', '--idempotency-key', 'flags-1', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'invalid_params', message: '--base-url must be a URL that starts with http:// or https://', method: 'Maintenance.Add' } });
  });

  it('a verb with no renaming of its own (maintenance enroll) names --idempotency-key', async () => {
    const e = env();
    const enroll = await runIn(e, 'maintenance', 'enroll', '--cache', 'nowhere.db', '--repo', 'acme/widgets', '--idempotency-key', 'x'.repeat(200));
    expect(enroll.code).toBe(2);
    expect(enroll.err).toMatch(/^steward: --idempotency-key: expected 1-128 letters/);
    expect(enroll.err).not.toMatch(/idempotencyKey/);
  });

  it('two refused fields are each named by their flag', async () => {
    const e = env();
    const both = await runIn(e, ...add, '--base-url', 'ftp://forge.example/api/v1', '--idempotency-key', 'x'.repeat(200));
    expect(both.code).toBe(2);
    expect(both.err).toContain('--base-url must be a URL that starts with http:// or https://');
    expect(both.err).toContain('--idempotency-key: expected 1-128 letters');
    expect(both.err).not.toMatch(/baseUrl|idempotencyKey/);
  });
});

describe('namedFor on a schema refusal', () => {
  const flags: Record<string, string> = { baseUrl: '--base-url', policy: '--policy', repo: '--repo' };
  const refusal = (message: string, paths: string[]) => new StewardError('invalid_params', message, { method: 'Maintenance.Add', issues: paths.map((path) => ({ path, message: 'x' })) });

  it('renames only a clause that opens with a whole refused top-level field; the details keep the contract names', () => {
    const error = refusal('baseUrl must be a URL that starts with http:// or https://; policy.sync must be one of off, head; repo names baseUrl too', ['baseUrl', 'policy.sync']);
    const named = namedFor(error, (field) => flags[field]);
    // `policy.sync` is a field inside one (no flag names it whole); `repo` was not refused; words after the lead stay.
    expect(named.message).toBe('--base-url must be a URL that starts with http:// or https://; policy.sync must be one of off, head; repo names baseUrl too');
    expect(named.details).toEqual(error.details);
  });
});
