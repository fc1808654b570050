import type { ProviderId, RootKey, SkipReason } from '../api/index.js';
import type { CodeCount } from '../log/index.js';

/** One content block of one message, already bounded. */
export interface PartRow {
  partId: string;
  sessionId: string;
  provider: ProviderId;
  role: string | null;
  kind: string;
  /** UTC epoch milliseconds of the line, when it had one. */
  ts: number | null;
  text: string | null;
  /** Small JSON object (tool name, truncation/hash facts, image metadata); never a payload. */
  meta: string | null;
}

/** What one file says about one session; the sink merges these into `sessions`. */
export interface SessionRow {
  sessionId: string;
  provider: ProviderId;
  /** 'code' (a Claude Code root), 'desktop' (a Claude Desktop sandbox home) or 'openclaw'. */
  source: string;
  cwd: string | null;
  parentSessionId: string | null;
  agentType: string | null;
  title: string | null;
  firstTs: number | null;
  lastTs: number | null;
}

export interface TranscriptBatch {
  parts: PartRow[];
  sessions: SessionRow[];
}

/** A discovered transcript file, deduplicated by (dev, ino). */
export interface TranscriptFile {
  path: string;
  dev: bigint;
  ino: bigint;
  size: number;
  mtimeMs: number;
  source: string;
  /** A sidecar that describes this transcript (Cowork `local_<uuid>.json`), read only when the file is read. */
  sidecar?: string;
  /**
   * Where the last committed read of this file stopped, as its provider reported it in
   * `LineStats.resume` (an OpenClaw store's per-session watermarks); absent = read from the start.
   */
  resume?: string;
}

/** Per-file line accounting; never paths or content. */
export interface LineStats {
  lines: number;
  failedLines: number;
  oversizeLines: number;
  /** Lines that yielded no part, by reason (see countSkip). */
  skipped?: Partial<Record<SkipReason, number>>;
  /** A provider-defined position this read reached; handed back as `TranscriptFile.resume` once its rows committed. */
  resume?: string;
}

export interface ReadOptions {
  maxLineBytes: number;
  /** Lines older than this are outside the retention window and produce nothing; null = open window. */
  windowStartMs: number | null;
  batchParts: number;
}

export interface DiscoveryResult {
  files: TranscriptFile[];
  /** Entries that could not be listed or stat'ed. */
  failed: number;
  /** The failures above by error code (never a path). */
  errors?: CodeCount[];
  /** True when the run's signal stopped the walk: `files` is then only part of the tree. */
  cancelled?: boolean;
}

/** A transcript provider plugin. */
export interface TranscriptProvider {
  readonly id: ProviderId;
  /** Enumerates the roots on every call (new sandbox homes and files appear between runs); `signal` stops it. */
  discover(signal?: AbortSignal): Promise<DiscoveryResult>;
  /** Streams one file as batches; the stats object is filled as lines are consumed. */
  read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch>;
}

/** A provider's entry in the registry: where its roots are by default, and how it is built over them. */
export interface ProviderDefinition<P extends ProviderId = ProviderId> {
  id: P;
  /** The real default folders of each kind of root, from the user's environment. */
  defaultRoots(env: NodeJS.ProcessEnv): Record<RootKey<P>, string[]>;
  create(roots: Record<RootKey<P>, string[]>): TranscriptProvider;
}
