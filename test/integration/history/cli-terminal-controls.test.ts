import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { terminalText } from '../../../core/cli/output.js';
import { captureIo, runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// A QA finding: transcript text (which may hold what an agent read off an attacker's web page) was
// printed raw, so an ESC sequence in it retitled or cleared the terminal of whoever ran
// `steward search`, `sessions show` or `sessions export`. Human-readable output shows each control as
// a visible escape; --json and --output keep the text as stored.

const SESSION = 'cc120000-1111-4222-8333-444455556666';
const ATTACK = '\x1b]0;PWNED-TITLE\x07\x1b[2J';
const USER_TEXT = `greenhouse audit ${ATTACK} done\rover \x7f\u009b6n`;
const TOOL_OUT = 'greenhouse \x1b[31mred alert\x1b[0m';
const TITLE = `Greenhouse \x1b[5mblink\x1b[0m plan`;
const CWD = '/work/green\x1b[2Jhouse';

/** Any byte a terminal takes as the start of a control: C0 but newline and tab, DEL, C1. */
const CONTROL = /(?![\n\t])\p{Cc}/u;

let home: TempHome;

beforeAll(async () => {
  home = tempHome('steward-cli-controls-');
  const root = join(home.dir, 'claude');
  const ts = (i: number) => new Date(Date.now() - 60_000 + i * 1000);
  writeJsonl(join(root, 'projects', '-work-greenhouse', `${SESSION}.jsonl`), [
    { type: 'custom-title', customTitle: TITLE, sessionId: SESSION },
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: ts(0), text: USER_TEXT }),
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: ts(1), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01Red', name: 'Bash', input: { command: 'cat alert.txt' } }] }),
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: ts(2), content: [{ type: 'tool_result', tool_use_id: 'toolu_01Red', content: TOOL_OUT }] }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  expect((await runIn(home.env, 'sweep')).code).toBe(0);
});

afterAll(() => home?.cleanup());

describe('terminalText', () => {
  it('shows C0 controls but newline and tab, DEL, C1 and ESC as visible escapes, and nothing else changed', () => {
    expect(terminalText(`a\tb\nc${ATTACK}\r\x7f\u0080\u009f é 日本 🚀`)).toBe('a\tb\nc\\x1b]0;PWNED-TITLE\\x07\\x1b[2J\\r\\x7f\\x80\\x9f é 日本 🚀');
  });
});

describe('human-readable output of transcript text', () => {
  it('steward search prints no control of the transcript, its escapes shown instead', async () => {
    const found = await runIn(home.env, 'search', 'greenhouse');
    expect(found.code).toBe(0);
    expect(found.out).not.toMatch(CONTROL);
    expect(found.out).toContain('\\x1b');
  });

  it('steward sessions show prints the title, project and messages with their controls escaped', async () => {
    const shown = await runIn(home.env, 'sessions', 'show', SESSION);
    expect(shown.code).toBe(0);
    expect(shown.out).not.toMatch(CONTROL);
    expect(shown.out).toContain('Greenhouse \\x1b[5mblink\\x1b[0m plan');
    expect(shown.out).toContain('\\x1b]0;PWNED-TITLE\\x07\\x1b[2J done\\rover \\x7f\\x9b6n');
    expect(shown.out).toContain('\\x1b[31mred alert\\x1b[0m');
  });

  it('steward sessions list and projects print the project name with its controls escaped', async () => {
    for (const argv of [['sessions', 'list'], ['projects']]) {
      const listed = await runIn(home.env, ...argv);
      expect(listed.code).toBe(0);
      expect(listed.out).not.toMatch(CONTROL);
      expect(listed.out).toContain('green\\x1b[2Jhouse');
    }
  });

  it('steward context says why there are no notes with the project name escaped (before any sweep writes them)', async () => {
    const missing = await runIn(home.env, 'context', '--cwd', CWD);
    expect(missing.code).toBe(1);
    expect(missing.err).not.toMatch(CONTROL);
    expect(missing.err).toContain('no notes for green\\x1b[2Jhouse yet');
  });

  it('steward sweeper run --all and sweeper show print the project name and its overview with their controls escaped', async () => {
    const listed = await runIn(home.env, 'projects', '--json');
    const key = (JSON.parse(listed.out) as { projects: Array<{ projectKey: string }> }).projects[0]!.projectKey;
    const swept = await runIn(home.env, 'sweeper', 'run', '--all', '--yes');
    expect(swept.code).toBe(0);
    expect(swept.out).not.toMatch(CONTROL);
    expect(swept.out).toContain('green\\x1b[2Jhouse');
    const shown = await runIn(home.env, 'sweeper', 'show', key);
    expect(shown.code).toBe(0);
    expect(shown.out).not.toMatch(CONTROL);
    expect(shown.out).toContain('green\\x1b[2Jhouse');
    // The curator's overview is written from the transcript's requests: a C1 control in one never reaches the note (clean).
    expect(shown.out.slice(shown.out.indexOf('\n\n'))).toContain('done over 6n');
  });

  it('--json keeps the text as stored', async () => {
    const shown = await runIn(home.env, 'sessions', 'show', SESSION, '--json');
    expect(JSON.stringify(JSON.parse(shown.out))).toContain(JSON.stringify(USER_TEXT).slice(1, -1));
  });

  it('sessions export escapes controls when stdout is a terminal, and keeps them for a pipe, --json and --output', async () => {
    const terminal = { ...captureIo(home.env), stdoutIsTerminal: () => true };
    Object.assign(terminal, { stdout: (text: string) => void (terminal.out += text) });
    expect(await runCli(['sessions', 'export', SESSION], terminal)).toBe(0);
    expect(terminal.out).not.toMatch(CONTROL);
    expect(terminal.out).toContain('\\x1b]0;PWNED-TITLE');

    const piped = await runIn(home.env, 'sessions', 'export', SESSION);
    expect(piped.out).toContain(ATTACK);

    const json = await runIn(home.env, 'sessions', 'export', SESSION, '--json');
    expect((JSON.parse(json.out) as { content: string }).content).toContain(ATTACK);

    const file = join(home.dir, 'export.md');
    const io = { ...captureIo(home.env), stdoutIsTerminal: () => true };
    expect(await runCli(['sessions', 'export', SESSION, '--output', file], io)).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(ATTACK);
  });
});
