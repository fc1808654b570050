/**
 * Typed errors of the contract. Every failure that crosses a transport carries one of these codes in
 * JSON-RPC `error.data.code`, so callers branch on a stable string rather than on message text.
 */
export const ERROR_CODES = [
  'invalid_params',
  'method_not_found',
  'internal',
  'already_running',
  'schema_too_new',
  'config_invalid',
  'not_found',
  'cancelled',
  'busy',
  // The Electron IPC bridge refuses a call from any frame but the app's own page.
  'forbidden',
  // Spec 004 (maintenance) codes.
  'cache_writer_busy',
  'stale_plan',
  'idempotency_conflict',
  'confirmation_required',
  'identity_conflict',
  'identity_unresolved',
  'cache_clone_conflict',
  'config_snapshot_invalid',
  'registry_degraded',
  'cache_invalid',
  // A repository named OWNER/NAME that several hosts maintain: the caller names one as HOST/OWNER/NAME.
  'repository_ambiguous',
  // A forge token a setup plan needs is not stored (spec 004's setup surface names it with its remedy).
  'token_missing',
  // Spec 004 retrieval (RAG) codes: an embedding profile refused, missing or failing.
  'boundary_refused',
  'embedder_unavailable',
  'embedder_rate_limited',
  'embedder_failed',
  'model_missing',
  'optional_dependency_missing',
  // Spec 001 (sweeper) codes.
  'sweep_failed',
  'curator_paused',
  // No key store can keep an API key here (headless mode, or no OS keychain): set the environment variable.
  'key_store_unavailable',
  // This runtime cannot do what was asked (start at login outside the app on macOS or Windows; an
  // autostart entry Steward did not write).
  'unsupported',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** JSON-RPC numeric codes: the standard ones where they fit, one server range for the rest. */
const RPC_CODES: Partial<Record<ErrorCode, number>> = {
  invalid_params: -32602,
  method_not_found: -32601,
  internal: -32603,
};

export class StewardError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'StewardError';
    this.code = code;
    this.details = details;
  }

  get rpcCode(): number {
    return RPC_CODES[this.code] ?? -32000;
  }

  toJSON(): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Wraps anything thrown into a StewardError without leaking stack traces or foreign messages. */
export function toStewardError(error: unknown): StewardError {
  if (error instanceof StewardError) return error;
  // Foreign messages can hold paths or content; only a system error code (ENOENT, EACCES…) is kept.
  const code = (error as { code?: unknown } | null)?.code;
  const suffix = typeof code === 'string' && /^E[A-Z]+$/.test(code) ? ` (${code})` : '';
  return new StewardError('internal', `Internal error${suffix}`);
}
