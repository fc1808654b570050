import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layering is enforced by lint; these cases prove the rules bite on the real config. */
const eslint = new ESLint({ cwd: process.cwd() });

async function rulesHit(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('import rules between runtimes', () => {
  it('forbids electron in core/', async () => {
    expect(await rulesHit('core/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('core/x.ts', "import { ipcMain } from 'electron/main';\nexport const a = ipcMain;\n")).toContain('no-restricted-imports');
  });

  it('forbids the renderer in core/', async () => {
    expect(await rulesHit('core/x.ts', "import { x } from '../renderer/src/x.js';\nexport const a = x;\n")).toContain('no-restricted-imports');
  });

  it('allows core/ its own rooms and node built-ins', async () => {
    expect(await rulesHit('core/x.ts', "import { join } from 'node:path';\nimport { Core } from './core.js';\nexport const a = [join, Core];\n")).toEqual([]);
  });

  it('forbids node built-ins, electron and core internals in the renderer', async () => {
    expect(await rulesHit('renderer/src/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('renderer/src/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('renderer/src/x.ts', "import type { Core } from '../../core/core.js';\nexport type A = Core;\n")).toContain('no-restricted-imports');
  });

  it('allows the renderer only type imports of the contract', async () => {
    expect(await rulesHit('renderer/src/x.ts', "import type { MethodName } from '../../core/api/index.js';\nexport type A = MethodName;\n")).toEqual([]);
    expect(await rulesHit('renderer/src/x.ts', "import { METHOD_NAMES } from '../../core/api/index.js';\nexport const a = METHOD_NAMES;\n")).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('allows the renderer the files of the contract it runs, which import nothing', async () => {
    expect(await rulesHit('renderer/src/x.ts', "import { voiceOf } from '../../core/api/reading.js';\nexport const a = voiceOf;\n")).toEqual([]);
    expect(await rulesHit('renderer/src/x.ts', "import { PROVIDERS } from '../../core/api/registry.js';\nexport const a = PROVIDERS;\n")).toEqual([]);
    expect(await rulesHit('renderer/src/x.ts', "import { SKIP_WORDS } from '../../core/api/import-words.js';\nexport const a = SKIP_WORDS;\n")).toEqual([]);
    expect(await rulesHit('renderer/src/x.ts', "import { partFold } from '../../core/api/part-words.js';\nexport const a = partFold;\n")).toEqual([]);
    expect(await rulesHit('renderer/src/x.ts', "import { countOf } from '../../core/api/words.js';\nexport const a = countOf;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('core/api/reading.ts', "import { z } from 'zod';\nexport const a = z;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('core/api/registry.ts', "import { countOf } from './words.js';\nexport const a = countOf;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('core/api/import-words.ts', "import { SKIP_REASONS } from './lists.js';\nexport const a = SKIP_REASONS;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('core/api/part-words.ts', "import { countOf } from './words.js';\nexport const a = countOf;\n")).toContain('no-restricted-imports');
    expect(await rulesHit('renderer/src/x.ts', "import { sweepSkipWords } from '../../core/api/sweeper-words.js';\nexport const a = sweepSkipWords;\n")).toEqual([]);
    expect(await rulesHit('core/api/sweeper-words.ts', "import { countOf } from './words.js';\nexport const a = countOf;\n")).toContain('no-restricted-imports');
  });
});

describe("core/'s room borders", () => {
  const borders = async (filePath: string, source: string) => (await rulesHit(filePath, `import { x } from '${source}';\nexport const a = x;\n`)).filter((r) => r === 'steward/room-borders');

  it('forbids reaching inside another room', async () => {
    expect(await borders('core/gateway/x.ts', '../store/database.js')).toHaveLength(1);
    expect(await borders('core/sweeper/x.ts', '../secrets/patterns.js')).toHaveLength(1);
  });

  it('forbids reaching inside a sub-room from its parent', async () => {
    expect(await borders('core/sweeper/x.ts', './curators/openai.js')).toHaveLength(1);
    expect(await borders('core/sweeper/x.ts', './curators/index.js')).toEqual([]);
  });

  it('forbids an import that runs up a layer, even through an index', async () => {
    expect(await borders('core/gateway/x.ts', '../capture/index.js')).toHaveLength(1);
    expect(await borders('core/capture/x.ts', '../sweeper/index.js')).toHaveLength(1);
    expect(await borders('core/api/x.ts', '../store/index.js')).toHaveLength(1);
    expect(await borders('core/maintenance/x.ts', '../core.js')).toHaveLength(1);
  });

  it('allows an index on the same or a lower layer, and a room its own files', async () => {
    expect(await borders('core/capture/x.ts', '../backfill/index.js')).toEqual([]);
    expect(await borders('core/sweeper/x.ts', '../gateway/index.js')).toEqual([]);
    expect(await borders('core/sweeper/curators/x.ts', '../digest.js')).toEqual([]);
    expect(await borders('core/cli/x.ts', '../core.js')).toEqual([]);
  });

  it('asks for a layer for a room that has none', async () => {
    expect(await borders('core/newroom/x.ts', '../api/index.js')).toHaveLength(1);
  });
});
