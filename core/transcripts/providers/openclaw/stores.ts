import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { mtimeOf, type Scan } from '../../scan.js';
import { registeredStores } from './store.js';

/** The `source` of a discovered agent store: its read is a store read, not a JSONL one. */
export const STORE_SOURCE = 'openclaw-store';
/** `agents/<agentId>/agent/openclaw-agent.sqlite`; the `incognito-` sibling is a sentinel OpenClaw refuses to open. */
const STORE_NAME = 'openclaw-agent.sqlite';

async function statOrNull(path: string): Promise<BigIntStats | null> {
  try {
    return await stat(path, { bigint: true });
  } catch {
    return null;
  }
}

/**
 * A database's WAL, when it holds anything. Opening a WAL-mode database read-only creates an empty
 * `-wal` when none was there (OpenClaw removes it on a clean close): its new mtime is no commit.
 */
async function walOf(path: string): Promise<BigIntStats | null> {
  const wal = await statOrNull(`${path}-wal`);
  return wal && wal.size > 0n ? wal : null;
}

/**
 * Records a store with a fingerprint of the database and its WAL together: in WAL mode a commit
 * writes only the `-wal` file until a checkpoint, so the database file alone would look unchanged.
 */
async function addStore(scan: Scan, path: string): Promise<void> {
  const info = await statOrNull(path);
  if (!info?.isFile()) return;
  const before = scan.files.length;
  scan.addFile(path, info, STORE_SOURCE);
  const file = scan.files[before];
  if (!file) return;
  const wal = await walOf(path);
  if (!wal) return;
  file.size += Number(wal.size);
  file.mtimeMs = Math.max(file.mtimeMs, mtimeOf(wal));
}

/** The registry's listing, kept while its file and WAL are unchanged: a tick stats it instead of opening it. */
const listings = new Map<string, { fingerprint: string; paths: string[] }>();

async function registeredPaths(registry: string, info: BigIntStats): Promise<string[]> {
  const wal = await walOf(registry);
  const fingerprint = `${info.ino}:${info.size}:${info.mtimeMs}:${wal?.size ?? ''}:${wal?.mtimeMs ?? ''}`;
  const known = listings.get(registry);
  if (known?.fingerprint === fingerprint) return known.paths;
  const paths = registeredStores(registry);
  listings.set(registry, { fingerprint, paths });
  return paths;
}

/**
 * Every agent store under an OpenClaw state folder: each agent's conventional path, plus the
 * custom paths the shared registry (`state/openclaw.sqlite`, `agent_databases`) lists. A store is
 * found by its file; whether it holds sessions is decided by its tables when it is read.
 */
export async function discoverStores(scan: Scan, root: string): Promise<void> {
  const agents = join(root, 'agents');
  for (const entry of await scan.list(agents)) {
    if (scan.cancelled) return;
    if (entry.isDirectory() || entry.isSymbolicLink()) await addStore(scan, join(agents, entry.name, 'agent', STORE_NAME));
  }
  const registry = join(root, 'state', 'openclaw.sqlite');
  const info = await statOrNull(registry);
  if (!info?.isFile()) return;
  for (const path of await registeredPaths(registry, info)) await addStore(scan, isAbsolute(path) ? path : resolve(root, path));
}
