import { afterEach, describe, expect, it } from 'vitest';
import { startOwner, type Owner } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

/*
 * QA: bare `steward token` was a usage error though its help reads "the control panel's access token".
 * A person who types the noun wants the token, and a token is used as the address that carries it: bare
 * `token` prints that address, as `steward info` does ("Control panel: …"); `token rotate` replaces it.
 */
let home: TempHome | undefined;
let owner: Owner | undefined;
afterEach(async () => {
  await owner?.stop();
  owner = undefined;
  home?.cleanup();
  home = undefined;
});

describe('steward token', () => {
  it("prints the running Steward's control panel address with its token, in words or as JSON", async () => {
    home = tempHome('steward-token-');
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, schedule: false });
    const url = owner.panelUrl;
    expect(await runIn(home.env, 'token')).toEqual({ code: 0, out: `Control panel: ${url}\n`, err: '' });
    const json = await runIn(home.env, 'token', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ url });
    expect(await runIn(home.env, '--json', 'token')).toEqual(json);
  });

  it('with no Steward running: says there is no address until it starts (not_found), as `steward open` does', async () => {
    home = tempHome('steward-token-');
    const { code, out, err } = await runIn(home.env, 'token');
    expect({ code, out }).toEqual({ code: 1, out: '' });
    expect(err).toMatch(/^steward: Steward is not running, so the control panel has no address yet: start it with `npm start` or `steward serve`, then run `steward token`\.\n$/);
  });

  it('rotate answers in JSON whether --json comes after it, before it, or before token', async () => {
    home = tempHome('steward-token-');
    for (const argv of [['token', 'rotate', '--json'], ['token', '--json', 'rotate'], ['--json', 'token', 'rotate']]) {
      const { code, out, err } = await runIn(home.env, ...argv);
      expect({ argv, code, err }).toEqual({ argv, code: 0, err: '' });
      expect(JSON.parse(out)).toMatchObject({ rotatedAt: expect.any(Number) });
    }
  });

  it('its help lists rotate', async () => {
    home = tempHome('steward-token-');
    const help = await runIn(home.env, 'token', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/rotate/);
  });
});
