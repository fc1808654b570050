import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../core/api/index.js';
import { stewardVersion } from '../../../core/config/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

/*
 * QA: with `{bad` in config.json, `steward info` (what a person runs to find out what is wrong) said one
 * line and nothing else, and no refusal named which config.json. `info` now says what it can and names
 * the problem with the file's full path; other verbs still refuse, naming the file in full.
 */
let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

function brokenHome(text = '{bad'): TempHome {
  home = tempHome('steward-info-config-');
  writeFileSync(join(home.dir, 'config.json'), text);
  return home;
}

describe('steward info with a config.json that cannot be read', () => {
  it('says the version, where its files are, that it is not running, and what is wrong with which file', async () => {
    const { dir, env } = brokenHome();
    const file = join(dir, 'config.json');
    const { code, out, err } = await runIn(env, 'info');
    expect(code).toBe(1);
    expect(err).toBe('');
    expect(out).toBe(
      `Steward ${stewardVersion()} (protocol ${PROTOCOL_VERSION}) — Not running; its settings file has a problem\n` +
        `  ${file}: not valid JSON at line 1, column 2\n` +
        '  Fix that file (or move it aside to start from the defaults), then run `steward info` again.\n' +
        `Steward keeps its files in ${dir} (the folder STEWARD_HOME names).\n`,
    );
  });

  it('--json: the same facts, and the problem as the error a script checks for', async () => {
    const { dir, env } = brokenHome();
    const { code, out } = await runIn(env, 'info', '--json');
    expect(code).toBe(1);
    expect(JSON.parse(out)).toEqual({
      version: stewardVersion(),
      protocol: PROTOCOL_VERSION,
      home: dir,
      homeKind: 'env',
      running: false,
      error: { code: 'config_invalid', message: `${join(dir, 'config.json')}: not valid JSON at line 1, column 2` },
    });
  });

  it('other verbs still refuse, naming the file in full, in words and in JSON', async () => {
    const { dir, env } = brokenHome('{"bogus": 1}');
    const file = join(dir, 'config.json');
    const text = await runIn(env, 'projects');
    expect(text.code).toBe(1);
    expect(text.err).toBe(`steward: ${file}: unknown key "bogus"\n`);
    const json = await runIn(env, 'projects', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'config_invalid', message: `${file}: unknown key "bogus"` } });
  });
});
