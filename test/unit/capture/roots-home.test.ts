import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../core/config/index.js';
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

  it('leaves ~user, a ~ inside a name and other paths as written', () => {
    const set = { ...env, STEWARD_CODEX_ROOTS: ['~bob/sessions', '/srv/~/x', 'rel/~', '/abs/path'].join(process.platform === 'win32' ? ';' : ':') };
    expect(envList(set, 'STEWARD_CODEX_ROOTS')).toEqual(['~bob/sessions', '/srv/~/x', 'rel/~', '/abs/path']);
  });

  it('set but empty still means no folder; unset still means the defaults', () => {
    expect(envList({ ...env, STEWARD_CODEX_ROOTS: '' }, 'STEWARD_CODEX_ROOTS')).toEqual([]);
    expect(envList({ HOME: userHome }, 'STEWARD_CODEX_ROOTS')).toBeUndefined();
  });
});
