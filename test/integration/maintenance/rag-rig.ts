import { rmSync } from 'node:fs';
import { configHashOf } from '../../../core/maintenance/identity.js';
import { ragStage, type RagStage } from '../../../core/maintenance/index.js';
import type { RagStageOptions } from '../../../core/maintenance/rag/stage.js';
import type { Maintenance } from '../../../core/maintenance/maintenance.js';
import { RepositorySearch } from '../../../core/maintenance/rag/search.js';
import { openRagCache, RagStore } from '../../../core/maintenance/rag/store.js';
import { DEFAULT_CONFIG_SNAPSHOT, type ConfigSnapshot, type Policy, type Registration } from '../../../core/maintenance/schema.js';
import type { StageRunner } from '../../../core/maintenance/jobs.js';
import { fixture, type Fixture } from '../../unit/maintenance/support.js';
import { CorpusWriter, loadFixtureCorpus, type FixtureCorpus } from '../../support/repository-cache.js';

export const REPO = 'github.com/inkwell-app/inkwell';
export const ALIAS = 'inkwell-app/inkwell';

export interface RagRig {
  f: Fixture;
  cache: string;
  corpus: FixtureCorpus;
  rag: RagStage;
  maintenance: Maintenance;
  registrationId: string;
  writer(): CorpusWriter;
  registration(): Registration;
  /** Applies a policy/config change to the registration, as a confirmed plan would (Maintain IV). */
  reconfigure(config: ConfigSnapshot, policy?: Partial<Policy>): void;
  search(query: string, extra?: Record<string, unknown>): ReturnType<RepositorySearch['search']>;
  /** Reads the cache's retrieval tables through a read-only connection. */
  peek<T>(read: (store: RagStore) => T): T;
  cleanup(): void;
}

export interface RigOptions {
  config?: ConfigSnapshot;
  policy?: Partial<Policy>;
  /** A subset of the fixture's issues (all comments of those issues follow); all of it by default. */
  issues?: number;
  wiki?: boolean;
  stage?: Partial<RagStageOptions>;
  sync?: StageRunner;
}

export function ragRig(options: RigOptions = {}): RagRig {
  const f = fixture();
  const cache = f.cache('inkwell.db', [{ repoId: REPO, aliases: [ALIAS] }]);
  const full = loadFixtureCorpus();
  const issues = full.issues.slice(0, options.issues ?? full.issues.length);
  const numbers = new Set(issues.map((i) => i.number));
  const corpus: FixtureCorpus = {
    ...full,
    issues,
    comments: full.comments.filter((c) => numbers.has(Number(c.issue_url.split('/').pop()))),
    wiki: options.wiki === false ? [] : full.wiki,
  };
  const seed = new CorpusWriter(cache, REPO);
  seed.seed(corpus);
  seed.close();
  const rag = ragStage({ home: f.home.dir, logger: f.logger, resolveIntervalMs: 0, ...options.stage });
  const maintenance = f.open({ runners: { rag, ...(options.sync ? { sync: options.sync } : {}) } });
  const { registrationId } = maintenance.enroll({
    cachePath: cache,
    repo: ALIAS,
    policy: { sync: options.sync ? 'head' : 'off', rag: 'maintain', ...options.policy },
    config: options.config ?? DEFAULT_CONFIG_SNAPSHOT,
    idempotencyKey: 'rig',
  });
  const search = new RepositorySearch(() => maintenance.store.current().registrations, rag.deps);
  const writers: CorpusWriter[] = [];
  return {
    f,
    cache,
    corpus,
    rag,
    maintenance,
    registrationId,
    writer: () => {
      const w = new CorpusWriter(cache, REPO);
      writers.push(w);
      return w;
    },
    registration: () => maintenance.store.current().registrations.find((r) => r.registrationId === registrationId)!,
    reconfigure: (config, policy = {}) =>
      maintenance.store.commit((draft) => {
        const r = draft.registrations.find((x) => x.registrationId === registrationId)!;
        r.configSnapshot = config;
        r.configHash = configHashOf(config);
        r.policy = { ...r.policy, ...policy, profile: config.profile };
      }),
    search: (query, extra = {}) => search.search({ repo: ALIAS, query, limit: 10, ...extra }),
    peek: (read) => {
      const db = openRagCache(cache, true);
      try {
        return read(new RagStore(db));
      } finally {
        db.close();
      }
    },
    cleanup: () => {
      for (const w of writers) if (w.db.open) w.close();
      f.home.cleanup();
      rmSync(f.caches, { recursive: true, force: true });
    },
  };
}

export function ollamaConfig(url: string, profile = 'local-model', model = 'nomic-embed-text'): ConfigSnapshot {
  return { profile, embedding: { provider: 'ollama', model, endpoint: url }, chunk: { max_chars: 2000, overlap: 200 } };
}

export function openAiConfig(url: string, profile = 'lm-studio', model = 'text-embedding-nomic-embed-text-v1.5'): ConfigSnapshot {
  return { profile, embedding: { provider: 'openai-compatible', model, endpoint: `${url}/v1` }, chunk: { max_chars: 2000, overlap: 200 } };
}
