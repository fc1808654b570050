import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { drained, jsonInPieces } from '../../../core/cli/output.js';
import { Core } from '../../../core/index.js';
import { captureIo, runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * `sessions export` to stdout, plain and --json, with the owner's pieces made here (Core.call answered
 * in the test): small pieces cut where a real export never cuts, inside an emoji's surrogate pair.
 */
const SESSION = '5b2d7e4f-1c3a-4e6b-8d9f-0a1b2c3d4e5f';
const PIECES = [
  // Quotes, backslashes, newlines and a tab; the piece ends on the first half of 😀.
  '# "Quotes" and \\backslashes\\\nline two\tand 😀'.slice(0, -1),
  // Its second half; a line separator, a NUL, accents and CJK; the piece ends on the first half of 🎉.
  '\ude00 after the emoji, \u2028 a separator, \u0000 a NUL, naïve café 漢字 🎉'.slice(0, -1),
  // Its second half, a lone second half, and a lone first half at the very end.
  '\udf89 then \ude00 alone\n\ud83d',
];
const FIRST = { filename: 'naïve "ledger" \\ 2026.md', mediaType: 'text/markdown' as const, redacted: true };
/** The --json output as it was printed whole (printJson of the joined document). */
const WHOLE = `${JSON.stringify({ filename: FIRST.filename, mediaType: FIRST.mediaType, content: PIECES.join(''), redacted: FIRST.redacted }, null, 2)}\n`;

let home: TempHome;
beforeAll(() => {
  home = tempHome('steward-export-json-pieces-');
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => home?.cleanup());

/** The owner answers the export with PIECES; `at(n)` runs when the CLI asks for piece n (1-based after the first). */
function answerPieces(at: (asked: number) => void = () => {}): void {
  const call = Core.prototype.call;
  vi.spyOn(Core.prototype, 'call').mockImplementation(async function (this: Core, method: string, params: unknown, ctx?: unknown) {
    if (method === 'Sessions.Export') return { ...FIRST, content: PIECES[0], next: 'piece-1' };
    if (method === 'Sessions.ExportNext') {
      const asked = Number((params as { next: string }).next.slice('piece-'.length));
      at(asked);
      return { content: PIECES[asked], next: asked + 1 < PIECES.length ? `piece-${asked + 1}` : null };
    }
    return (call as (m: string, p: unknown, c?: unknown) => Promise<unknown>).call(this, method, params, ctx);
  } as typeof call);
}

describe('steward sessions export --json', () => {
  it('prints the same bytes printJson printed for the whole document, a pair split between pieces included', async () => {
    answerPieces();
    const printed = await runIn(home.env, 'sessions', 'export', SESSION, '--json');
    expect(printed).toEqual({ code: 0, out: WHOLE, err: '' });
    expect(JSON.parse(printed.out)).toMatchObject({ content: PIECES.join('') });
  });

  it('prints the object as the pieces arrive: its opening fields and the content so far before the next piece is asked for', async () => {
    const io = captureIo(home.env);
    const seen: string[] = [];
    answerPieces(() => seen.push(io.out));
    expect(await runCli(['sessions', 'export', SESSION, '--json'], io)).toBe(0);
    expect(seen).toHaveLength(PIECES.length - 1);
    const head = WHOLE.slice(0, WHOLE.indexOf('"content": "') + '"content": "'.length);
    expect(seen[0]!.startsWith(head)).toBe(true);
    for (const [i, sofar] of seen.entries()) {
      expect(WHOLE.startsWith(sofar)).toBe(true);
      expect(sofar.length).toBeGreaterThan(i === 0 ? head.length : seen[i - 1]!.length);
    }
  });

  it('failing after the first piece: the object printed so far stays cut short, exit 1, and stderr says why', async () => {
    answerPieces((asked) => {
      if (asked === 2) throw new StewardError('internal', 'The running Steward went away');
    });
    const failed = await runIn(home.env, 'sessions', 'export', SESSION, '--json');
    expect(failed.code).toBe(1);
    expect(WHOLE.startsWith(failed.out) && failed.out.length > 0 && failed.out.length < WHOLE.length).toBe(true);
    expect(failed.err).toBe('steward: the export stopped partway, so the JSON object printed is cut short\nsteward: The running Steward went away\n');
  });

  it('failing before the first piece still prints the error object alone', async () => {
    const printed = await runIn(home.env, 'sessions', 'export', SESSION, '--json');
    expect(printed.code).not.toBe(0);
    expect(Object.keys(JSON.parse(printed.out) as object)).toEqual(['error']);
  });
});

describe('steward sessions export to stdout waits for stdout to take each piece', () => {
  for (const json of [false, true]) {
    it(json ? 'with --json' : 'as the document', async () => {
      const io = captureIo(home.env);
      let waits = 0;
      io.stdoutDrained = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        waits++;
      };
      const at: number[] = [];
      answerPieces((asked) => at.push(waits - asked));
      expect(await runCli(['sessions', 'export', SESSION, ...(json ? ['--json'] : [])], io)).toBe(0);
      // Each piece before the next was asked for had been taken (one wait per piece so far).
      expect(at).toEqual([0, 0]);
      expect(io.out).toBe(json ? WHOLE : PIECES.join(''));
    });
  }
});

describe('jsonInPieces', () => {
  it('is printJson cut around one string: head, escaped pieces, tail', () => {
    const value = { a: 'x"y', body: '', z: [1, { b: '\n' }] };
    const json = jsonInPieces(value, 'body');
    const text = ['ab\ud83d', '\ude00\\', '"\ud83d'];
    const out = json.head + text.map((t) => json.piece(t)).join('') + json.tail();
    expect(out).toBe(`${JSON.stringify({ ...value, body: text.join('') }, null, 2)}\n`);
  });
});

describe('drained', () => {
  it('waits for a full stream to drain, and not for one that is closed or under its mark', async () => {
    const stream = new PassThrough({ highWaterMark: 4 });
    await drained(stream);
    stream.write('more than four');
    let done = false;
    const waiting = drained(stream).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    stream.read();
    await waiting;
    stream.write('more than four');
    const closing = drained(stream);
    stream.destroy();
    await closing;
  });
});
