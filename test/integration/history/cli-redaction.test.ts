import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS, SECRET } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * What a careful engineer sharing their screen sees in a terminal: lists and search results never show
 * a secret, and reading one conversation shows it only with --raw. Besides the history fixture (its
 * config session's tool result holds SECRET), a project whose conversations carry a secret in their
 * title and first request, and one whose first request is cut (capture keeps 200 characters) ten
 * characters into the token.
 */
const VAULT = { cwd: '/work/vault', untitled: 'va017000-0000-4000-8000-000000000001', titled: 'va017000-0000-4000-8000-000000000002' } as const;
const CELLAR = { cwd: '/work/cellar', session: 'ce11a700-0000-4000-8000-000000000001' } as const;
const PASSWORD = 'hunter2-Correct-Horse-9';
/** The first request of the vault's latest conversation, as the person typed it. */
const VAULT_REQUEST = `Deploy the vault with GITHUB_TOKEN=${SECRET} and password=${PASSWORD} please`;
/** Any run of the token's characters long enough to be part of it, not chance. */
const TOKEN_PIECE = SECRET.slice(0, 10);

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-redaction-'));
  const root = home.env.STEWARD_CLAUDE_ROOTS!;
  const t = Date.now() - 86_400_000;
  const at = (minutes: number) => new Date(t + minutes * 60_000);
  writeJsonl(join(root, 'projects', '-work-vault', `${VAULT.titled}.jsonl`), [
    { type: 'custom-title', customTitle: `Rotate ${SECRET}`, sessionId: VAULT.titled },
    claudeLine({ sessionId: VAULT.titled, cwd: VAULT.cwd, ts: at(0), text: 'Rotate the vault token' }),
  ]);
  writeJsonl(join(root, 'projects', '-work-vault', `${VAULT.untitled}.jsonl`), [
    claudeLine({ sessionId: VAULT.untitled, cwd: VAULT.cwd, ts: at(10), text: VAULT_REQUEST }),
    claudeLine({ sessionId: VAULT.untitled, cwd: VAULT.cwd, ts: at(11), type: 'assistant', text: 'Deploying the vault now.' }),
  ]);
  // 190 characters of words, then the token: the first request capture keeps ends 10 characters into it.
  writeJsonl(join(root, 'projects', '-work-cellar', `${CELLAR.session}.jsonl`), [
    claudeLine({ sessionId: CELLAR.session, cwd: CELLAR.cwd, ts: at(20), text: `${'word '.repeat(38)}${SECRET} opens the cellar` }),
  ]);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
}, 60_000);

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('lists and search redact secrets', () => {
  it('steward sessions list: a secret in a title or a first request shows as [REDACTED], in lines and in --json', async () => {
    const text = await cli('sessions', 'list');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(new RegExp(`^${VAULT.untitled} .* {2}vault {2}Deploy the vault with GITHUB_TOKEN=\\[REDACTED\\]`, 'm'));
    expect(text.out).toMatch(new RegExp(`^${VAULT.titled} .* {2}vault {2}Rotate \\[REDACTED\\]$`, 'm'));
    expect(text.out).not.toContain(TOKEN_PIECE);
    expect(text.out).not.toContain(PASSWORD);
    const json = JSON.parse((await cli('sessions', 'list', '--json')).out) as { sessions: Array<{ sessionId: string; title: string | null; firstRequest: string | null }> };
    const out = JSON.stringify(json);
    expect(out).not.toContain(TOKEN_PIECE);
    expect(out).not.toContain(PASSWORD);
    // Redacted before it is cut: the token capture's first request was cut through shows none of it.
    expect(json.sessions.find((s) => s.sessionId === CELLAR.session)!.firstRequest).toMatch(/^word word .*\[REDACTED\] opens the cellar$/);
  });

  it('steward search: snippets and each conversation’s heading show [REDACTED] where the secret was', async () => {
    const vault = await cli('search', 'deploy', 'vault');
    expect(vault.code).toBe(0);
    expect(vault.out).toContain(`Deploy the vault with GITHUB_TOKEN=[REDACTED]`);
    expect(vault.out).toContain(`· Claude Code · ${VAULT.untitled}`);
    expect(vault.out).not.toContain(TOKEN_PIECE);
    expect(vault.out).not.toContain(PASSWORD);
    // The fixture's secret, in a tool result that read a file.
    const token = await cli('search', 'GITHUB_TOKEN', '--json');
    const hits = (JSON.parse(token.out) as { hits: Array<{ sessionId: string; snippet: string }> }).hits;
    expect(hits.find((h) => h.sessionId === IDS.config)!.snippet).toContain('GITHUB_TOKEN = "[REDACTED]"');
    expect(token.out).not.toContain(TOKEN_PIECE);
  });

  it('steward projects: the latest conversation’s name shows [REDACTED], and none of a token its first request was cut through', async () => {
    const text = await cli('projects');
    expect(text.code).toBe(0);
    expect(text.out).toContain('    latest: Deploy the vault with GITHUB_TOKEN=[REDACTED]');
    expect(text.out).not.toContain(TOKEN_PIECE);
    const json = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ cwd: string; latestSession: { sessionId: string; name: string | null } | null }> };
    expect(JSON.stringify(json)).not.toContain(TOKEN_PIECE);
    expect(json.projects.find((p) => p.cwd === CELLAR.cwd)!.latestSession).toMatchObject({ sessionId: CELLAR.session, name: expect.stringMatching(/^word word .*\[REDACTED\]/) as string });
    // A conversation without a secret keeps its name as it was.
    expect(json.projects.find((p) => p.cwd === '/work/kitchen')!.latestSession!.name).toBe('Write a recipe for apple crumble with winter spices.');
  });
});

