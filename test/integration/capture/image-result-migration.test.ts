import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

const SESSION = '3b8e2f10-6c4d-4a7e-9f21-5d0c8b7a6e43';
/** The search_state key step 25 leaves (see GATEWAY_MIGRATIONS). */
const STEP_25_DONE = 'migration_25_done';
const STATS = "SELECT messages FROM session_stats WHERE session_id IN (SELECT session_id FROM sessions WHERE provider = 'openclaw')";
let home: TempHome | undefined;

afterEach(() => {
  home?.cleanup();
  home = undefined;
});

describe('migration 25', () => {
  it("takes from an OpenClaw session's count the image-only tool result rule 2 counted before", async () => {
    home = tempHome('steward-image-result-migration-');
    const sessions = join(home.dir, 'openclaw', 'agents', 'main', 'sessions');
    mkdirSync(sessions, { recursive: true });
    copyFileSync(fileURLToPath(new URL('../../fixtures/transcripts/openclaw/image-result.jsonl', import.meta.url)), join(sessions, `${SESSION}.jsonl`));
    home.env.STEWARD_OPENCLAW_ROOTS = join(home.dir, 'openclaw');
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', { all: true });
    await core.shutdown();
    // The store as schema 24 left it: the screenshot's message counted, and step 25 never run.
    const old = openGateway(home.dir);
    old.exec(`UPDATE session_stats SET messages = messages + 1 WHERE session_id IN (SELECT session_id FROM sessions WHERE provider = 'openclaw')`);
    old.exec(`DELETE FROM search_state WHERE key = '${STEP_25_DONE}'`);
    old.pragma('user_version = 24');
    old.close();
    const db = openGateway(home.dir);
    try {
      expect(db.prepare(STATS).pluck().all()).toEqual([3]);
      // Run again (a store set back to schema 24 once more): it takes nothing a second time.
      db.pragma('user_version = 24');
    } finally {
      db.close();
    }
    const again = openGateway(home.dir);
    try {
      expect(again.prepare(STATS).pluck().all()).toEqual([3]);
    } finally {
      again.close();
    }
  });
});
