import { join } from 'node:path';
import type { Handlers } from '../api/index.js';
import { diskUsage, filesSize, HOME_FILES } from '../config/index.js';
import type { Db } from '../store/index.js';
import type { TelemetryLog } from './telemetry.js';
import { CONVERSATION } from './sessions.js';

/** The gateway's part of the contract: its telemetry table. */
export function telemetryHandlers(telemetry: TelemetryLog): Pick<Handlers, 'Telemetry.Recent'> {
  return {
    'Telemetry.Recent': ({ limit, kind }) => ({ entries: telemetry.recent(limit ?? 50, kind) }),
  };
}

/**
 * What the transcript cache holds and takes on disk. Projects are counted by their own room
 * (`projects`), which owns that table.
 */
export function cacheStatsHandlers(db: Db, home: string, projects: () => number): Pick<Handlers, 'Cache.Stats'> {
  // Conversations as every list counts them (CONVERSATION): a branch (a fork) is one, a subagent is not.
  const conversations = db.prepare(`SELECT COUNT(*) FROM sessions WHERE ${CONVERSATION}`).pluck();
  const messages = db.prepare('SELECT IFNULL(SUM(messages), 0) FROM session_stats').pluck();
  const gatewayFile = join(home, HOME_FILES.gateway);
  return {
    'Cache.Stats': async () => ({
      conversations: conversations.get() as number,
      messages: messages.get() as number,
      projects: projects(),
      bytes: { gateway: await filesSize([gatewayFile, `${gatewayFile}-wal`, `${gatewayFile}-shm`]), home: await diskUsage(home) },
    }),
  };
}
