/**
 * The sweeper's view of capture: a small abstract source so curation can be built and tested
 * without knowing the gateway schema. The gateway implementation lives in gateway-source.ts.
 */
export interface ToolUse {
  /** Tool name as the agent called it (Edit, Write, Bash, Read, …). */
  name: string;
  /** A file the tool touched, when it names one (a patch's first). */
  filePath?: string;
  /** Every file a patch touched (Codex's and OpenClaw's apply_patch), in the patch's order. */
  filePaths?: string[];
  /** The shell command as it was run (a heredoc commit included), when the tool ran one. */
  command?: string;
  /** The tool's result was an error. */
  isError?: boolean;
  /** The first telling line of an error result (not `Exit code 2`); never the raw tool output otherwise. */
  errorLine?: string;
}

export interface DigestMessage {
  role: 'user' | 'assistant';
  text: string;
  toolUses: ToolUse[];
  /** Its own time (UTC epoch milliseconds), the only one ever shown: null when its line gave none. */
  ts: number | null;
  /**
   * Where a message with no time of its own sits (UTC ms): the time of the line before it in its file,
   * else of the nearest one after it. Orders it and gives its day (placeOf in extract.ts); never shown.
   */
  place?: number | null;
}

export interface DigestSession {
  sessionId: string;
  /** The session's title as its agent or the user named it, when there is one. */
  title: string | null;
  /** The session's first genuine request: its task statement. */
  firstRequest: DigestMessage | null;
  /** Messages oldest first (the session's last ones). */
  messages: DigestMessage[];
}

export interface SweeperProject {
  projectKey: string;
  name: string;
  cwd: string;
  /** Folder name under STEWARD_HOME/projects (DESIGN.md: `<basename>-<first 8 hex>`). */
  slug: string;
  repoBacked: boolean;
  /** The canonical repository id from the `origin` remote (`github.com/o/r`), when there is one. */
  repoId: string | null;
}

export interface DigestSource {
  /** Every known project, for "sweep all". */
  projects(): SweeperProject[];
  project(projectKey: string): SweeperProject | null;
  /** Newest genuine activity (UTC ms) of the project, or null when it has none. */
  latestActivity(projectKey: string): number | null;
  /** The newest `sessions` sessions, newest first, each with at most its last `messages` messages. */
  recentSessions(projectKey: string, limits: { sessions: number; messages: number }): DigestSession[];
  /** Whether the person forgot the project (then it is no project here, though its row may stay a while). */
  isForgotten?(projectKey: string): boolean;
}

export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  sha256: string;
}

export interface DigestNotes {
  overview: string | null;
  changelogTail: string | null;
  /** Steward's own CLAUDE.md for a non-repo project. */
  claudeMd: string | null;
  /** The project's own CLAUDE.md, read only. */
  projectClaudeMd: string | null;
}

/** What the project says about itself, read (never written) from its own folder. */
export interface ProjectAbout {
  /** The README's first paragraph of prose. */
  readme: string | null;
  /** The package manifest's description (package.json, pyproject.toml, Cargo.toml). */
  description: string | null;
}

export interface Digest {
  project: SweeperProject;
  about: ProjectAbout;
  /** Newest first; texts redacted. */
  sessions: DigestSession[];
  notes: DigestNotes;
  /** The activity this digest covers; becomes the watermark when the sweep succeeds. */
  activityAt: number;
  /** The previous watermark: activity after it is what this sweep reports. */
  since: number | null;
  builtAt: number;
  /** OVERVIEW.md as it was when the digest was built, so a later user edit is noticed. */
  overviewSnapshot: FileSnapshot | null;
}

export interface RenderedPrompt {
  system: string;
  user: string;
  estimatedTokens: number;
  messagesIncluded: number;
  messagesDropped: number;
}

/** Injectable time so debounce, backoff and the changelog date are testable without waiting. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
