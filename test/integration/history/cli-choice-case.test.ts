import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choiceOption } from '../../../core/cli/output.js';
import { besidesNobodyImports, runIn } from '../../support/cli.js';
import { historyHome, IDS } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// A QA finding: `steward sessions export ID --format JSON` was refused ("must be one of markdown, json").
// A choice among fixed words is the same word whatever its case.

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-choice-case-'));
  expect((await runIn(home.env, 'backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

describe('a choice of fixed words', () => {
  it('takes the word in any case, as the word itself', () => {
    expect(choiceOption('--format', 'JSON', ['markdown', 'json'] as const)).toBe('json');
    expect(choiceOption('--kind', 'Tool_Use', ['text', 'tool_use'] as const)).toBe('tool_use');
    expect(() => choiceOption('--format', 'yaml', ['markdown', 'json'] as const)).toThrow('--format must be one of markdown, json');
  });

  it('steward sessions export --format JSON exports JSON, and search --sort Newest sorts', async () => {
    const exported = await runIn(home.env, 'sessions', 'export', IDS.config, '--format', 'JSON');
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.out)).toMatchObject({ format: 'steward.session.v1' });
    const sorted = await runIn(home.env, 'search', 'apple', '--sort', 'Newest', '--provider', 'CLAUDE');
    expect({ ...sorted, err: besidesNobodyImports(sorted.err) }).toMatchObject({ code: 0, err: '' });
  });
});

describe('the maintenance verbs’ fixed words', () => {
  it('--format, --sync, --rag and --forge in any case', async () => {
    const { formatOption, isJson, policyOf } = await import('../../../core/cli/commands/maintenance-options.js');
    const { setupRequestOf } = await import('../../../core/cli/commands/setup.js');
    expect(formatOption('JSON')).toBe('json');
    expect(isJson({ format: 'Json' })).toBe(true);
    expect(policyOf({ sync: 'HEAD', rag: 'Off' })).toEqual({ sync: 'head', rag: 'off' });
    expect(setupRequestOf({ repo: 'ana/orchard', forge: 'GitHub' })).toMatchObject({ forge: 'github' });
  });
});
