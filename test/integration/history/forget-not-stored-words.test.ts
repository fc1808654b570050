import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, StewardError } from '../../../core/index.js';
import { historyHome } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// QA nit: Forget.Session's refusal of an id nothing is stored under told an RPC caller to "add
// --not-stored", a flag of the CLI's. The call names its own param; the CLI says its flag (cli-walk.test.ts).

let home: TempHome;
let core: Core;
beforeAll(() => {
  ({ home } = historyHome('steward-forget-words-'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
});
afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const refusal = async (call: () => Promise<unknown>) => {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StewardError);
  return error as StewardError;
};

describe('Forget refusing an id nothing is stored under', () => {
  it.each([
    ['Forget.Session', () => core.call('Forget.Session', { sessionId: 'nope' })],
    ['Forget.Project', () => core.call('Forget.Project', { projectKey: 'p_0123456789abcdef' })],
  ] as const)('%s names its param, notStored, never a CLI flag', async (_, call) => {
    const error = await refusal(call);
    expect(error.code).toBe('not_found');
    const remediation = String(error.details?.remediation);
    expect(remediation).toContain('notStored: true');
    expect(remediation).not.toContain('--not-stored');
    expect(remediation).not.toContain('steward ');
  });
});
