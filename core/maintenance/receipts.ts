import { StewardError } from '../api/index.js';
import type { Receipt, RegistryV2 } from './schema.js';

export function receiptOf(key: string, operation: Receipt['operation'], requestHash: string, pathFingerprint: string | null, at: number, outcome: Receipt['outcome']): Receipt {
  return { key, operation, requestHash, pathFingerprint, at, outcome };
}

/** Same key and same request replays; same key with different content is idempotency_conflict. */
export function replayReceipt(registry: RegistryV2, key: string, operation: Receipt['operation'], requestHash: string): Record<string, unknown> | null {
  const receipt = registry.receipts.find((r) => r.key === key);
  if (!receipt) return null;
  if (receipt.operation !== operation || receipt.requestHash !== requestHash) {
    throw new StewardError('idempotency_conflict', 'That idempotency key was already used for a different request; use a new key.');
  }
  if (receipt.outcome.ok) return receipt.outcome.result;
  throw new StewardError(receipt.outcome.code as StewardError['code'], receipt.outcome.message, receipt.outcome.details);
}
