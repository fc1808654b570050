import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { ClosedOutput, pipeWriter } from '../../../core/cli/output.js';
import { besidesNobodyImports, captureIo, runIn } from '../../support/cli.js';
import { historyHome } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { BIN, REPO } from '../../support/mcp.js';

/**
 * `steward …` from the built dist with its stdout a pipe whose reader has gone before anything is
 * written, as `steward projects | head -4` leaves it once head has its lines: every write meets EPIPE.
 */
function runIntoClosedPipe(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { env, cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
  });
}

let home: TempHome;

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'core', 'cli', 'main.js'))) throw new Error('run `npm run build:node` first');
  ({ home } = historyHome('steward-cli-pipe-'));
  expect((await runIn(home.env, 'backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

describe('a reader that closes the pipe early (`steward projects | head -4`)', () => {
  it.each([['projects'], ['sessions', 'list'], ['search', 'apple'], ['--help'], ['--version'], ['projects', '--json']])('%j ends quietly with exit 0', async (...argv) => {
    const { code, err } = await runIntoClosedPipe(home.env, ...argv);
    // No Steward runs here: search's note that nothing imports meanwhile is what it says, not the pipe's error.
    expect({ code, err: besidesNobodyImports(err) }).toEqual({ code: 0, err: '' });
  });

  it('the next write after EPIPE ends the command (stdout) or is dropped (stderr); the stream error never escapes', async () => {
    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const out = pipeWriter(broken, true);
    out('first line\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => out('second line\n')).toThrow(ClosedOutput);
    const err = pipeWriter(new Writable({ write: (_c, _e, callback) => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) }), false);
    err('one\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => err('two\n')).not.toThrow();
    // A stream that is fine is written to as it is.
    const fine = new PassThrough();
    pipeWriter(fine, true)('whole\n');
    expect(String(fine.read())).toBe('whole\n');
  });

  it('a command whose output is closed exits 0 and says nothing on stderr', async () => {
    const io = captureIo(home.env);
    io.stdout = () => {
      throw new ClosedOutput();
    };
    expect(await runCli(['projects'], io)).toBe(0);
    expect(await runCli(['projects', '--json'], io)).toBe(0);
    expect(await runCli(['--help'], io)).toBe(0);
    expect(io.err).toBe('');
  });
});
