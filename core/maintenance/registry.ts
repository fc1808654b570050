import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StewardError } from '../api/index.js';
import { HOME_FILES } from '../config/index.js';
import {
  JOB_LIMIT,
  RECEIPT_LIMIT,
  RETIRED_LIMIT,
  RegistryV1,
  RegistryV2,
  emptyRegistry,
  type Receipt,
  type RegistryV1 as RegistryV1Type,
  type RegistryV2 as RegistryV2Type,
} from './schema.js';

export type RegistryDegradedReason = 'unreadable' | 'unparseable' | 'invalid_schema' | 'unsupported_version' | 'migration_failed' | 'install_secret_damaged';

export type RegistryLoad =
  | { state: 'missing' | 'ok'; registry: RegistryV2Type }
  | { state: 'migrated'; registry: RegistryV2Type; from: 1 }
  | { state: 'degraded'; reason: RegistryDegradedReason };

export type Migrator = (legacy: RegistryV1Type) => RegistryV2Type;

/**
 * Serialisation is deterministic so a migration replayed on the same input yields the same bytes;
 * compact, because every job start and finish rewrites the file.
 */
export function serializeRegistry(registry: RegistryV2Type): string {
  return `${JSON.stringify(registry)}\n`;
}

function parseText(text: string): RegistryLoad | { state: 'v1'; legacy: RegistryV1Type } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { state: 'degraded', reason: 'unparseable' };
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (version === 1) {
    const legacy = RegistryV1.safeParse(raw);
    return legacy.success ? { state: 'v1', legacy: legacy.data } : { state: 'degraded', reason: 'invalid_schema' };
  }
  if (version === 2) {
    const current = RegistryV2.safeParse(raw);
    return current.success ? { state: 'ok', registry: current.data } : { state: 'degraded', reason: 'invalid_schema' };
  }
  return { state: 'degraded', reason: typeof version === 'number' ? 'unsupported_version' : 'invalid_schema' };
}

/**
 * managed-caches.json: the daemon's private registry. A file that cannot be understood is reported
 * as degraded and is never rewritten, so a truncated or newer registry is not lost by a blind save.
 */
export class RegistryStore {
  readonly file: string;
  #state: RegistryLoad;
  /** A view that never writes: a plan asked while no owner runs (`maintenance_plan`) changes nothing. */
  readonly #readOnly: boolean;

  /** `normalize` is ordinary canonicalisation: a v2 file holding duplicates is coalesced on load. */
  readonly #onCommit: (registry: RegistryV2Type) => void;

  /** `refuse` holds the registry degraded without reading it (its fingerprints could not be trusted). */
  constructor(
    home: string,
    migrate: Migrator,
    normalize: (registry: RegistryV2Type) => RegistryV2Type = (r) => r,
    onCommit: (registry: RegistryV2Type) => void = () => undefined,
    refuse?: RegistryDegradedReason,
    options: { readOnly?: boolean } = {},
  ) {
    this.file = join(home, HOME_FILES.registry);
    this.#onCommit = onCommit;
    this.#readOnly = options.readOnly === true;
    this.#state = refuse ? { state: 'degraded', reason: refuse } : this.#load(migrate, normalize);
  }

  get load(): RegistryLoad {
    return this.#state;
  }

  get degradedReason(): RegistryDegradedReason | null {
    return this.#state.state === 'degraded' ? this.#state.reason : null;
  }

  /** The current registry; throws registry_degraded when the file could not be understood. */
  current(): RegistryV2Type {
    if (this.#state.state === 'degraded') {
      throw new StewardError('registry_degraded', `The maintenance registry is degraded (${this.#state.reason}); it was left untouched. Repair or move it, then restart.`, {
        reason: this.#state.reason,
      });
    }
    return this.#state.registry;
  }

  /**
   * Applies a mutation to a copy and writes it atomically (temp file + rename, mode 0600) together
   * with its receipt; the in-memory registry changes only after the write succeeded, so a failed
   * write rolls back the mutation and the receipt alike.
   */
  commit(mutate: (draft: RegistryV2Type) => Receipt | void): RegistryV2Type {
    const draft = structuredClone(this.current());
    const receipt = mutate(draft);
    if (receipt) draft.receipts = [...draft.receipts.filter((r) => r.key !== receipt.key), receipt];
    // The draft is built from typed data, so it is not re-parsed: zod runs where data enters (load).
    const next = bound(draft);
    this.#write(next);
    this.#state = { state: 'ok', registry: next };
    this.#onCommit(next);
    return next;
  }

  #write(registry: RegistryV2Type): void {
    if (this.#readOnly) throw new StewardError('internal', 'This view of the maintenance registry is read-only.');
    writeFileAtomic.sync(this.file, serializeRegistry(registry), { mode: 0o600, fsync: true });
  }

  #load(migrate: Migrator, normalize: (registry: RegistryV2Type) => RegistryV2Type): RegistryLoad {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing', registry: emptyRegistry() };
      return { state: 'degraded', reason: 'unreadable' };
    }
    const parsed = parseText(text);
    if (parsed.state === 'v1') {
      try {
        const registry = bound(RegistryV2.parse(migrate(parsed.legacy)));
        // A read-only view migrates in memory only; the owner's next start writes it.
        if (!this.#readOnly) {
          const backup = `${this.file}.v1.bak`;
          if (!existsSync(backup)) writeFileSync(backup, text, { mode: 0o600 });
          this.#write(registry);
        }
        return { state: 'migrated', registry, from: 1 };
      } catch {
        // The version-1 file stays exactly as it was; the next start tries again.
        return { state: 'degraded', reason: 'migration_failed' };
      }
    }
    if (parsed.state !== 'ok') return parsed;
    if (!this.#readOnly) tightenMode(this.file);
    const normalized = bound(RegistryV2.parse(normalize(parsed.registry)));
    if (!this.#readOnly && serializeRegistry(normalized) !== serializeRegistry(parsed.registry)) this.#write(normalized);
    return { state: 'ok', registry: normalized };
  }
}

function tightenMode(file: string): void {
  try {
    chmodSync(file, 0o600);
  } catch {
    // A file we cannot chmod is still readable; the next atomic write recreates it with 0600.
  }
}

/** Receipts, job history and retired records are bounded: the oldest go first. */
function bound(registry: RegistryV2Type): RegistryV2Type {
  const receipts = [...registry.receipts].sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1)).slice(-RECEIPT_LIMIT);
  const jobs = registry.jobs.slice(-JOB_LIMIT);
  const retired = registry.retired.slice(-RETIRED_LIMIT);
  return { ...registry, receipts, jobs, retired };
}
