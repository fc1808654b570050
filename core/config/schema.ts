import { z } from 'zod';
import { CURATOR_KINDS, EMBEDDING_PROVIDERS, HttpUrl, LOG_LEVELS, PROVIDER_IDS, PROVIDERS, type ProviderId, type RootKey } from '../api/index.js';
import { isFullRoot } from './home.js';

/**
 * config.json mirrors the dotted setting names of the specs as nested objects. Every object is
 * strict, so a misspelt key is an error naming that key rather than a silently ignored setting.
 * Defaults live here and are documented in the README's "Configuration" table.
 */
const days = z.number().int().min(0).max(36_500);
/**
 * Milliseconds from `least` (0 unless given) to a week: one least per field, so a value below it is
 * told one bound, not "at least 0" and then "at least 1,000" for the same -5.
 */
const ms = (least = 0) => z.number().int().min(least).max(7 * 24 * 3_600_000);
// A relative folder would be read relative to wherever Steward happened to start (the rule STEWARD_*_ROOTS
// take too: roots.ts); `~/…` is the user's home, expanded once the environment is known (applyEnvOverrides).
const roots = z.array(z.string().min(1).refine(isFullRoot, { message: 'must be a full path (from /, ~/ or a drive letter)' })).max(64);

const backfill = z.strictObject({
  /** A positive value narrows this provider's scheduled sweep; 0 defers to the cache retention. */
  window_days: days.default(0),
});

type RootFields<P extends ProviderId> = { [K in RootKey<P>]: z.ZodOptional<typeof roots> };

/** `providers.<id>`: on/off, its backfill window, and one list per kind of root (replacing the defaults when set). */
function providerSection<P extends ProviderId>(id: P) {
  const rootFields = Object.fromEntries(Object.keys(PROVIDERS[id].roots).map((key) => [key, roots.optional()])) as RootFields<P>;
  // Every field has a default or is optional, so `{}` is a valid section; TypeScript cannot see that through the generic.
  return z.strictObject({ enabled: z.boolean().default(true), backfill: backfill.prefault({}), ...rootFields }).prefault({} as never);
}

function providersSchema() {
  const sections = Object.fromEntries(PROVIDER_IDS.map((id) => [id, providerSection(id)])) as { [P in ProviderId]: ReturnType<typeof providerSection<P>> };
  return z.strictObject(sections).prefault({});
}

export const ConfigSchema = z.strictObject({
  query: z
    .strictObject({
      cache: z
        .strictObject({
          retention: z
            .strictObject({
              /**
               * Kernel default 365; 0 keeps everything (an open window). Scheduled sweeps import within
               * it; only a value written in config.json makes the owner delete older rows by itself.
               */
              default_days: days.default(365),
              /** How often the owner's cache-maintenance pass applies an explicit retention policy. */
              prune_interval_ms: ms(1_000).default(86_400_000),
            })
            .prefault({}),
        })
        .prefault({}),
    })
    .prefault({}),
  providers: providersSchema(),
  capture: z
    .strictObject({
      /**
       * Globs of working directories whose sessions are never captured (history): checked before a
       * session's first row is written, whatever the provider. Already captured rows stay until forgotten.
       */
      exclude: z.array(z.string().min(1).max(1_000)).max(256).default([]),
    })
    .prefault({}),
  sweep: z
    .strictObject({
      /** The transcript sweep's tick (STEWARD_SWEEP_INTERVAL_MS). */
      interval_ms: ms(1_000).default(300_000),
      /** The bounded wait on the run at the head of the queue before it is handed on. */
      handoff_timeout_ms: ms(1).default(600_000),
      /** A transcript line above this size is skipped and counted. */
      max_line_bytes: z.number().int().min(1_024).max(1_073_741_824).default(16 * 1024 * 1024),
    })
    .prefault({}),
  sweeper: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** At most one sweep per project per interval (STEWARD_SWEEPER_MIN_INTERVAL_MS). */
      min_interval_ms: ms().default(300_000),
      /** offline needs no model; the others run only when chosen here. */
      curator: z.enum(CURATOR_KINDS).default('offline'),
      /**
       * The curator's model (STEWARD_SWEEPER_MODEL). Unset means claude-haiku-4-5 for Anthropic; an
       * OpenAI-compatible endpoint serves models of its own, so it must be named (checked once the
       * environment's overrides are in: see applyEnvOverrides).
       */
      model: z.string().min(1).max(200).optional(),
      /** OpenAI-compatible endpoints (Ollama, LM Studio, llama.cpp, vLLM, …). */
      base_url: HttpUrl.optional(),
      /** Anthropic endpoint override (proxies, gateways). */
      anthropic_base_url: HttpUrl.optional(),
      input_token_budget: z.number().int().min(500).max(200_000).default(8_000),
      timeout_ms: ms(1_000).default(60_000),
      /** Folders matching these globs are never swept. */
      ignore: z.array(z.string().min(1)).max(256).default([]),
      /** Model calls a day across every project; past it, remote curation pauses until the next day. */
      daily_model_calls: z.number().int().min(0).max(100_000).default(200),
      /** Where Settings looks for a local Ollama server whose models it offers (STEWARD_OLLAMA_URL). */
      ollama_url: HttpUrl.default('http://127.0.0.1:11434'),
    })
    .prefault({}),
  maintenance: z
    .strictObject({
      reconcile_interval_ms: ms(1_000).default(300_000),
      /** How often a repository's head lane refreshes recent changes (an explicit reconcile runs it at once). */
      head_interval_ms: ms(1_000).default(300_000),
      /** How often a complete backfill walks again to find deleted and transferred items. */
      reverify_interval_ms: ms(60_000).default(7 * 24 * 3_600_000),
      /**
       * Embedding profiles by name, for search indexing (`--profile NAME`). `default` is built in (the
       * `hash` embedder, nothing leaves the machine) unless named here. No key or token belongs here.
       */
      profiles: z
        .record(
          z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a profile name is 1-64 letters, digits or . _ -'),
          z.strictObject({
            provider: z.enum(EMBEDDING_PROVIDERS),
            model: z.string().min(1).max(120),
            /** The server's address (Ollama, an OpenAI-compatible server); its host decides the data boundary. */
            endpoint: HttpUrl.optional(),
            dimensions: z.number().int().min(1).max(16_384).optional(),
            revision: z.string().min(1).max(64).optional(),
            normalize: z.boolean().optional(),
            chunk: z.strictObject({ max_chars: z.number().int().min(100).max(100_000), overlap: z.number().int().min(0).max(10_000) }).optional(),
          }),
        )
        .default({}),
    })
    .prefault({}),
  log: z
    .strictObject({
      /** The least serious line written to logs/main.log: info (every line), warn, or error only. */
      level: z.enum(LOG_LEVELS).default('info'),
    })
    .prefault({}),
  server: z
    .strictObject({
      port: z.number().int().min(0).max(65_535).default(47_470),
    })
    .prefault({}),
});

export type Config = z.output<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;
