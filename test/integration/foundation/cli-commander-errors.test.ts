import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { besidesNobodyImports, runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

// Commander's own complaints (an unknown option or verb, a missing argument) are errors as Steward's
// are: one line on stderr, or `{"error":{code,message}}` on stdout with --json; exit 2 either way.

let home: TempHome;
beforeAll(() => {
  home = tempHome('steward-cli-commander-');
});
afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('commander’s complaints with --json', () => {
  it.each([
    [['projects', '--json', '--bogus'], "unknown option '--bogus'"],
    [['sessions', 'show', '--json'], "missing required argument 'id'"],
    [['sessions', 'export', '--json'], "missing required argument 'id'"],
    [['token', 'rotat', '--json'], "unknown command 'rotat' (did you mean rotate?)"],
  ])('%j → {"error":{…}} on stdout, nothing on stderr, exit 2', async (argv, start) => {
    const { code, out, err } = await cli(...argv);
    expect({ code, err }).toEqual({ code: 2, err: '' });
    const { error } = JSON.parse(out) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_params');
    expect(error.message.startsWith(start)).toBe(true);
    expect(error.message).not.toContain('\n');
  });
});

describe('commander’s complaints without --json', () => {
  it('are one line, the did-you-mean folded into it', async () => {
    const typo = await cli('token', 'rotat');
    expect(typo).toEqual({ code: 2, out: '', err: "steward: unknown command 'rotat' (did you mean rotate?) (see `steward token --help`)\n" });
    const unknown = await cli('projects', '--bogus');
    expect(unknown).toEqual({ code: 2, out: '', err: "steward: unknown option '--bogus' (see `steward projects --help`)\n" });
    const verb = await cli('serach');
    expect(verb).toEqual({ code: 2, out: '', err: "steward: unknown command 'serach' (did you mean search?) (steward --help lists the verbs)\n" });
  });

  it("an unknown option of a command points to that command's own help, not to the list of verbs (a QA finding)", async () => {
    const unknown = await cli('sessions', 'list', '--bogus');
    expect(unknown).toEqual({ code: 2, out: '', err: "steward: unknown option '--bogus' (see `steward sessions list --help`)\n" });
    const grouped = await cli('maintenance', 'conflicts', '--bogus');
    expect(grouped.err).toMatch(/^steward: unknown option '--bogus' \(see `steward maintenance conflicts --help`\)\n$/);
  });

  it('a missing conversation id points to where ids are listed, not to the verbs', async () => {
    for (const verb of ['show', 'export']) {
      const { code, out, err } = await cli('sessions', verb);
      expect({ code, out }).toEqual({ code: 2, out: '' });
      expect(err).toBe("steward: missing required argument 'id' (`steward sessions list` prints each conversation's id)\n");
    }
  });

  it('help and the version still exit 0', async () => {
    expect((await cli('--help')).code).toBe(0);
    expect((await cli('sessions', 'show', '--help')).code).toBe(0);
    expect((await cli('--version')).code).toBe(0);
    // Help asked for by name, of the program or of a verb group.
    expect((await cli('help')).code).toBe(0);
    expect(await cli('sessions', 'help')).toMatchObject({ code: 0, err: '' });
  });
});

// `--json` is each verb's option; written before the verb it means the same, and names an unknown verb as
// `steward nosuchverb` does rather than calling itself an unknown option of the program.
describe('--json before the verb', () => {
  it('`steward --json nosuchverb` → the unknown-command error as JSON, exit 2', async () => {
    const { code, out, err } = await cli('--json', 'nosuchverb');
    expect({ code, err }).toEqual({ code: 2, err: '' });
    const { error } = JSON.parse(out) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_params');
    expect(error.message.startsWith("unknown command 'nosuchverb'")).toBe(true);
  });

  it.each([
    [['--json', 'sessions', 'list'], ['sessions', 'list', '--json']],
    [['--json', 'projects'], ['projects', '--json']],
    [['--json', 'sessions', 'show'], ['sessions', 'show', '--json']],
    // A verb without --json says so either way (and `context` runs nothing on the way).
    [['--json', 'context'], ['context', '--json']],
  ])('%j behaves as %j', async (before, after) => {
    const [first, second] = [await cli(...before), await cli(...after)];
    expect(first).toEqual(second);
    expect(first.out).not.toBe('');
  });

  // A verb group needs one of its commands: without one it is a usage error, said the same in both
  // spellings, as JSON with --json (a script reading stdout is never handed the help as if it succeeded).
  it.each(['sessions', 'maintenance'])('`steward %s` with --json before or after it → one JSON usage error, exit 2', async (verb) => {
    const [before, after] = [await cli('--json', verb), await cli(verb, '--json')];
    expect(before).toEqual(after);
    expect({ code: before.code, err: before.err }).toEqual({ code: 2, err: '' });
    const { error } = JSON.parse(before.out) as { error: { code: string; message: string } };
    expect(error).toEqual({ code: 'invalid_params', message: expect.stringMatching(new RegExp(`^${verb} needs a command: .*\\(\`steward ${verb} --help\` says what each does\\)$`)) as unknown });
  });

  it('`steward sessions` alone is the same usage error in one line, its commands named', async () => {
    expect(await cli('sessions')).toEqual({ code: 2, out: '', err: 'steward: sessions needs a command: list, show or export (`steward sessions --help` says what each does)\n' });
  });

  it('a --json after `--` stays search text', async () => {
    const { code, out, err } = await cli('search', '--', '--json');
    expect({ code, err: besidesNobodyImports(err) }).toEqual({ code: 0, err: '' });
    expect(() => JSON.parse(out)).toThrow();
  });
});
