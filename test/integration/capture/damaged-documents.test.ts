import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { unreadableWhy } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { captureIo as io } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A transcript kept as one document (a legacy Gemini chat, `chats/session-*.json`) is read whole: when
 * it does not parse (cut short by a full disk or a copy that stopped), nothing of it could be read. It
 * is then a file that could not be read, named with what to do, not one unreadable line of a file that
 * reads "up to date". A line file (JSONL) is another matter: each line stands alone, so a garbled line
 * is a line that failed, beside lines that read; a line file with no line that reads could not be read.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));
const LEGACY = readFileSync(join(FIXTURES, 'legacy-session.json'), 'utf8');
const CUT = LEGACY.slice(0, Math.floor(LEGACY.length / 2));
const chatPath = (root: string) => join(root, 'tmp', 'webapp', 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json');
const openWindow = { query: { cache: { retention: { default_days: 0 } } } };

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Changes a file's mtime only, as `touch` does. */
function touch(path: string, secondsLater: number): void {
  const at = new Date(statSync(path).mtimeMs + secondsLater * 1000);
  utimesSync(path, at, at);
}

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a legacy Gemini chat cut short', () => {
  it('is a file that could not be read (malformed), named; not read again while unchanged; forgotten once it reads', async () => {
    h = captureHarness(openWindow);
    const path = write(chatPath(h.geminiRoot), CUT);

    const first = byProvider(await h.driver.tick(), 'gemini');
    expect(first).toMatchObject({ discovered: 1, read: 0, failed: 1, failedLines: 0, partsWritten: 0, errors: [{ code: 'malformed', count: 1 }], unreadable: [{ code: 'malformed', count: 1 }] });
    expect(first.bytesRead).toBe(statSync(path).size);
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ provider: 'gemini', path, code: 'malformed', size: statSync(path).size }] });

    // Unchanged, a restart included: counted failing, never opened again.
    await h.restart(openWindow);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 0, failed: 1, bytesRead: 0, unreadableUnchanged: 1 });

    // The person puts the whole chat back: it reads, and nothing is said of it any more.
    write(path, LEGACY);
    touch(path, 5);
    const replaced = byProvider(await h.driver.tick(), 'gemini');
    expect(replaced).toMatchObject({ read: 1, failed: 0, errors: [] });
    expect(replaced.partsWritten).toBeGreaterThan(0);
    expect(replaced.unreadable).toBeUndefined();
    expect(h.driver.unreadable()).toEqual({ files: [], total: 0 });
  });

  it('a chat that is JSON but no document (a list, a string) could not be read either; an empty file is an empty line, not damage', async () => {
    h = captureHarness(openWindow);
    const path = write(chatPath(h.geminiRoot), '["not", "a", "chat"]');
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ failed: 1, unreadable: [{ code: 'malformed', count: 1 }] });
    write(path, '');
    touch(path, 5);
    const empty = byProvider(await h.driver.tick(), 'gemini');
    expect(empty).toMatchObject({ read: 1, failed: 0, failedLines: 0, skipped: { empty: 1 } });
    expect(h.driver.unreadable().total).toBe(0);
  });

  /** Attack: `messages` an object, not a list, was counted bookkeeping (meta_only) and its text never imported, unsaid. */
  it('a chat whose messages are not a list could not be read either: named malformed, not counted as bookkeeping', async () => {
    h = captureHarness(openWindow);
    const chat = JSON.parse(LEGACY) as { messages: unknown[] };
    const path = write(chatPath(h.geminiRoot), JSON.stringify({ ...chat, messages: { ...chat.messages } }));
    const stats = byProvider(await h.driver.tick(), 'gemini');
    expect(stats).toMatchObject({ read: 0, failed: 1, partsWritten: 0, unreadable: [{ code: 'malformed', count: 1 }] });
    expect(stats.skipped?.meta_only).toBeUndefined();
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ path, code: 'malformed' }] });
  });

  it('one a parser before this one read as an unreadable line is read again on the upgrade, and named', async () => {
    h = captureHarness(openWindow);
    const path = write(chatPath(h.geminiRoot), LEGACY);
    await h.driver.tick();
    // What an older parser left: the cut chat checkpointed as read (one unreadable line), as it is now.
    write(path, CUT);
    const now = statSync(path, { bigint: true });
    h.db.prepare("UPDATE file_checkpoints SET parser_version = 4, size = ?, mtime_ms = ?, dev = ?, ino = ? WHERE provider = 'gemini'").run(Number(now.size), Math.trunc(Number(now.mtimeMs)), String(now.dev), String(now.ino));
    await h.restart(openWindow);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ failed: 1, unreadable: [{ code: 'malformed', count: 1 }] });
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ path, code: 'malformed' }] });
  });
});

