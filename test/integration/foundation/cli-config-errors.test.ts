import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problemOf } from '../../../core/config/problems.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

// QA: a value of the wrong type in config.json said `"capture.exclude" must be a array`. A config.json
// Steward cannot use is no usage error (nothing typed was wrong): it is a failure, exit 1, as the README's exit codes say.

let home: TempHome;
beforeEach(() => {
  home = tempHome('steward-cli-config-');
});
afterEach(() => home?.cleanup());

describe('a config.json value of the wrong type', () => {
  it('is said in words with the right article, and exits 1 (a failure, not a usage error)', async () => {
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ capture: { exclude: 'x' } }));
    const run = await runIn(home.env, 'projects');
    expect(run.code).toBe(1);
    expect(run.err).toBe(`steward: ${join(home.dir, 'config.json')}: "capture.exclude" must be an array\n`);
    const json = await runIn(home.env, 'projects', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'config_invalid' } });
  });

  it.each([
    ['array', 'must be an array'],
    ['object', 'must be an object'],
    ['string', 'must be a string'],
    ['number', 'must be a number'],
    ['boolean', 'must be true or false'],
    ['int', 'must be a whole number'],
  ])('expected %s: %s', (expected, words) => {
    const issue = { code: 'invalid_type', expected, path: [], message: '', input: null } as unknown as Parameters<typeof problemOf>[0];
    expect(problemOf(issue).message).toBe(words);
  });
});