describe('steward sessions export: the file name', () => {
  it('is the title redacted unless --raw (the title may hold a secret), in --json and in a folder --output saves into', async () => {
    const json = JSON.parse((await cli('sessions', 'export', VAULT.titled, '--json')).out) as { filename: string };
    expect(json.filename).toBe('rotate-redacted-va017000.md');
    const raw = JSON.parse((await cli('sessions', 'export', VAULT.titled, '--json', '--raw')).out) as { filename: string };
    expect(raw.filename).toBe(`rotate-${SECRET.toLowerCase()}-va017000.md`);
    const folder = join(home.dir, 'exports');
    mkdirSync(folder);
    const saved = await cli('sessions', 'export', VAULT.titled, '--output', folder);
    expect(saved.code).toBe(0);
    expect(readdirSync(folder)).toEqual(['rotate-redacted-va017000.md']);
    expect(saved.out).not.toContain(TOKEN_PIECE);
  });
});

describe('steward sessions show', () => {
  it('redacts the conversation by default, its heading and its texts; --raw shows it as written', async () => {
    const shown = await cli('sessions', 'show', VAULT.untitled);
    expect(shown.code).toBe(0);
    expect(shown.out.split('\n')[0]).toMatch(/^Deploy the vault with GITHUB_TOKEN=\[REDACTED\]/);
    expect(shown.out).not.toContain(TOKEN_PIECE);
    expect(shown.out).not.toContain(PASSWORD);
    const raw = await cli('sessions', 'show', VAULT.untitled, '--raw');
    expect(raw.code).toBe(0);
    expect(raw.out).toContain(VAULT_REQUEST);
  });

  it('with --json too: a tool result’s text is redacted unless --raw', async () => {
    const json = await cli('sessions', 'show', IDS.config, '--json');
    expect(json.code).toBe(0);
    expect(json.out).toContain('GITHUB_TOKEN');
    expect(json.out).not.toContain(TOKEN_PIECE);
    expect((await cli('sessions', 'show', IDS.config, '--json', '--raw')).out).toContain(SECRET);
  });
});
