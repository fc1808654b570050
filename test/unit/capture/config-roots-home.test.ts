import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, skippedRoots } from '../../../core/config/index.js';
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

  // A relative HOME names no one folder (it would read as a folder under wherever Steward was started):
  // the file is right and the environment is not, so only the roots written from ~ are left out, each
  // with its reason; the rest of config.json still applies, where refusing it would stop Steward starting.
  it('with a relative HOME, a ~ root is skipped with a typed reason and the rest of config.json still loads', () => {
    home = tempHome('steward-config-tilde-');
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ log: { level: 'warn' }, providers: { claude: { roots: ['~/.claude', '/abs/claude'] }, codex: { roots: ['~'] } } }));
    const env: NodeJS.ProcessEnv = { ...home.env, HOME: 'rel/dir' };
    delete env.STEWARD_CLAUDE_ROOTS;
    delete env.STEWARD_CODEX_ROOTS;
    const config = loadConfig(home.dir, env);
    expect(config.log.level).toBe('warn');
    expect(config.providers.claude.roots).toEqual(['/abs/claude']);
    expect(config.providers.codex.roots).toEqual([]);
    const skipped = skippedRoots(config);
    expect(skipped.map((e) => [e.code, e.details?.keys])).toEqual([
      ['config_invalid', ['providers.claude.roots.0']],
      ['config_invalid', ['providers.codex.roots.0']],
    ]);
    expect(skipped[0]!.message).toMatch(/home folder \(HOME\) is not a full path/);
    // Which folder HOME named is the person's own: not in an error that may be logged.
    expect(skipped[0]!.message).not.toContain('rel/dir');
  });

  it('with a full HOME nothing is skipped', () => {
    home = tempHome('steward-config-tilde-');
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { codex: { roots: ['~/x'] } } }));
    const config = loadConfig(home.dir, home.env);
    expect(config.providers.codex.roots).toEqual([join(home.env.HOME!, 'x')]);
    expect(skippedRoots(config)).toEqual([]);
  });
});
