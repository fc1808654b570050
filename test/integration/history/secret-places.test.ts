import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Result } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** A conversation whose texts hold secrets: two in the person's words, one in a tool call's input. */
const SESSION = 'feed0000-1111-4222-8333-444455556666';
const CWD = '/work/greenhouse';
const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const GH = `ghp_${'a1B2'.repeat(9)}`;
const ASKED = `I set OPENAI_API_KEY=${KEY} and pushed with ${GH}, still 401`;

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-secret-places-');
  const root = join(home.dir, 'claude');
  writeJsonl(join(root, 'projects', '-work-greenhouse', `${SESSION}.jsonl`), [
    claudeLine({ sessionId: SESSION, cwd: CWD, text: ASKED }),
    claudeLine({ sessionId: SESSION, cwd: CWD, type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: `curl -H "Authorization: Bearer ${KEY}" https://api.example.com` } }] }),
    claudeLine({ sessionId: SESSION, cwd: CWD, type: 'assistant', text: 'Nothing secret here.' }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const partsOf = (page: Result<'Sessions.Get'>) => page.messages.flatMap((m) => m.parts);
/** What each part's `secrets` marks of its text. */
const marked = (page: Result<'Sessions.Get'>) => partsOf(page).map((p) => p.secrets?.map(([a, b]) => (p.text ?? '').slice(a, b)));

describe('Sessions.Get says where the secrets are in the texts it shows as written', () => {
  it('one read as written, with each part’s secrets placed by the secrets module’s rule', async () => {
    const page = await core.call('Sessions.Get', { sessionId: SESSION, markSecrets: true });
    expect(partsOf(page).map((p) => p.text)).toContain(ASKED);
    expect(marked(page)).toEqual([[KEY, GH], [KEY], []]);
  });

  it('a redacted read has no secrets to place, and a read that did not ask is as before', async () => {
    const redacted = await core.call('Sessions.Get', { sessionId: SESSION, redact: true, markSecrets: true });
    expect(partsOf(redacted).every((p) => p.secrets === undefined && !(p.text ?? '').includes(KEY))).toBe(true);
    const plain = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(partsOf(plain).every((p) => p.secrets === undefined)).toBe(true);
  });
});
