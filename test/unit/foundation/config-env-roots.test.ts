import { writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rootKinds } from '../../../core/api/index.js';
import { envRoots, loadConfig, parseConfig, skippedRoots } from '../../../core/config/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const list = (...paths: string[]) => paths.join(delimiter);
const fullHome = { HOME: '/home/ana' };

// A relative folder would be read under whichever folder Steward was started in (`cd /x && steward sweep`):
// a STEWARD_*_ROOTS variable takes the rule config.json's roots take, so such a folder is left out and said.
describe('STEWARD_*_ROOTS take the rule of config.json’s roots', () => {
  it('keeps full paths and `~/` ones, and leaves a relative one out with its reason', () => {
    const read = envRoots({ ...fullHome, STEWARD_CODEX_ROOTS: list('.codex', '/srv/codex', '~/codex', 'rel/dir') }, 'STEWARD_CODEX_ROOTS');
    expect(read).toEqual({
      roots: ['/srv/codex', join('/home/ana', 'codex')],
      leftOut: [
        { path: '.codex', reason: 'not_full_path' },
        { path: 'rel/dir', reason: 'not_full_path' },
      ],
    });
  });

  it('leaves a `~/` one out when HOME is not a full path, as config.json’s', () => {
    const read = envRoots({ HOME: 'rel/home', STEWARD_CLAUDE_ROOTS: list('~/.claude', '/abs/claude') }, 'STEWARD_CLAUDE_ROOTS');
    expect(read).toEqual({ roots: ['/abs/claude'], leftOut: [{ path: '~/.claude', reason: 'home_not_full_path' }] });
  });

  it('unset is undefined (config.json or the defaults decide); set but empty is no roots at all', () => {
    expect(envRoots(fullHome, 'STEWARD_GEMINI_ROOTS')).toBeUndefined();
    expect(envRoots({ ...fullHome, STEWARD_GEMINI_ROOTS: ' ' }, 'STEWARD_GEMINI_ROOTS')).toEqual({ roots: [], leftOut: [] });
  });

  it('agrees with config.json on every path: kept from the environment exactly when config.json takes it', () => {
    const paths = ['/abs', '~/x', '~', '.codex', 'rel/dir', '~bob/x', './x'];
    for (const path of paths) {
      const taken = (() => {
        try {
          parseConfig({ providers: { codex: { roots: [path] } } });
          return true;
        } catch {
          return false;
        }
      })();
      expect([path, envRoots({ ...fullHome, STEWARD_CODEX_ROOTS: path }, 'STEWARD_CODEX_ROOTS')!.leftOut.length === 0]).toEqual([path, taken]);
    }
  });

  it('every STEWARD_*_ROOTS of the registry is counted among the skipped roots, by its variable, never its folder', () => {
    home = tempHome('steward-env-roots-');
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ log: { level: 'warn' } }));
    const kinds = rootKinds();
    const env = { ...home.env, ...Object.fromEntries(kinds.map(({ kind }) => [kind.env, list('/abs/ok', 'rel/secret-folder')])) };
    const config = loadConfig(home.dir, env);
    expect(config.log.level).toBe('warn');
    const skipped = skippedRoots(config);
    expect(skipped.map((e) => [e.code, e.details?.keys, e.details?.reason])).toEqual(kinds.map(({ kind }) => ['config_invalid', [`${kind.env}.1`], 'not_full_path']));
    for (const error of skipped) {
      expect(error.message).toMatch(/is not a full path/);
      expect(error.message).not.toContain('secret-folder');
    }
  });
});
