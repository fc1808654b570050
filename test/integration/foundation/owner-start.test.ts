import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { startOwner } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';

function occupiedPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

describe('an owner that cannot serve', () => {
  let home: TempHome;
  let blocker: Server | undefined;
  afterEach(() => {
    blocker?.close();
    home.cleanup();
  });

  it('stops every room it started before it lets go of the lock: nothing runs after "core closed"', async () => {
    const roots = tempHome('steward-roots-');
    home = tempHome('steward-test-', { STEWARD_CLAUDE_ROOTS: roots.dir });
    try {
      claudeSession(roots.dir, 'owner-start-session', 20);
      const taken = await occupiedPort();
      blocker = taken.server;
      const logger = createMemoryLogger();
      // The Core opens (and its first sweep tick starts) before the port turns out to be taken.
      await expect(startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, logger, port: taken.port, strictPort: true })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      // Give a leaked tick time to reach the closed store and log about it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(logger.lines.at(-1)).toMatch(/core closed/);
    } finally {
      roots.cleanup();
    }
  });
});
