import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO, 'bin', 'steward.js');

/** Module hooks that name every file module the process loads, one `loaded <url>` line each on stderr. */
const HOOKS = `export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** Runs `steward …` as a person would, and lists the files of the modules it loaded (relative to the package). */
function runWatched(...argv: string[]): { status: number | null; stdout: string; loaded: string[] } {
  const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, BIN, ...argv], { encoding: 'utf8', timeout: 20_000 });
  const loaded = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => fileURLToPath(line.slice('loaded '.length)).slice(REPO.length));
  return { status: run.status, stdout: run.stdout, loaded };
}

describe('the steward command starts light', () => {
  it('answers --version from package.json, loading nothing of the CLI, the Core or a dependency', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = runWatched(flag);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.loaded).toEqual(['bin/steward.js']);
    }
  });

  it('lists its verbs in --help without loading the Core, the stores or the server (they load when a verb runs)', () => {
    const run = runWatched('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: steward/);
    expect(run.loaded).toContain('dist/core/cli/index.js');
    const heavy = run.loaded.filter((file) => /^dist\/core\/(core\.js|store\/|server\/|gateway\/|maintenance\/|mcp\/|log\/)|^node_modules\/(better-sqlite3|@anthropic-ai|openai|@modelcontextprotocol)\//.test(file));
    expect(heavy).toEqual([]);
  });
});
