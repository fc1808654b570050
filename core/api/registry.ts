// The transcript providers as people and the configuration know them, shared by core and the panel:
// the panel imports this file of core/ at run time, so it imports nothing (lint keeps it so).

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
  /**
   * Its thoughts open with their subject, then say what of it (Gemini CLI's "Reading the config\n…"): a
   * thought's folded line is that subject, and its body goes on after it (thoughtAfterLine) rather than
   * saying it twice. Other agents' first lines are part of what they thought: their body stays whole.
   */
  thoughtsOpenWithSubject?: true;
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
    thoughtsOpenWithSubject: true,
  },
} as const satisfies Record<string, ProviderDescriptor>;

export type ProviderId = keyof typeof PROVIDERS;
export type RootKey<P extends ProviderId = ProviderId> = keyof (typeof PROVIDERS)[P]['roots'] & string;

/** The providers in registry order: a tick queues them in exactly this order. */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]];

/**
 * Apps a search narrows to by `provider` besides the providers themselves: one provider's sessions read
 * under one kind of its folders (their `source`), where that provider's app is more than one. Claude
 * Desktop's conversations are the Claude provider's, as Claude Code's are: `claude` finds both.
 */
export const SEARCH_APPS = { 'claude-desktop': { provider: 'claude', source: 'desktop' } } as const satisfies Record<string, { provider: ProviderId; source: string }>;
export type SearchApp = keyof typeof SEARCH_APPS;

/**
 * What `provider` takes wherever conversations are narrowed to an app (a search, a listing): a
 * provider, or an app of one (SEARCH_APPS).
 */
export const SEARCH_PROVIDERS = [...PROVIDER_IDS, ...(Object.keys(SEARCH_APPS) as SearchApp[])] as const;

/** The app a search's `provider` names, when it names one (`claude-desktop`) rather than a provider: one lookup for every reader. */
export function searchAppOf(id: string | undefined): (typeof SEARCH_APPS)[SearchApp] | undefined {
  return id !== undefined && Object.hasOwn(SEARCH_APPS, id) ? SEARCH_APPS[id as SearchApp] : undefined;
}

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

/** Whether the app that wrote a conversation (appName) opens its thoughts with their subject: the viewer, the CLI and the exports read this one rule. */
export function thoughtsOpenWithSubject(app: string): boolean {
  return PROVIDER_IDS.some((id) => (PROVIDERS[id] as ProviderDescriptor).thoughtsOpenWithSubject === true && appName(id, null) === app);
}
