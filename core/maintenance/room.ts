import type { Logger } from '../log/index.js';
import type { WriterAdmission } from './admission.js';
import type { CacheInspection } from './cache.js';
import type { PathFingerprinter } from './hashing.js';
import type { RegistryStore } from './registry.js';

/** What the coordinator's parts share: the registry, the writer fence, the clock and cache inspection. */
export interface Room {
  home: string;
  store: RegistryStore;
  admission: WriterAdmission;
  logger: Logger;
  clock: () => number;
  fingerprint: PathFingerprinter;
  inspect(path: string): CacheInspection;
}
