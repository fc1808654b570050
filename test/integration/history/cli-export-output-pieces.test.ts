import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { processIo } from '../../../core/cli/output.js';
import { Core } from '../../../core/index.js';
import { captureIo, runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A conversation whose export leaves the owner in at least three pieces (420 turns of about 7,000
 * characters, as export-pieces.test.ts builds it), exported in-process with --output.
 */
const SESSION = '7a3e5c1d-2b4f-4d6a-9c8e-1f0a2b3c4d5e';
const TURNS = 420;
const uuidOf = (n: number) => `7a3e5c1d-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const turnText = (n: number) => `Turn ${n}: ${'the orchard ledger lists every graft and its rootstock. '.repeat(125)}`;

let home: TempHome;
let expected: string;

beforeAll(async () => {
  home = tempHome('steward-export-output-pieces-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 86_400_000;
  const lines = Array.from({ length: TURNS }, (_, n) =>
    claudeLine({ sessionId: SESSION, cwd: '/work/ledger', ts: new Date(start + n * 1000), type: n % 2 === 0 ? 'user' : 'assistant', uuid: uuidOf(n), text: turnText(n) }),
  );
  writeJsonl(join(root, 'projects', '-work-ledger', `${SESSION}.jsonl`), lines);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  expect((await runIn(home.env, 'backfill', '--all', '--json')).code).toBe(0);
  const streamed = await runIn(home.env, 'sessions', 'export', SESSION);
  expect(streamed.code).toBe(0);
  expected = streamed.out;
}, 60_000);

afterEach(() => vi.restoreAllMocks());
afterAll(() => home?.cleanup());

/** A fresh, empty folder to export into. */
function folder(name: string): string {
  const dir = join(home.dir, name);
  mkdirSync(dir);
  return dir;
}

/** Calls `at` each time the CLI asks for the next piece, before the owner answers it. */
function onExportNext(at: (asked: number) => void): void {
  const call = Core.prototype.call;
  let asked = 0;
  vi.spyOn(Core.prototype, 'call').mockImplementation(function (this: Core, method: string, params: unknown, ctx?: unknown) {
    if (method === 'Sessions.ExportNext') at(++asked);
    return (call as (m: string, p: unknown, c?: unknown) => Promise<unknown>).call(this, method, params, ctx);
  } as typeof call);
}

describe('steward sessions export --output of a long conversation', () => {
  it('writes each piece to a temp file beside FILE as it arrives, then puts it in place byte for byte as stdout had it', async () => {
    const dir = folder('streamed');
    const file = join(dir, 'ledger.md');
    const seen: string[] = [];
    onExportNext(() => {
      // Between pieces: FILE is not there yet, the hidden temp file beside it holds the pieces so far.
      const names = readdirSync(dir);
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^\.ledger\.md\.[0-9a-f]+\.tmp$/);
      seen.push(readFileSync(join(dir, names[0]!), 'utf8'));
    });
    const wrote = await runIn(home.env, 'sessions', 'export', SESSION, '--output', file);
    expect(wrote).toEqual({ code: 0, out: `Wrote ${file} (secrets redacted).\n`, err: '' });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const [i, sofar] of seen.entries()) {
      expect(sofar.length).toBeGreaterThan(i === 0 ? 0 : seen[i - 1]!.length);
      expect(expected.startsWith(sofar)).toBe(true);
    }
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(readdirSync(dir)).toEqual(['ledger.md']);
  });

  it('interrupted midway, leaves no FILE and no temp file; with --force, the file that was there stays as it was', async () => {
    onExportNext((asked) => {
      if (asked >= 2) throw new StewardError('internal', 'The running Steward went away');
    });
    const dir = folder('interrupted');
    const file = join(dir, 'ledger.md');
    const failed = await runIn(home.env, 'sessions', 'export', SESSION, '--output', file);
    expect(failed.code).toBe(1);
    expect(failed.out).toBe('');
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(file, 'a file worth keeping\n');
    expect((await runIn(home.env, 'sessions', 'export', SESSION, '--output', file, '--force')).code).toBe(1);
    expect(readdirSync(dir)).toEqual(['ledger.md']);
    expect(readFileSync(file, 'utf8')).toBe('a file worth keeping\n');
  });

  it('shows one progress line on stderr at a terminal, rewritten in place and cleared at the end; nothing off one', async () => {
    const dir = folder('progress');
    const file = join(dir, 'ledger.md');
    // This process's own stderr, taken for a terminal: progress.ts draws only there.
    const wasTty = process.stderr.isTTY;
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    const drawn: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => drawn.push(String(text)) > 0);
    try {
      const io = captureIo(home.env);
      io.stderr = processIo.stderr;
      expect(await runCli(['sessions', 'export', SESSION, '--output', file], io)).toBe(0);
      expect(io.out).toBe(`Wrote ${file} (secrets redacted).\n`);
    } finally {
      Object.defineProperty(process.stderr, 'isTTY', { value: wasTty, configurable: true });
    }
    const CLEAR = '\r\u001b[K';
    expect(drawn.length).toBeGreaterThanOrEqual(3);
    expect(drawn.at(-1)).toBe(CLEAR);
    for (const line of drawn.slice(0, -1)) expect(line.startsWith(CLEAR) && /^Exporting… \d+ MB so far$/.test(line.slice(CLEAR.length))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
