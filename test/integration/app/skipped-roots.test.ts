import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig, readConfigFile } from '../../../core/config/index.js';
import { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { transcriptsHandlers } from '../../../core/transcripts/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
  home?.cleanup();
  home = undefined;
});

/** config.json with a `~` root, read by a Steward whose HOME is relative (names no folder). */
function homeless(): NodeJS.ProcessEnv {
  home = tempHome('steward-skipped-roots-');
  writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ providers: { claude: { roots: ['/abs/claude', '~/work/claude'] } } }));
  const env: NodeJS.ProcessEnv = { ...home.env, HOME: 'rel/dir' };
  delete env.STEWARD_CLAUDE_ROOTS;
  return env;
}

describe('a ~ root left out because HOME is not a full path', () => {
  it('is listed by Providers.Roots beside the kind of root it was written for, as config.json names it', async () => {
    const env = homeless();
    const running = loadConfig(home!.dir, env);
    const listing = await transcriptsHandlers(running, env, () => parseConfig(readConfigFile(home!.dir)))['Providers.Roots']({}, { transport: 'in-process' });
    const claude = listing.providers.find((p) => p.provider === 'claude')!.roots.find((r) => r.key === 'roots')!;
    expect(claude.leftOut).toEqual([{ path: '~/work/claude', reason: 'home_not_full_path' }]);
    expect(claude.watched.map((w) => w.path)).toEqual(['/abs/claude']);
    const codex = listing.providers.find((p) => p.provider === 'codex')!.roots[0]!;
    expect(codex.leftOut).toBeUndefined();
  });

  it('is logged once as Steward starts, by its key alone: never the folder, nor what HOME holds', () => {
    const env = homeless();
    const logger = createMemoryLogger();
    core = Core.open({ home: { dir: home!.dir, kind: 'env' }, env, logger });
    const said = logger.lines.filter((line) => line.includes('providers.claude.roots.1'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^warn /);
    expect(logger.lines.join('\n')).not.toMatch(/work\/claude|rel\/dir/);
  });
});

describe('a relative folder in a STEWARD_*_ROOTS variable', () => {
  it('is left out, listed by Providers.Roots with its reason, never read under the folder Steward started in', async () => {
    home = tempHome('steward-env-roots-');
    const env: NodeJS.ProcessEnv = { ...home.env, STEWARD_CODEX_ROOTS: ['.codex', '/abs/codex'].join(process.platform === 'win32' ? ';' : ':') };
    const running = loadConfig(home.dir, env);
    const listing = await transcriptsHandlers(running, env, () => parseConfig(readConfigFile(home!.dir)))['Providers.Roots']({}, { transport: 'in-process' });
    const codex = listing.providers.find((p) => p.provider === 'codex')!.roots[0]!;
    expect(codex.source).toBe('environment');
    expect(codex.watched.map((w) => w.path)).toEqual(['/abs/codex']);
    expect(codex.leftOut).toEqual([{ path: '.codex', reason: 'not_full_path' }]);
  });
});
