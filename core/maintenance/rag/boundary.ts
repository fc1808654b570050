import { isIP } from 'node:net';
import { StewardError, type EmbeddingBoundary } from '../../api/index.js';

const RANK: Record<EmbeddingBoundary, number> = { local_process: 0, local_network: 1, remote: 2 };

function privateV4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

function privateV6(ip: string): boolean {
  const lower = ip.toLowerCase();
  if (lower === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return privateV4(mapped[1]!);
  // fc00::/7 unique local, fe80::/10 link local.
  return /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
}

/**
 * Where an HTTP embedder sends text. Loopback, RFC 1918/ULA/link-local addresses, `localhost` and
 * `*.local` names are `local_network`; any other name is `remote`, because resolving it to decide
 * would trust whatever DNS answers today.
 */
export function boundaryOfEndpoint(endpoint: string): EmbeddingBoundary {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const kind = isIP(host);
  if (kind === 4) return privateV4(host) ? 'local_network' : 'remote';
  if (kind === 6) return privateV6(host) ? 'local_network' : 'remote';
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return 'local_network';
  return 'remote';
}

/** The widest boundary the registration's confirmed policy allows: `local_network` unless it says otherwise. */
export function allowedBoundary(policy: { embeddingBoundary?: EmbeddingBoundary | undefined }): EmbeddingBoundary {
  return policy.embeddingBoundary ?? 'local_network';
}

/** Refuses a profile whose data boundary is wider than the policy allows, naming both boundaries. */
export function assertBoundary(boundary: EmbeddingBoundary, allowed: EmbeddingBoundary, host: string | null): void {
  if (RANK[boundary] <= RANK[allowed]) return;
  const where = host ? ` (${host})` : '';
  throw new StewardError(
    'boundary_refused',
    `The embedding profile sends repository text across the ${boundary} data boundary${where}, but this registration's confirmed policy allows only ${allowed}. ` +
      `Confirm a policy that allows ${boundary} embedding to use this profile.`,
    { boundary, allowed },
  );
}
