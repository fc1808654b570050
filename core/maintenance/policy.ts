import { StewardError, isErrorCode } from '../api/index.js';
import { assignsCredential, hasSecret } from '../secrets/index.js';
import { ConfigSnapshot } from './schema.js';

const MINUTE = 60_000;
export const BACKOFF_CAP_MINUTES = 64;

/** 1, 2, 4 … 64 minutes: the nth consecutive failure of a stage waits 2^(n-1) minutes, capped. */
export function backoffMs(failures: number): number {
  return MINUTE * Math.min(BACKOFF_CAP_MINUTES, 2 ** Math.max(0, failures - 1));
}

/** A stage's error class is a short word: never a message, which could carry a path or a URL. */
export function errorClassOf(error: unknown): string {
  if (error instanceof StewardError) return error.code;
  const declared = (error as { errorClass?: unknown } | null)?.errorClass;
  if (typeof declared === 'string' && /^[a-z][a-z0-9_]{0,39}$/.test(declared)) return declared;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]{2,20}$/.test(code)) return `io_${code.toLowerCase()}`;
  if (typeof code === 'string' && isErrorCode(code)) return code;
  return 'internal';
}


function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/**
 * A snapshot is non-secret by definition: one holding anything credential-shaped (or an endpoint
 * with user info) is refused as config_snapshot_invalid, with a message that never echoes it.
 */
export function validateSnapshot(input: unknown): ConfigSnapshot {
  const parsed = ConfigSnapshot.safeParse(input);
  if (!parsed.success) {
    const where = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(snapshot)'))].slice(0, 5).join(', ');
    throw new StewardError('config_snapshot_invalid', `The configuration snapshot is invalid at: ${where}.`);
  }
  if (strings(parsed.data).some((s) => hasSecret(s) || assignsCredential(s))) {
    throw new StewardError('config_snapshot_invalid', 'The configuration snapshot holds a credential-shaped value; snapshots must be non-secret.');
  }
  const endpoint = parsed.data.embedding.endpoint;
  if (endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new StewardError('config_snapshot_invalid', 'The configuration snapshot endpoint is not a URL.');
    }
    if (url.username || url.password || url.search || !/^https?:$/.test(url.protocol)) {
      throw new StewardError('config_snapshot_invalid', 'The configuration snapshot endpoint may not carry credentials or query parameters.');
    }
  }
  return parsed.data;
}
