import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Sweeper } from '../../../core/sweeper/index.js';
import { type Clock, type DigestSession, type DigestSource, type SweeperProject } from '../../../core/sweeper/types.js';
import { type SweeperSettings } from '../../../core/sweeper/sweeper.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/sweeper/', import.meta.url));

const Tool = z.object({ name: z.string(), filePath: z.string().optional(), command: z.string().optional(), isError: z.boolean().optional(), errorLine: z.string().optional() });
const Fixture = z.object({
  project: z.object({ projectKey: z.string(), name: z.string(), cwd: z.string(), slug: z.string(), repoBacked: z.boolean(), repoId: z.string().nullable().default(null) }),
  secrets: z.record(z.string(), z.string()),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string().nullable().default(null),
      messages: z.array(z.object({ role: z.enum(['user', 'assistant']), ts: z.string(), text: z.string(), toolUses: z.array(Tool) })),
    }),
  ),
});

export interface LoadedFixture {
  project: SweeperProject;
  secrets: Record<string, string>;
  sessions: DigestSession[];
}

export function loadFixture(): LoadedFixture {
  const raw = Fixture.parse(JSON.parse(readFileSync(join(FIXTURES, 'transcripts.json'), 'utf8')));
  return {
    project: raw.project,
    secrets: raw.secrets,
    sessions: raw.sessions.map((s) => {
      const messages = s.messages.map((m) => ({ ...m, ts: Date.parse(m.ts) }));
      return { sessionId: s.sessionId, title: s.title, firstRequest: messages.find((m) => m.role === 'user') ?? null, messages };
    }),
  };
}

/** A DigestSource over in-memory sessions: the abstract input the sweeper is built against. */
export class MemorySource implements DigestSource {
  readonly entries = new Map<string, { project: SweeperProject; sessions: DigestSession[] }>();

  add(project: SweeperProject, sessions: DigestSession[]): this {
    this.entries.set(project.projectKey, { project, sessions: structuredClone(sessions) });
    return this;
  }

  projects(): SweeperProject[] {
    return [...this.entries.values()].map((e) => e.project);
  }

  /** New activity: a user turn in the newest session. */
  say(projectKey: string, text: string, ts: number): void {
    const entry = this.entries.get(projectKey);
    entry?.sessions[0]?.messages.push({ role: 'user', text, toolUses: [], ts });
  }

  project(projectKey: string): SweeperProject | null {
    return this.entries.get(projectKey)?.project ?? null;
  }

  latestActivity(projectKey: string): number | null {
    const all = this.entries.get(projectKey)?.sessions.flatMap((s) => s.messages.flatMap((m) => (m.ts !== null ? [m.ts] : []))) ?? [];
    return all.length > 0 ? Math.max(...all) : null;
  }

  recentSessions(projectKey: string, limits: { sessions: number; messages: number }): DigestSession[] {
    const sessions = this.entries.get(projectKey)?.sessions ?? [];
    return sessions.slice(0, limits.sessions).map((s) => ({ ...s, messages: s.messages.slice(-limits.messages) }));
  }
}

/** Time that moves only when the test says so; due timers fire in order. */
export class ManualClock implements Clock {
  #now: number;
  #next = 1;
  readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.timers.set(id, { at: this.#now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time forward, firing every timer that falls due (each after the previous one settled). */
  async advance(ms: number, settle: () => Promise<unknown> = () => Promise.resolve()): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].fn();
      await settle();
    }
    this.#now = target;
  }
}

export const NOON = Date.parse('2026-11-29T12:00:00Z');

export function tempHome(prefix = 'steward-sweeper-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function settings(overrides: Partial<SweeperSettings> = {}): SweeperSettings {
  return {
    enabled: true,
    curator: 'offline',
    model: 'claude-haiku-4-5',
    inputTokenBudget: 8_000,
    timeoutMs: 5_000,
    minIntervalMs: 300_000,
    ignore: [],
    dailyModelCalls: 200,
    ollamaUrl: 'http://127.0.0.1:9',
    ...overrides,
  };
}

export interface Harness {
  sweeper: Sweeper;
  source: MemorySource;
  clock: ManualClock;
  fixture: LoadedFixture;
  events: Array<{ name: string; payload: unknown }>;
}

export function harness(home: string, overrides: Partial<SweeperSettings> & { env?: NodeJS.ProcessEnv; schedule?: boolean; repoBacked?: boolean; sweepDeadlineMs?: number; isPaused?: () => boolean } = {}): Harness {
  const fixture = loadFixture();
  const { env, schedule, repoBacked, sweepDeadlineMs, isPaused, ...rest } = overrides;
  const project = { ...fixture.project, repoBacked: repoBacked ?? fixture.project.repoBacked };
  const source = new MemorySource().add(project, fixture.sessions);
  const clock = new ManualClock(NOON);
  const events: Harness['events'] = [];
  const sweeper = new Sweeper({
    home,
    source,
    settings: settings(rest),
    env: { [fixture.secrets.envName!]: fixture.secrets.envValue, ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000', OPENAI_API_KEY: 'sk-openai-test-0000000000000000', ...env },
    clock,
    emit: (name, payload) => events.push({ name, payload }),
    remote: { retryBaseMs: 5, retryCapMs: 50 },
    schedule: schedule ?? false,
    ...(sweepDeadlineMs !== undefined ? { sweepDeadlineMs } : {}),
    ...(isPaused ? { isPaused } : {}),
  });
  return { sweeper, source, clock, fixture: { ...fixture, project }, events };
}
