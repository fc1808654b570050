import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envRoots, parseConfig } from '../../../core/config/index.js';
import { resolveRoots } from '../../../core/transcripts/providers/index.js';
import { envList } from '../../../core/transcripts/roots.js';
import { tempHome } from '../../support/home.js';

describe('~ in STEWARD_*_ROOTS', () => {
  const { env, cleanup } = tempHome();
  const userHome = env.HOME!;
  cleanup();

  it('means the home folder, alone or before a slash, as a shell expands it', () => {
    const set = { ...env, STEWARD_CODEX_ROOTS: ['~/codex-sessions', '~', ' ~/a/b '].join(process.platform === 'win32' ? ';' : ':') };
    expect(envList(set, 'STEWARD_CODEX_ROOTS')).toEqual([join(userHome, 'codex-sessions'), userHome, join(userHome, 'a', 'b')]);
    expect(resolveRoots('codex', parseConfig({}), set).roots).toEqual([join(userHome, 'codex-sessions'), userHome, join(userHome, 'a', 'b')]);
  });

  it('leaves a ~ inside a name as written, and leaves out ~user and relative folders, as config.json does', () => {
    const set = { ...env, STEWARD_CODEX_ROOTS: ['~bob/sessions', '/srv/~/x', 'rel/~', '/abs/path'].join(process.platform === 'win32' ? ';' : ':') };
    expect(envList(set, 'STEWARD_CODEX_ROOTS')).toEqual(['/srv/~/x', '/abs/path']);
    expect(envRoots(set, 'STEWARD_CODEX_ROOTS')?.leftOut).toEqual([
      { path: '~bob/sessions', reason: 'not_full_path' },
      { path: 'rel/~', reason: 'not_full_path' },
    ]);
  });

  it('set but empty still means no folder; unset still means the defaults', () => {
    expect(envList({ ...env, STEWARD_CODEX_ROOTS: '' }, 'STEWARD_CODEX_ROOTS')).toEqual([]);
    expect(envList({ HOME: userHome }, 'STEWARD_CODEX_ROOTS')).toBeUndefined();
  });
});
