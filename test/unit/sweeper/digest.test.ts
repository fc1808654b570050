import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../core/secrets/index.js';
import { buildDigest, renderPrompt, SYSTEM_PROMPT } from '../../../core/sweeper/digest.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import type { DigestMessage } from '../../../core/sweeper/types.js';
import { MemorySource, tempHome } from '../../integration/sweeper/helpers.js';
import { leaks } from '../secrets/corpus.js';

const TOKEN = `ghp_${'R8tYq2WvX6zB4nM1kL9pJ3hG7fD5sA0cE2uI'}`;
const homes: Array<() => void> = [];
afterEach(() => homes.splice(0).forEach((c) => c()));

function setup(messages: DigestMessage[], task: DigestMessage | null = null) {
  const home = tempHome();
  homes.push(home.cleanup);
  const project = { projectKey: 'p_00000000000000cd', name: 'demo', cwd: `${home.dir}/demo`, slug: 'demo-00000000', repoBacked: false, repoId: null };
  const source = new MemorySource().add(project, [{ sessionId: 's1', title: 'Frost dates', firstRequest: task, messages }]);
  return { home: home.dir, project, source, paths: projectPaths(home.dir, project.slug) };
}

describe('the digest redacts before it cuts', () => {
  it("tells a model curator the manual block is the person's, kept by Steward, not to be copied or changed", () => {
    expect(SYSTEM_PROMPT).toMatch(/<!-- manual -->.*<!-- \/manual -->[^\n]*\n[^\n]*(keeps|kept)/);
  });

  it('a secret straddling the message cut leaves no piece behind', async () => {
    // 1,990 characters, then a token across the 2,000-character cut.
    const text = `${'frost '.repeat(331)}xxxx ${TOKEN} and more words after it`;
    const { source, project, paths } = setup([{ role: 'user', text, toolUses: [], ts: 1 }]);
    const digest = await buildDigest(source, project, paths, createRedactor(), 1, 2);
    const out = digest.sessions[0]!.messages[0]!.text;
    expect(out).toContain('…[truncated]');
    expect(leaks(out, TOKEN)).toBe(false);
    expect(out).not.toContain('ghp_');
  });

  it('a command, a path and an error line are cut after redaction too', async () => {
    const command = `${'x'.repeat(1_990)} ${TOKEN} tail`;
    const { source, project, paths } = setup([
      { role: 'assistant', text: 'ran it', toolUses: [{ name: 'Bash', command, isError: true, errorLine: `${'e'.repeat(190)} ${TOKEN}` }, { name: 'Write', filePath: `/tmp/${'d'.repeat(290)}/${TOKEN}.txt` }], ts: 1 },
    ]);
    const digest = await buildDigest(source, project, paths, createRedactor(), 1, 2);
    expect(leaks(JSON.stringify(digest.sessions), TOKEN)).toBe(false);
  });

  it("the notes are read whole, redacted, then cut (OVERVIEW's head, CHANGELOG's tail)", async () => {
    const { source, project, paths } = setup([{ role: 'user', text: 'hello there friend', toolUses: [], ts: 1 }]);
    mkdirSync(paths.dir, { recursive: true });
    writeFileSync(paths.overview, `${'o'.repeat(5_990)} ${TOKEN} end\n`);
    writeFileSync(paths.changelog, `start ${TOKEN} ${'c'.repeat(1_495)}\n`);
    const digest = await buildDigest(source, project, paths, createRedactor(), 1, 2);
    expect(leaks(`${digest.notes.overview}${digest.notes.changelogTail}`, TOKEN)).toBe(false);
  });
});

describe('the prompt keeps each session opening', () => {
  it("title and task statement stay when the budget drops the session's older messages", async () => {
    const task: DigestMessage = { role: 'user', text: 'Add a frost-date lookup to the planting calendar', toolUses: [], ts: 1 };
    const later = Array.from({ length: 40 }, (_, i): DigestMessage => ({ role: i % 2 ? 'assistant' : 'user', text: `message ${i} ${'word '.repeat(80)}`, toolUses: [], ts: 10 + i }));
    const { source, project, paths } = setup(later, task);
    const digest = await buildDigest(source, project, paths, createRedactor(), 100, 200);
    const prompt = renderPrompt(digest, '2026-11-29', 3_000);
    expect(prompt.messagesDropped).toBeGreaterThan(0);
    expect(prompt.user).toContain('<session n="1" title="Frost dates">\n<task at=');
    expect(prompt.user).toContain('Add a frost-date lookup to the planting calendar');
    expect(prompt.user).toContain('message 39');
    expect(prompt.user).not.toContain('message 0 ');
    expect(prompt.estimatedTokens).toBeLessThanOrEqual(3_000);
  });
});
