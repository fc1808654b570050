/**
 * Every rule for recognising a secret lives here, once: the log scrubber, the sweeper's redaction,
 * the notes writer and maintenance's non-secret checks all call these. secretlint's precise rules
 * run beside them where text leaves the machine (redact.ts); this table is the generic layer that
 * also guards synchronous paths such as log lines.
 */

export const REDACTED = '[REDACTED]';

export interface SecretShape {
  /** A stable name for tests and counts; never shown with the match. */
  id: string;
  /** A global pattern matching only the secret part (look-behinds keep the label visible). */
  pattern: RegExp;
}

/** Words that name a credential. Plurals and `api key` / `api_key` / `api-key` spellings included. */
const CREDENTIAL_WORD = String.raw`(?:api[_ -]?keys?|access[_ -]?keys?|auth[_ -]?keys?|tokens?|secrets?|passwords?|passwd|credentials?)`;
/** Names whose assigned value is a secret whatever its shape (`DB_PASSWORD=…`, `"apiKey": "…"`). */
const SECRET_NAME = String.raw`[A-Za-z0-9_]*(?:api[_-]?key|secret|token|passw(?:or)?d|passwd|credential|auth[_-]?key)[A-Za-z0-9_]*`;

export const SECRET_SHAPES: readonly SecretShape[] = [
  { id: 'pem-private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  { id: 'pem-block', pattern: /-----BEGIN (?:CERTIFICATE|OPENSSH|PGP)[A-Z ]*-----[\s\S]*?(?:-----END [A-Z ]*-----|$)/g },
  { id: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { id: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { id: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { id: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { id: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g },
  { id: 'github-fine-grained-pat', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  { id: 'gitlab-pat', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { id: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { id: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { id: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { id: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { id: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { id: 'url-credentials', pattern: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi },
  { id: 'authorization-header', pattern: /(?<=\b(?:authorization|proxy-authorization)\s*[:=]\s*["']?(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi },
  { id: 'bearer-token', pattern: /(?<=\bbearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi },
  { id: 'secret-assignment', pattern: new RegExp(String.raw`(?<=\b${SECRET_NAME}["']?\s*[:=]\s*["']?)[^\s"'\`,;]{8,}`, 'gi') },
];

const NAMES_CREDENTIAL = new RegExp(String.raw`\b${CREDENTIAL_WORD}\b`, 'i');
const ASSIGNS_CREDENTIAL = new RegExp(String.raw`\b(?:${SECRET_NAME}|cookie|session)\s*=`, 'i');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every known value, then every secret shape, with REDACTED. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) out = out.replace(new RegExp(escapeRegExp(secret), 'g'), REDACTED);
  for (const { pattern } of SECRET_SHAPES) out = out.replace(pattern, REDACTED);
  return out;
}

/** Whether `text` holds anything secret-shaped. */
export function hasSecret(text: string): boolean {
  return SECRET_SHAPES.some(({ pattern }) => {
    pattern.lastIndex = 0;
    const found = pattern.test(text);
    pattern.lastIndex = 0;
    return found;
  });
}

/** Whether `text` talks about a credential ("the API key", "tokens"): such a line is never a durable fact or a safe id. */
export function namesCredential(text: string): boolean {
  return NAMES_CREDENTIAL.test(text) || text.includes(REDACTED);
}

/** Whether `text` assigns a value to a credential-named setting (`token=`, `password=`, `cookie=`), whatever the value. */
export function assignsCredential(text: string): boolean {
  return ASSIGNS_CREDENTIAL.test(text);
}

const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** Values of secret-looking environment variables, so a pasted key is caught whatever its shape. */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_ENV_NAME.test(name) && typeof value === 'string' && value.length > 8)
    .map(([, value]) => value as string);
}
