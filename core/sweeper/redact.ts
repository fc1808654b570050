import { performance } from 'node:perf_hooks';
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';

export const REDACTED = '[REDACTED]';

/**
 * Patterns for common key and token forms. secretlint's rules are precise (a wrong-length key is
 * not flagged), so this generic layer catches what it misses; both run before anything leaves.
 */
const PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /-----BEGIN (?:CERTIFICATE|OPENSSH|PGP)[A-Z ]*-----[\s\S]*?(?:-----END [A-Z ]*-----|$)/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g,
  /\bsk-(?:proj-|svcacct-|admin-|live_|test_)?[A-Za-z0-9_-]{20,}/g,
  /\b(?:rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bhf_[A-Za-z0-9]{30,}\b/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi,
  /(?<=\b(?:authorization|proxy-authorization)\s*[:=]\s*["']?(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /(?<=\bbearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi,
  /(?<=\b[A-Za-z0-9_]*(?:api[_-]?key|secret|token|passw(?:or)?d|passwd|credential|auth[_-]?key)[A-Za-z0-9_]*["']?\s*[:=]\s*["']?)[^\s"'`,;]{8,}/gi,
];

const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** Values of secret-looking environment variables, so a pasted key is caught whatever its shape. */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_ENV_NAME.test(name) && typeof value === 'string' && value.length > 8)
    .map(([, value]) => value as string);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function redactPatterns(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) out = out.replace(new RegExp(escapeRegExp(secret), 'g'), REDACTED);
  for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/**
 * secretlint's process-wide profiler keeps every performance mark it ever saw and scans that list on
 * each new mark, so a long-running owner would get slower with every sweep (and grow without bound).
 * The sweeper never reads the profile: drop what the previous lint left behind.
 */
async function forgetSecretlintProfile(): Promise<void> {
  // Both getters hand out the profiler's own arrays, so emptying them empties the profile.
  for (const entry of (await secretLintProfiler.getEntries()).splice(0)) performance.clearMarks(entry.name);
  for (const entry of (await secretLintProfiler.getMeasures()).splice(0)) performance.clearMeasures(entry.name);
}

async function redactWithSecretlint(text: string): Promise<string> {
  await forgetSecretlintProfile();
  const result = await lintSource({
    source: { filePath: '/steward-digest.txt', content: text, contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: false },
  });
  const ranges = result.messages.map((m) => m.range).sort((a, b) => b[0] - a[0]);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const [start, end] of ranges) {
    // Ranges are applied from the end so earlier offsets stay valid; overlaps collapse into one.
    const stop = Math.min(end, floor);
    if (stop <= start) continue;
    out = `${out.slice(0, start)}${REDACTED}${out.slice(stop)}`;
    floor = start;
  }
  return out;
}

export interface Redactor {
  redact(text: string): Promise<string>;
  redactSync(text: string): string;
}

/** Exact known values first, then secretlint, then the generic pattern layer. */
export function createRedactor(knownSecrets: readonly string[] = []): Redactor {
  const known = [...new Set(knownSecrets)].sort((a, b) => b.length - a.length);
  return {
    async redact(text) {
      if (text === '') return text;
      const first = redactPatterns(text, known);
      return redactPatterns(await redactWithSecretlint(first), known);
    },
    redactSync: (text) => redactPatterns(text, known),
  };
}
