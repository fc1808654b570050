import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A tester's typo in an agent's folder went unnoticed: `steward info` did not name the folders it
 * reads. And it said "from 11 projects" while `steward projects` listed 14: three emptied by a forget.
 */
const temp = coreHome('steward-info-folders-');

describe('steward info', () => {
  it("lists each agent's folders, whether each is there, and what set them", async () => {
    const { home } = temp;
    const claude = join(home.dir, 'claude');
    mkdirSync(claude);
    const file = join(home.dir, 'notes.txt');
    writeFileSync(file, 'not a folder');
    const missing = join(home.dir, 'no-such-folder');
    const env: NodeJS.ProcessEnv = { ...home.env, STEWARD_CLAUDE_ROOTS: claude, STEWARD_CODEX_ROOTS: missing, STEWARD_OPENCLAW_ROOTS: file };
    // Gemini at its default place, which this fake home has none of: the agent is not installed.
    delete env.STEWARD_GEMINI_ROOTS;
    const { code, out } = await runIn(env, 'info');
    expect(code).toBe(0);
    const block = out.slice(out.indexOf('Transcript folders:\n'));
    expect(block.split('\n').slice(0, 6)).toEqual([
      'Transcript folders:',
      `  Claude Code (set by STEWARD_CLAUDE_ROOTS): ${claude} (found)`,
      '  Claude Desktop (set by STEWARD_CLAUDE_DESKTOP_ROOTS): none',
      `  OpenClaw (set by STEWARD_OPENCLAW_ROOTS): ${file} (not a folder)`,
      `  Codex CLI (set by STEWARD_CODEX_ROOTS): ${missing} (does not exist)`,
      expect.stringMatching(/^ {2}Gemini CLI \(by default\): \S+ \(not found\)$/),
    ]);

    const json = await runIn(env, 'info', '--json');
    const answer = JSON.parse(json.out) as { folders: Array<{ provider: string; roots: Array<{ watched: Array<{ path: string; exists: boolean }> }> }> };
    expect(answer.folders.find((p) => p.provider === 'codex')?.roots[0]?.watched).toEqual([{ path: missing, exists: false }]);
  });

  it('names each folder a STEWARD_*_ROOTS variable names that was left out, and why', async () => {
    const codex = join(temp.home.dir, 'codex-full');
    const env: NodeJS.ProcessEnv = { ...temp.home.env, STEWARD_CODEX_ROOTS: `relcodex:${codex}`, STEWARD_GEMINI_ROOTS: './gemrel' };
    const { code, out } = await runIn(env, 'info');
    expect(code).toBe(0);
    const lines = out.split('\n');
    const why = 'it is not a full path, so it would be read under whichever folder Steward was started in. Write it in full (from /, ~/ or a drive letter).';
    const codexAt = lines.indexOf(`  Codex CLI (set by STEWARD_CODEX_ROOTS): ${codex} (does not exist)`);
    expect(lines[codexAt + 1]).toBe(`    relcodex is left out: ${why}`);
    // Every folder the setting names left out: the line says why in `steward sweep`'s words, not a bare "none" (a QA finding).
    const geminiAt = lines.indexOf('  Gemini CLI (set by STEWARD_GEMINI_ROOTS): none read: ./gemrel was left out because it is not a full path');
    expect(geminiAt).toBeGreaterThan(0);
    expect(lines[geminiAt + 1]).toBe(`    ./gemrel is left out: ${why}`);
    const sweep = await runIn(env, 'sweep');
    expect(sweep.out).toContain('gemini: no transcript files found: ./gemrel was left out because it is not a full path (set by STEWARD_GEMINI_ROOTS)');
  });

  it('counts the projects holding a conversation, and says how many more have none left', async () => {
    const roots = join(temp.home.dir, 'claude-roots');
    const at = Date.now() - 3_600_000;
    const sessions = ['6b1e4c2a-0d9f-4a37-8e15-2c7b9d0f4a61', '9d3f1a7c-5e2b-4c80-b16a-0f8e4d2c7b39', '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'];
    sessions.forEach((sessionId, i) =>
      writeJsonl(join(roots, 'projects', `-work-p${i}`, `${sessionId}.jsonl`), [
        claudeLine({ sessionId, cwd: `/work/p${i}`, ts: new Date(at), text: 'what is left?' }),
        claudeLine({ sessionId, cwd: `/work/p${i}`, ts: new Date(at + 1000), type: 'assistant', text: 'the rota' }),
      ]),
    );
    const c = temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } });
    await c.call('Backfill.Run', { all: true });
    await c.call('Forget.Session', { sessionId: sessions[1]! });
    await c.call('Forget.Session', { sessionId: sessions[2]! });
    await temp.close();

    const env = { ...temp.home.env, STEWARD_CLAUDE_ROOTS: roots };
    const { out } = await runIn(env, 'info');
    expect(out).toMatch(/^ {2}Stored: 2 messages in 1 conversation from 1 project \(2 more have no conversations left\); /m);
    const json = JSON.parse((await runIn(env, 'info', '--json')).out) as { stored: unknown };
    expect(json.stored).toMatchObject({ projects: 1, projectsEmpty: 2 });
  });
});
