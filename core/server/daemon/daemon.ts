import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { HOME_FILES } from '../../config/index.js';

/** What the owner advertises to clients on this machine: mode 0600, since the token is a key. */
export const DaemonInfo = z.strictObject({
  pid: z.number().int().positive(),
  protocol: z.number().int(),
  url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d+\/$/),
  token: z.string().min(16),
});
export type DaemonInfo = z.infer<typeof DaemonInfo>;

export function daemonFile(home: string): string {
  return join(home, HOME_FILES.daemon);
}

export function writeDaemonInfo(home: string, info: DaemonInfo): void {
  writeFileAtomic.sync(daemonFile(home), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

/** Undefined when absent or unreadable: a broken daemon.json only means "no reachable owner". */
export function readDaemonInfo(home: string): DaemonInfo | undefined {
  try {
    const parsed = DaemonInfo.safeParse(JSON.parse(readFileSync(daemonFile(home), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Removes daemon.json only if it is still ours, so a late shutdown never erases a successor's. */
export function removeDaemonInfo(home: string, pid = process.pid): void {
  const current = readDaemonInfo(home);
  if (current === undefined || current.pid === pid) rmSync(daemonFile(home), { force: true });
}
