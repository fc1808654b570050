import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache');
const SHARED_PREFIX = 'steward-core-';
/** A shared build nobody used for this long belongs to sources that changed since; it is removed. */
const STALE_MS = 60 * 60 * 1000;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * core/ transpiled once per content of its sources, shared by every test file (and run) that needs it:
 * transpiling it took seconds per file. Built in a folder of its own and renamed into place, so a
 * reader never sees half of it and two files building at once both end with the same whole one.
 */
function sharedCore(): string {
  const sources = sourcesUnder(join(ROOT, 'core')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const hash = createHash('sha256').update(ts.version);
  for (const { file, text } of sources) hash.update(relative(ROOT, file)).update('\0').update(text).update('\0');
  const shared = join(CACHE, `${SHARED_PREFIX}${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(shared)) {
    const now = new Date();
    utimesSync(shared, now, now);
    return shared;
  }
  const building = `${shared}.${process.pid}.${Date.now()}`;
  for (const { file, text } of sources) {
    const { outputText } = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, fileName: file });
    const target = join(building, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(building, 'package.json'), JSON.stringify({ type: 'module', version: '0.0.0-test' }));
  try {
    renameSync(building, shared);
  } catch (error) {
    // Another file built the same sources first: theirs is as good.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(shared)) throw error;
  }
  pruneStale(shared);
  return shared;
}

function pruneStale(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (!name.startsWith(SHARED_PREFIX) || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

/**
 * Our own core/ as runnable JavaScript in a fresh folder under node_modules/.cache, for what only
 * compiled files can do (a child process, a worker thread loaded by URL). It is transpiled here
 * (types are checked elsewhere) so a test never depends on a possibly stale dist/. The folder is the
 * caller's own (it may write its scripts beside `core/`); its `core/` links to the shared build.
 */
export function transpileCore(name: string): { dir: string; cleanup: () => void } {
  const shared = sharedCore();
  const dir = join(CACHE, `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(shared, 'core'), join(dir, 'core'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', version: '0.0.0-test' }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
