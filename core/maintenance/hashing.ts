import { createHash, createHmac, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** JSON with sorted keys, so a hash never depends on the order in which a record was built. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => stableStringify(v === undefined ? null : v)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function hashOf(value: unknown): string {
  return sha256(stableStringify(value));
}

/** A short opaque id with a readable prefix; deterministic for the same inputs. */
export function opaqueId(prefix: string, value: unknown, length = 16): string {
  return `${prefix}_${hashOf(value).slice(0, length)}`;
}

export const SECRET_FILE = 'maintenance-secret';

/**
 * The per-install secret under which cache paths are fingerprinted: kept in STEWARD_HOME with mode
 * 0600 and created exclusively, so two processes racing on first use agree on one secret. Null when
 * the file exists but is damaged.
 */
export function loadInstallSecret(home: string): Buffer | null {
  const file = join(home, SECRET_FILE);
  try {
    return parseSecret(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, randomBytes(32).toString('hex'));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseSecret(readFileSync(file, 'utf8'));
}

/**
 * Null for a damaged secret (empty, truncated, edited): fingerprints under another key would match no
 * registration, so the caller must refuse to reconcile rather than disable everything silently.
 */
function parseSecret(text: string): Buffer | null {
  const hex = text.trim();
  return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
}

export type PathFingerprinter = (realPath: string) => string;

/** A path fingerprint can be shown anywhere: without the install secret it reveals nothing of the path. */
export function pathFingerprinter(secret: Buffer): PathFingerprinter {
  return (realPath) => `pf_${createHmac('sha256', secret).update(realPath).digest('hex').slice(0, 24)}`;
}
