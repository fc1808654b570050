import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { verbsFor } from '../../../core/cli/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

// What a new user met in the CLI's words (QA session 42): a verb they typed that was not one, help
// that spoke the sweeper's internals, and a header that said the same minute twice.

let home: TempHome;
beforeAll(() => {
  home = tempHome('steward-cli-new-user-');
});
afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('steward import', () => {
  it('is the verb that imports history (backfill), listed so in the help', async () => {
    expect(verbsFor(['import', '--help']).map((verb) => verb.names)).toEqual([['backfill']]);
    const help = await cli('import', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('import transcript history now');
    expect((await cli('--help')).out).toMatch(/backfill\|import\b/);
    // The same action: its own refusal of a bad provider, before anything is read.
    const bad = await cli('import', '--provider', 'nosuch');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--provider must be one of');
  });
});

describe('help in plain words', () => {
  it('sweeper run says what a person gets, not the sweeper’s gates', async () => {
    const { code, out } = await cli('sweeper', 'run', '--help');
    expect(code).toBe(0);
    expect(out).not.toMatch(/debounce|activity gate|backoff|bypass/);
    expect(out).toContain('even if nothing new happened or the last sweep failed recently');
  });

  it('the program’s --json says it is the verb’s own', async () => {
    const { out } = await cli('--help');
    expect(out).toContain("print JSON (the same as the verb's --json)");
    expect(out).not.toContain('written before it');
  });
});

describe('steward sessions show, of a conversation within one minute', () => {
  const result = (startedAt: number, lastAt: number) =>
    ({
      session: { sessionId: 's1', projectKey: null, provider: 'claude', app: 'Claude Code', title: 'Quick one', agentType: null, startedAt, lastAt, messages: 2, parentSessionId: null, parentKind: null, projectName: 'orchard', firstRequest: null, model: null, durationMs: null, toolCalls: 0, subagents: 0 },
      messages: [],
      subagents: [],
      before: null,
      cursor: null,
    }) as unknown as Result<'Sessions.Get'>;
  const header = (text: string) => text.split('\n')[1]!;

  it('says its time once', () => {
    const at = Date.UTC(2026, 2, 4, 9, 15, 1);
    const line = header(formatSession(result(at, at + 40_000)));
    expect(line).not.toContain('→');
    expect(line.split(' · ')).toHaveLength(5);
  });

  it('says both ends when they differ', () => {
    const at = Date.UTC(2026, 2, 4, 9, 15, 1);
    expect(header(formatSession(result(at, at + 3_600_000)))).toContain(' → ');
  });
});
