import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { loadFixtureCorpus, seedAndEnroll, type SeededRepository } from '../../support/repository-cache.js';

// A review finding: anyone can write a forge issue's title and body, and `steward maintenance search`
// printed them raw, so an ESC sequence in one retitled or cleared the terminal of whoever searched.
// Human-readable hits show each control as a visible escape (terminalText); --json keeps them as stored.

const REPO = 'github.com/inkwell-app/inkwell';
const TITLE = 'Quokka \x1b]0;PWNED\x07sync \x1b[2Jbreaks';
const BODY = 'The quokka importer \x1b[31mfails\x1b[0m on every launch\r\u009b6n.';
/** Any character a terminal takes as the start of a control: C0 but newline and tab, DEL, C1. */
const CONTROL = /(?![\n\t])\p{Cc}/u;

let home: TempHome;
let caches: string;

beforeAll(async () => {
  home = tempHome('steward-rag-controls-');
  caches = mkdtempSync(join(tmpdir(), 'steward-rag-controls-caches-'));
  const corpus = loadFixtureCorpus();
  corpus.issues[0] = { ...corpus.issues[0]!, title: TITLE, body: BODY };
  const inkwell: SeededRepository = { repoId: REPO, aliases: ['inkwell-app/inkwell'], repo: 'inkwell-app/inkwell', policy: { sync: 'off', rag: 'maintain' }, corpus };
  await seedAndEnroll(home, caches, [inkwell], (core) => core.call('Maintenance.Reconcile', {}));
});

afterAll(() => {
  home?.cleanup();
  if (caches) rmSync(caches, { recursive: true, force: true });
});

describe('steward maintenance search of a forge text holding terminal controls', () => {
  it('prints the title and snippet with their controls escaped', async () => {
    const text = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'inkwell-app/inkwell', 'quokka'], text)).toBe(0);
    expect(text.out).toContain('\\x1b]0;PWNED\\x07sync \\x1b[2Jbreaks');
    expect(text.out).not.toMatch(CONTROL);
  });

  it('--json keeps the title as stored', async () => {
    const json = captureIo(home.env);
    expect(await runCli(['maintenance', 'search', '--repo', 'inkwell-app/inkwell', '--json', 'quokka'], json)).toBe(0);
    const { hits } = JSON.parse(json.out) as { hits: Array<{ title: string }> };
    expect(hits.map((h) => h.title)).toContain(TITLE);
  });
});
