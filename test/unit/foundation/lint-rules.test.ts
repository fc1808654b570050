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
});
