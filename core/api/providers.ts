import { z } from 'zod';

/**
 * What a person and the configuration know about each transcript provider, declared once: its id,
 * its name, and its kinds of root (the config key under `providers.<id>`, the environment variable
 * that replaces it, what such a folder holds). The config schema, env overrides, the CLI's choices,
 * the contract's enums and the panel's labels derive from this; the parser, discovery and default
 * locations live in the provider's folder under core/transcripts/providers/.
 */
export interface RootKind {
  /** `STEWARD_*_ROOTS`: a path list that replaces this kind's roots entirely (empty = none). */
  env: string;
  /** What a person calls these folders. */
  label: string;
  /** What such a folder holds, for messages and the panel ("folders holding projects/"). */
  holds: string;
  /** The `source` capture stores for a session read under such a folder: which app wrote it. */
  source: string;
}

export interface ProviderDescriptor {
  label: string;
  /** Keyed by the config key under `providers.<id>`; registry order is key order. */
  roots: Readonly<Record<string, RootKind>>;
}

export const PROVIDERS = {
  claude: {
    label: 'Claude',
    roots: {
      roots: { env: 'STEWARD_CLAUDE_ROOTS', label: 'Claude Code', holds: 'projects/', source: 'code' },
      desktop_roots: { env: 'STEWARD_CLAUDE_DESKTOP_ROOTS', label: 'Claude Desktop', holds: 'local-agent-mode-sessions/', source: 'desktop' },
    },
  },
  openclaw: {
    label: 'OpenClaw',
    roots: { roots: { env: 'STEWARD_OPENCLAW_ROOTS', label: 'OpenClaw', holds: 'agents/', source: 'openclaw' } },
  },
  codex: {
    label: 'Codex CLI',
    roots: { roots: { env: 'STEWARD_CODEX_ROOTS', label: 'Codex CLI', holds: 'sessions/ and archived_sessions/', source: 'codex' } },
  },
  gemini: {
    label: 'Gemini CLI',
    roots: { roots: { env: 'STEWARD_GEMINI_ROOTS', label: 'Gemini CLI', holds: 'tmp/<project>/chats/', source: 'gemini' } },
  },
} as const satisfies Record<string, ProviderDescriptor>;

export type ProviderId = keyof typeof PROVIDERS;
/** A provider's name as a literal type: the panel, which may import only types, spells it and is checked against it. */
export type ProviderLabel<P extends ProviderId = ProviderId> = (typeof PROVIDERS)[P]['label'];
export type RootKey<P extends ProviderId = ProviderId> = keyof (typeof PROVIDERS)[P]['roots'] & string;

/** The providers in registry order: a tick queues them in exactly this order. */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]];

/** Every (provider, root kind) pair, for env overrides and listings. */
export function rootKinds(): Array<{ provider: ProviderId; key: string; kind: RootKind }> {
  return PROVIDER_IDS.flatMap((provider) => Object.entries(PROVIDERS[provider].roots).map(([key, kind]) => ({ provider, key, kind: kind as RootKind })));
}

/**
 * The app that wrote a session, as people call it: the label of the kind of folder capture read it
 * under (Claude Code's projects/ or Claude Desktop's sessions are both the Claude provider), else the
 * provider's name (a row stored with no source, or one no kind claims).
 */
export function appName(provider: string, source: string | null): string {
  const descriptor = (PROVIDERS as Record<string, ProviderDescriptor>)[provider];
  if (descriptor === undefined) return provider;
  const kinds = Object.values(descriptor.roots);
  return kinds.find((k) => k.source === source)?.label ?? (kinds.length === 1 ? kinds[0]!.label : descriptor.label);
}

const RootPath = z.strictObject({ path: z.string(), exists: z.boolean() });

/** One kind of root of one provider: what is read now, what config.json says, what was found by default. */
export const ProviderRootsView = z.strictObject({
  /** The config key under `providers.<id>`. */
  key: z.string(),
  label: z.string(),
  holds: z.string(),
  env: z.string(),
  /** The folders the running owner reads, each with whether it exists. */
  watched: z.array(RootPath),
  /** Where `watched` came from: the environment variable, config.json, or the default locations. */
  source: z.enum(['environment', 'config', 'default']),
  /** As saved in config.json (null: not set, the defaults apply); takes effect at the next start. */
  configured: z.array(z.string()).nullable(),
  /** The default locations on this computer, each with whether it exists. */
  detected: z.array(RootPath),
});

export const ProviderSurvey = z.strictObject({
  provider: z.enum(PROVIDER_IDS),
  /** Transcript files found by listing the folders (nothing is read). */
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Oldest and newest last change of those files; null without files. */
  oldestAt: z.number().int().nullable(),
  newestAt: z.number().int().nullable(),
  /** The scheduled sweep's window in days (0: everything), and the files entirely older than it. */
  windowDays: z.number().int().nonnegative(),
  older: z.strictObject({ files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }),
  /** Entries that could not be listed. */
  failed: z.number().int().nonnegative(),
});

export const providersMethods = {
  /** Every provider's kinds of root, resolved as the owner reads them, with whether each folder exists. */
  'Providers.Roots': {
    params: z.strictObject({}),
    result: z.strictObject({
      providers: z.array(z.strictObject({ provider: z.enum(PROVIDER_IDS), label: z.string(), enabled: z.boolean(), roots: z.array(ProviderRootsView) })),
    }),
  },
  /**
   * What the watched folders hold, from listing them alone (no transcript is opened): files, size,
   * dates, and how much lies before the scheduled window. Enabled providers, registry order.
   */
  'Providers.Survey': {
    params: z.strictObject({}),
    result: z.strictObject({ providers: z.array(ProviderSurvey), durationMs: z.number().int().nonnegative() }),
  },
} as const;
