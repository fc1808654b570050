import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/transcripts/${path}`, import.meta.url));

const temp = coreHome('steward-image-tool-results-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const openclaw = join(home.dir, 'roots', 'openclaw');
  const sessions = join(openclaw, 'agents', 'main', 'sessions');
  mkdirSync(sessions, { recursive: true });
  copyFileSync(fixture('openclaw/image-result.jsonl'), join(sessions, '3b8e2f10-6c4d-4a7e-9f21-5d0c8b7a6e43.jsonl'));
  const claude = join(home.dir, 'roots', 'claude');
  mkdirSync(join(claude, 'projects', '-home-sam-dash'), { recursive: true });
  copyFileSync(fixture('claude/image-result.jsonl'), join(claude, 'projects', '-home-sam-dash', '6e1d9a4b-2f7c-4b3e-8a5d-0c9f1e2d3b4a.jsonl'));
  home.env.STEWARD_OPENCLAW_ROOTS = openclaw;
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

interface Doc {
  session: { messages: number };
  messages: Array<{ role: string | null; countsAsMessage?: false; parts: Array<{ kind: string }> }>;
}

// A screenshot a tool returned, and nothing else: a prompt, the call, its image result and the answer.
describe('a tool result that holds only an image is not a message', () => {
  it.each(['openclaw', 'claude'] as const)('%s: counted as the prompt, the call and the answer; the export marks the result', async (provider) => {
    const { sessions } = await core.call('Sessions.List', { provider });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.messages).toBe(3);
    const doc = JSON.parse((await core.call('Sessions.Export', { sessionId: sessions[0]!.sessionId, format: 'json' })).content) as Doc;
    expect(doc.session.messages).toBe(3);
    const left = doc.messages.filter((m) => m.countsAsMessage === false);
    expect(left).toHaveLength(1);
    expect(doc.messages.length - left.length).toBe(doc.session.messages);
    const page = await core.call('Sessions.Get', { sessionId: sessions[0]!.sessionId });
    expect(page.messages.filter((m) => m.countsAsMessage === false)).toHaveLength(1);
  });

  it('openclaw: the result is kept as the image a tool returned, naming its call', async () => {
    const { sessions } = await core.call('Sessions.List', { provider: 'openclaw' });
    const page = await core.call('Sessions.Get', { sessionId: sessions[0]!.sessionId });
    const result = page.messages.find((m) => m.countsAsMessage === false)!;
    expect(result.parts.map((p) => p.kind)).toEqual(['image']);
  });
});
