import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Our own core/ as runnable JavaScript in a fresh folder under node_modules/.cache, for what only
 * compiled files can do (a child process, a worker thread loaded by URL). It is transpiled here
 * (types are checked elsewhere) so a test never depends on a possibly stale dist/.
 */
export function transpileCore(name: string): { dir: string; cleanup: () => void } {
  const dir = join(ROOT, 'node_modules', '.cache', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  for (const file of sourcesUnder(join(ROOT, 'core'))) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    });
    const target = join(dir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', version: '0.0.0-test' }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
