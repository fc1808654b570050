import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config/index.js';
import { createProviders } from '../../../core/transcripts/index.js';
import { claudeSession, uuid } from '../../support/transcripts.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

describe('~ in the roots of config.json', () => {
  it('means the home Steward was given, as in STEWARD_*_ROOTS: a transcript there is discovered', async () => {
    home = tempHome('steward-config-tilde-');
    const userHome = home.env.HOME!;
    mkdirSync(userHome, { recursive: true });
    const file = claudeSession(join(userHome, '.claude'), uuid(), 2, { cwd: '/home/ana/app' });
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { claude: { roots: ['~/.claude'] } } }));
    // The environment does not name Claude Code's roots, so config.json's are the ones watched.
    const { STEWARD_CLAUDE_ROOTS: _unset, ...env } = home.env;
    const config = loadConfig(home.dir, env);
    expect(config.providers.claude.roots).toEqual([join(userHome, '.claude')]);
    const claude = createProviders(config, env).find((p) => p.id === 'claude')!;
    const found = await claude.discover();
    expect(found.files.map((f) => f.path)).toContain(file);
  });

  it('a ~ alone is the home folder; ~user is still refused (not a full path)', () => {
    home = tempHome('steward-config-tilde-');
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { codex: { roots: ['~'] } } }));
    expect(loadConfig(home.dir, home.env).providers.codex.roots).toEqual([home.env.HOME]);
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { codex: { roots: ['~bob/sessions'] } } }));
    expect(() => loadConfig(home!.dir, home!.env)).toThrow(/must be a full path/);
  });
});
