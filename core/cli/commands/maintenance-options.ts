import { COLLECTIONS, RAG_MODES, SYNC_MODES } from '../../api/index.js';
import { UsageError } from '../output.js';

// The options `steward maintenance …`, `steward rag …` and `steward service` share.

/** `--format json` is the spec's form; `--json` is its alias. */
export function formatOption(value: string | undefined, json?: boolean): 'text' | 'json' {
  if (json) return 'json';
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new UsageError('--format must be text or json');
}

export const isJson = (o: { format?: string; json?: boolean }) => o.json === true || o.format === 'json';

/** The policy flags `add` and `enroll` share, checked here so a typo is a usage error (exit 2). */
export function policyOf(options: { sync?: string; rag?: string; profile?: string; collections?: string }) {
  if (options.sync !== undefined && !(SYNC_MODES as readonly string[]).includes(options.sync)) throw new UsageError(`--sync must be ${SYNC_MODES.join(', ')}`);
  if (options.rag !== undefined && !(RAG_MODES as readonly string[]).includes(options.rag)) throw new UsageError(`--rag must be ${RAG_MODES.join(', ')}`);
  const collections = options.collections?.split(',').map((c) => c.trim()).filter((c) => c.length > 0);
  const unknown = collections?.filter((c) => !(COLLECTIONS as readonly string[]).includes(c)) ?? [];
  if (unknown.length > 0) throw new UsageError(`--collections takes ${COLLECTIONS.join(',')}; not ${unknown.join(',')}`);
  return {
    ...(options.sync ? { sync: options.sync as (typeof SYNC_MODES)[number] } : {}),
    ...(options.rag ? { rag: options.rag as (typeof RAG_MODES)[number] } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(collections ? { collections: collections as Array<(typeof COLLECTIONS)[number]> } : {}),
  };
}
