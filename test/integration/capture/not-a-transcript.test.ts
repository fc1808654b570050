import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failuresOf, type ProviderSweepStats } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { captureIo as io } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A file a person or a tool left in a Claude Code project folder under a transcript's name (QA 45, B7):
 * JSON that is no transcript is read and counted as such, never a failure; plain text stays a file
 * that could not be read (move it), but a backfill that meets it again, unchanged, says it is still
 * unreadable, a warning, and exits 0, as a sweep does. A backfill still reads it again (a retry on request).
 */
const openWindow = { query: { cache: { retention: { default_days: 0 } } } };
const PROJECT = '-home-dana-src-orchard';
const SESSION = '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21';
/** QA's notes.jsonl: text, then a line that opens as JSON and breaks. */
const PLAIN = 'this is not json at all\n{"also":broken\n';
/** Notes a tool wrote as JSON lines: nothing of Claude Code's shapes (no type, message, uuid or sessionId). */
const JSON_NOTES = '{"note":"buy milk","at":"2026-12-01"}\n{"todo":["rename the wombat"],"done":false}\n';

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A real Claude Code session: one question, one answer. */
function session(projects: string): string {
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/dana/src/orchard', sessionId: SESSION, version: '2.1.12' };
  const lines = [
    { ...base, type: 'user', uuid: 'u-1', timestamp: '2026-12-01T09:00:00.000Z', message: { role: 'user', content: 'prune the orchard' } },
    { ...base, type: 'assistant', uuid: 'a-1', parentUuid: 'u-1', timestamp: '2026-12-01T09:00:05.000Z', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Pruned.' }] } },
  ];
  return write(join(projects, PROJECT, `${SESSION}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('JSON lines in a Claude Code project folder that are no transcript', () => {
  it('are read and counted not_a_transcript, no failure, by a tick and a backfill alike', async () => {
    h = captureHarness(openWindow);
    session(join(h.claudeRoot, 'projects'));
    write(join(h.claudeRoot, 'projects', PROJECT, 'notes.jsonl'), JSON_NOTES);
    const tick = byProvider(await h.driver.tick(), 'claude');
    expect(tick).toMatchObject({ discovered: 2, read: 2, failed: 0, skipped: { not_a_transcript: 2 } });
    expect(tick.skipped?.unknown_type).toBeUndefined();
    const [backfill] = await h.driver.backfill({ provider: 'claude', all: true });
    expect(backfill).toMatchObject({ read: 2, failed: 0, skipped: { not_a_transcript: 2 } });
    expect(h.driver.unreadable().total).toBe(0);
  });

  it('a transcript line of a kind Steward does not import is still of that kind, not "no transcript"', async () => {
    h = captureHarness(openWindow);
    const line = { type: 'brand-new-kind', uuid: 'x-1', sessionId: SESSION, timestamp: '2026-12-01T09:00:00.000Z' };
    write(join(h.claudeRoot, 'projects', PROJECT, `${SESSION}.jsonl`), `${JSON.stringify(line)}\n`);
    const tick = byProvider(await h.driver.tick(), 'claude');
    expect(tick).toMatchObject({ read: 1, failed: 0, skipped: { unknown_type: 1 } });
    expect(tick.skipped?.not_a_transcript).toBeUndefined();
  });
});

describe('a plain-text notes.jsonl met again, unchanged', () => {
  it('is read again by a backfill, and still unreadable: a warning, not a failure of that run', async () => {
    h = captureHarness(openWindow);
    session(join(h.claudeRoot, 'projects'));
    write(join(h.claudeRoot, 'projects', PROJECT, 'notes.jsonl'), PLAIN);
    const [first] = await h.driver.backfill({ provider: 'claude', all: true });
    expect(first).toMatchObject({ read: 1, failed: 1, unreadable: [{ code: 'not_transcript', count: 1 }] });
    expect(failuresOf([first!]).level).toBe('failed');
    for (let i = 0; i < 2; i += 1) {
      const [again] = await h.driver.backfill({ provider: 'claude', all: true });
      expect(again).toMatchObject({ read: 1, failed: 1, unreadableUnchanged: 1, unreadable: [{ code: 'not_transcript', count: 1 }] });
      // Read again all the same: a backfill is how a person asks for a retry.
      expect(again!.bytesRead).toBeGreaterThanOrEqual(PLAIN.length);
      expect(failuresOf([again!]).level).toBe('warning');
    }
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ code: 'not_transcript' }] });
    // Telemetry's rule is the same (failuresOf over the recorded row): the first import Failed, the later ones a Warning.
    const rows = h.telemetry.recent(3, 'backfill.run').map((row) => failuresOf((row.data as { providers: ProviderSweepStats[] }).providers).level);
    expect(rows).toEqual(['warning', 'warning', 'failed']);
  });

  it('once changed, it fails anew', async () => {
    h = captureHarness(openWindow);
    const notes = write(join(h.claudeRoot, 'projects', PROJECT, 'notes.jsonl'), PLAIN);
    await h.driver.backfill({ provider: 'claude', all: true });
    write(notes, `${PLAIN}more notes\n`);
    const [changed] = await h.driver.backfill({ provider: 'claude', all: true });
    expect(changed).toMatchObject({ failed: 1 });
    expect(changed!.unreadableUnchanged).toBeUndefined();
  });
});

describe('what steward backfill says of a notes.jsonl', () => {
  const temp = coreHome('steward-not-a-transcript-');

  it('JSON notes: exit 0, counted in words as no transcript', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'claude');
    home.env.STEWARD_CLAUDE_ROOTS = root;
    session(join(root, 'projects'));
    write(join(root, 'projects', PROJECT, 'notes.jsonl'), JSON_NOTES);
    const out = io(home.env);
    expect(await runCli(['backfill', '--provider', 'claude', '--all'], out)).toBe(0);
    expect(out.out).toMatch(/^claude: 2 transcript files, 2 read; 2 new messages; .*2 in a file that is not a transcript/m);
    expect(out.out).not.toContain('failed');
    expect(out.out).not.toContain('notes.jsonl');
  });

  it('plain text: named and exit 1 once; every later backfill says still unreadable, read again, and exits 0', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'claude');
    home.env.STEWARD_CLAUDE_ROOTS = root;
    session(join(root, 'projects'));
    const notes = write(join(root, 'projects', PROJECT, 'notes.jsonl'), PLAIN);

    const sweep = io(home.env);
    expect(await runCli(['sweep'], sweep)).toBe(1);
    expect(sweep.out).toContain(`  ${notes} (Claude: not a transcript: nothing in it is JSON, not_transcript)\n`);

    for (let i = 0; i < 2; i += 1) {
      const backfill = io(home.env);
      expect(await runCli(['backfill', '--provider', 'claude', '--all'], backfill)).toBe(0);
      expect(backfill.out).toMatch(/^claude: 2 transcript files, 1 read, 1 still unreadable \(not_transcript ×1; read again, unchanged since it failed\)/m);
      expect(backfill.out).not.toContain('not read again');
      expect(backfill.out).toContain('1 transcript file is still unreadable, unchanged since it failed:\nIt is named like a transcript but is not one: move it out of the agent’s folder, or rename it.\n');
      expect(backfill.out).toContain(`  ${notes} (Claude: `);
    }
  });
});