describe('a Gemini JSONL chat of garbled lines', () => {
  it('with no line that reads, is a file that could not be read, as every agent\'s line file is', async () => {
    h = captureHarness(openWindow);
    write(`${chatPath(h.geminiRoot)}l`, '{"sessionId": "x", "mess\nnot json either\n');
    const stats = byProvider(await h.driver.tick(), 'gemini');
    expect(stats).toMatchObject({ read: 0, failed: 1, failedLines: 0, unreadable: [{ code: 'malformed', count: 1 }] });
  });
});

describe('what the person is told of a cut-short chat', () => {
  const temp = coreHome('steward-damaged-chat-');

  it('steward sweep and steward info name it, in words; the status warns; the words say what a malformed file is', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'gemini');
    const path = write(chatPath(root), CUT);
    home.env.STEWARD_GEMINI_ROOTS = root;
    expect(unreadableWhy('malformed')).toBe('nothing of it could be read: it may be in the middle of being written, or cut short');

    const sweep = io(home.env);
    expect(await runCli(['sweep'], sweep)).toBe(1);
    expect(sweep.out).toMatch(/^gemini: 1 transcript file, 1 failed \(malformed ×1\)/m);
    expect(sweep.out).toContain('1 transcript file could not be read:\nIt may have been caught in the middle of being written: Steward reads it again once it changes');
    expect(sweep.out).toContain(`  ${path} (Gemini CLI: nothing of it could be read: it may be in the middle of being written, or cut short, malformed)\n`);

    // The next sweep meets it known and unchanged: nothing failed in that run, so it exits 0, and says
    // the file is still unreadable, named as before.
    const again = io(home.env);
    expect(await runCli(['sweep'], again)).toBe(0);
    expect(again.out).toMatch(/^gemini: 1 transcript file, 1 still unreadable \(malformed ×1; not read again: unchanged since it failed\); nothing new \(\d+ ms\)$/m);
    expect(again.out).not.toMatch(/\d failed/);
    expect(again.out).toContain('1 transcript file is still unreadable, unchanged since it failed:\nIt may have been caught in the middle of being written: ');
    expect(again.out).toContain(`  ${path} (Gemini CLI: nothing of it could be read: it may be in the middle of being written, or cut short, malformed)\n`);
    const json = io(home.env);
    expect(await runCli(['sweep', '--json'], json)).toBe(0);

    // Changed and still cut short, it is read again and fails in this run: a failure until it is known.
    write(path, CUT.slice(0, -10));
    touch(path, 5);
    const changed = io(home.env);
    expect(await runCli(['sweep'], changed)).toBe(1);
    expect(changed.out).toMatch(/^gemini: 1 transcript file, 1 failed \(malformed ×1\)/m);
    expect(await runCli(['sweep'], io(home.env))).toBe(0);

    const info = io(home.env);
    expect(await runCli(['info'], info)).toBe(0);
    expect(info.out).toContain(`  ${path} (Gemini CLI: nothing of it could be read: it may be in the middle of being written, or cut short, malformed)\n`);

    const core = temp.open();
    await core.call('Sweep.Tick', {});
    expect(core.status).toMatchObject({ state: 'attention', attention: [{ kind: 'files-unreadable', subject: 'gemini', place: 'telemetry' }] });
    expect(await core.call('Sweep.Unreadable', {})).toMatchObject({ total: 1, files: [{ provider: 'gemini', path, code: 'malformed' }] });
  });
});
