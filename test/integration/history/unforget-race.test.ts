import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { FileCheckpoints } from '../../../core/gateway/index.js';
import { ORCHARD, historyOwnerPerTest } from '../../support/history.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

const owner = historyOwnerPerTest();

const NEW = '11111111-2222-4333-8444-555555555555';
const partsOf = (c: Core, sid: string) => c.gateway.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(sid) as number;

it('a lift while a tick reads (and withholds) a new file of the forgotten project: the file comes back at the next check', async () => {
  const { c, fixture } = owner.open('steward-attack-race-');
  await c.call('Sweep.Tick', {});
  const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
  await c.call('Forget.Project', { projectKey: orchard.projectKey });
  // A new conversation in the forgotten project, started after the forget.
  const file = join(fixture.claudeRoot, 'projects', '-work-orchard', `${NEW}.jsonl`);
  writeJsonl(file, [claudeLine({ sessionId: NEW, cwd: ORCHARD, text: 'new after forget' }), claudeLine({ sessionId: NEW, type: 'assistant', cwd: ORCHARD, text: 'reply' })]);
  // The person presses Unforget while the tick is reading that file (before its checkpoint is written).
  const put = FileCheckpoints.prototype.put;
  let lifted: unknown;
  FileCheckpoints.prototype.put = function (this: FileCheckpoints, provider: string, cp: Parameters<typeof put>[1], now?: number) {
    if (cp.path === file && lifted === undefined) lifted = c.call('Forget.Lift', { kind: 'project', id: orchard.projectKey });
    return put.call(this, provider, cp, now);
  };
  try {
    await c.call('Sweep.Tick', {});
  } finally {
    FileCheckpoints.prototype.put = put;
  }
  expect(await lifted).toMatchObject({ lifted: true, nextCheck: 'all' });
  // Withheld during the tick that read it.
  expect(partsOf(c, NEW)).toBe(0);
  await c.call('Sweep.Tick', {});
  await c.call('Sweep.Tick', {});
  // The lift was answered 'all': the next check brings back every conversation of the project.
  expect(partsOf(c, NEW)).toBeGreaterThan(0);
});
