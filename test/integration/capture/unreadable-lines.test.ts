import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { remedyOf, unreadableWhy } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { captureIo as io } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A line file (JSONL) in which no line could be read — nothing but lines that fail, at least one — is a
 * file that could not be read, named as a cut-short Gemini chat is, for every agent that writes lines.
 * A file with good lines keeps them, and its bad line is counted, with its reason. A last line still
 * being written (no newline yet) is no failure: it waits for a later read.
 */
const openWindow = { query: { cache: { retention: { default_days: 0 } } } };
const ORCHARD = '/home/dana/src/orchard';
const LEDGER = '/home/dana/src/ledger';
const GARBAGE = 'this is not json at all\n';
/** Lines that begin as JSON and do not parse: what a transcript cut short, or caught mid-write, holds. */
const CUT_SHORT = '{"timestamp":"2026-12-01T00:00:00.000Z","type":"sess\n{"timestamp":\n';
/** A page of zeros, as a crash or power loss can leave where a file's bytes were never written. */
const ZEROS = '\0'.repeat(4096);

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const jsonl = (lines: unknown[]) => lines.map((l) => `${typeof l === 'string' ? l : JSON.stringify(l)}\n`).join('');
const env = (timestamp: string, type: string, payload: unknown) => ({ timestamp, type, payload });

/** A Codex rollout as Codex CLI writes it (`sessions/YYYY/MM/DD/rollout-<date>-<uuid>.jsonl`). */
function rollout(root: string, id: string, at: string, lines: unknown[], tail = ''): string {
  const day = at.slice(0, 10).split('-');
  return write(join(root, 'sessions', ...day, `rollout-${at.slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`), jsonl(lines) + tail);
}

const GOOD_ID = '019fa111-3333-7eee-8fff-2a3b4c5d6e03';
const goodLines = (id: string | undefined, cwd: string) => [
  env('2026-12-02T08:00:00.000Z', 'session_meta', { ...(id ? { id } : {}), timestamp: '2026-12-02T08:00:00.000Z', cwd, originator: 'codex_cli_rs', cli_version: '0.162.0', source: 'cli', git: { branch: 'main' } }),
  env('2026-12-02T08:00:01.000Z', 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'deploy the site' }] }),
  env('2026-12-02T08:00:05.000Z', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Deployed.' }] }),
];

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a Codex rollout of nothing but garbage', () => {
  it('is a file that could not be read (malformed), named; its lines are not counted again as unreadable lines', async () => {
    h = captureHarness(openWindow);
    const path = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000000', '2026-12-01T00:00:00', [], CUT_SHORT);
    const stats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ discovered: 1, read: 0, failed: 1, failedLines: 0, partsWritten: 0, errors: [{ code: 'malformed', count: 1 }], unreadable: [{ code: 'malformed', count: 1 }] });
    expect(stats.skipped?.malformed ?? 0).toBe(0);
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ provider: 'codex', path, code: 'malformed' }] });

    // Known and unchanged: not read again. Once Codex writes good lines into it, it reads, and is forgotten.
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ failed: 1, unreadableUnchanged: 1, bytesRead: 0 });
    writeFileSync(path, GARBAGE + jsonl(goodLines('019fa000-0000-7000-8000-000000000000', ORCHARD)));
    const later = new Date(statSync(path).mtimeMs + 5000);
    utimesSync(path, later, later);
    const fixed = byProvider(await h.driver.tick(), 'codex');
    expect(fixed).toMatchObject({ read: 1, failed: 0, failedLines: 1, skipped: { malformed: 1 } });
    expect(fixed.partsWritten).toBeGreaterThan(0);
    expect(h.driver.unreadable()).toEqual({ files: [], total: 0 });
  });

  it('garbled bytes and blank lines alone are no readable line either, and no transcript at all', async () => {
    h = captureHarness(openWindow);
    const path = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000002', '2026-12-01T10:00:00', [], '');
    writeFileSync(path, Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x0a, 0x0a, 0x80, 0x81, 0x0a]));
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ failed: 1, failedLines: 0, unreadable: [{ code: 'not_transcript', count: 1 }] });
  });

  it('a page of HTML, or text, under a transcript name is no transcript (move it), not one caught mid-write (wait)', async () => {
    h = captureHarness(openWindow);
    const html = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000003', '2026-12-01T11:00:00', [], '<!DOCTYPE html>\n<html><body>Sign in</body></html>\n');
    const text = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000004', '2026-12-01T12:00:00', [], `\uFEFF\n  ${GARBAGE}`);
    const cut = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000005', '2026-12-01T13:00:00', [], `\uFEFF\n  ${CUT_SHORT}`);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ failed: 3, unreadable: [{ code: 'not_transcript', count: 2 }, { code: 'malformed', count: 1 }] });
    const codes = Object.fromEntries(h.driver.unreadable().files.map((f) => [f.path, f.code]));
    expect(codes).toEqual({ [html]: 'not_transcript', [text]: 'not_transcript', [cut]: 'malformed' });
    expect(remedyOf('not_transcript')).toBe('move');
  });

  it('a rollout whose head a crash zero-filled, with no line read, is damaged (replace it), not "no transcript" (move it)', async () => {
    h = captureHarness(openWindow);
    // A crash or power loss can leave a file's pages zeros; the page after them starts mid-line.
    const zeros = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000006', '2026-12-01T14:00:00', [], `${ZEROS}tail of a line"}}\n`);
    const behind = rollout(h.codexRoot, '019fa000-0000-7000-8000-000000000007', '2026-12-01T15:00:00', [], `\uFEFF\n  ${ZEROS}\n${CUT_SHORT}`);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ failed: 2, failedLines: 0, unreadable: [{ code: 'damaged', count: 2 }] });
    const codes = Object.fromEntries(h.driver.unreadable().files.map((f) => [f.path, f.code]));
    expect(codes).toEqual({ [zeros]: 'damaged', [behind]: 'damaged' });
    expect(remedyOf('damaged')).toBe('replace');
    expect(unreadableWhy('damaged')).toBe('damaged: parts of it were overwritten with zeros, as a crash can leave a file');
  });

  it('a rollout a crash left zeros in, that Codex then wrote on, keeps every line: the line behind the zeros too', async () => {
    h = captureHarness(openWindow);
    const [meta, user, assistant] = goodLines(GOOD_ID, ORCHARD);
    rollout(h.codexRoot, GOOD_ID, '2026-12-02T08:00:00', [`\0\0\0${JSON.stringify(meta)}`, user, `${ZEROS}${JSON.stringify(assistant)}`]);
    const stats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ read: 1, failed: 0, failedLines: 0 });
    expect(stats.unreadable).toBeUndefined();
    expect(h.db.prepare('SELECT cwd FROM sessions WHERE session_id = ?').pluck().get(GOOD_ID)).toBe(ORCHARD);
    expect(h.db.prepare('SELECT text FROM parts WHERE session_id = ? ORDER BY ts').pluck().all(GOOD_ID)).toEqual(['deploy the site', 'Deployed.']);
  });

  it('a rollout whose only line is still being written (no newline yet) is no failure, and reads once it is complete', async () => {
    h = captureHarness(openWindow);
    const whole = JSON.stringify(goodLines(GOOD_ID, ORCHARD)[0]);
    const path = rollout(h.codexRoot, GOOD_ID, '2026-12-02T08:00:00', [], whole.slice(0, 40));
    const stats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ read: 1, failed: 0, failedLines: 0 });
    expect(stats.unreadable).toBeUndefined();
    writeFileSync(path, jsonl(goodLines(GOOD_ID, ORCHARD)));
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, failed: 0, failedLines: 0 });
    expect(h.driver.unreadable().total).toBe(0);
  });

  it('a rollout that grows a garbage line after good ones keeps them: the line is counted, the file did not fail', async () => {
    h = captureHarness(openWindow);
    const path = rollout(h.codexRoot, GOOD_ID, '2026-12-02T08:00:00', goodLines(GOOD_ID, ORCHARD));
    await h.driver.tick();
    writeFileSync(path, readFileSync(path, 'utf8') + GARBAGE);
    const resumed = byProvider(await h.driver.tick(), 'codex');
    expect(resumed).toMatchObject({ read: 1, failed: 0, failedLines: 1, skipped: { malformed: 1 } });
    expect(h.driver.unreadable().total).toBe(0);
  });
});

describe('a Codex rollout with a garbage line in the middle', () => {
  it('keeps its good lines; the bad line is counted unreadable, with its reason; the file is not named', async () => {
    h = captureHarness(openWindow);
    const [meta, user, assistant] = goodLines(GOOD_ID, ORCHARD);
    rollout(h.codexRoot, GOOD_ID, '2026-12-02T08:00:00', [meta, user, 'this is not json at all', assistant]);
    const stats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ read: 1, failed: 0, failedLines: 1, skipped: { malformed: 1 } });
    expect(stats.unreadable).toBeUndefined();
    expect(h.db.prepare('SELECT text FROM parts WHERE session_id = ? ORDER BY ts').pluck().all(GOOD_ID)).toEqual(['deploy the site', 'Deployed.']);
    expect(h.driver.unreadable().total).toBe(0);
  });
});

describe('every agent that writes lines', () => {
  it('a Claude Code transcript and an OpenClaw session of nothing but garbage are files that could not be read', async () => {
    h = captureHarness(openWindow);
    const claude = write(join(h.claudeRoot, 'projects', '-home-dana-src-orchard', '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21.jsonl'), GARBAGE + '{"parentUuid":null,"type":"user"\n');
    const openclaw = write(join(h.openclawRoot, 'agents', 'main', 'sessions', 'b7300bff-a214-4c11-97ae-eab26883c67a.jsonl'), GARBAGE);
    const stats = await h.driver.tick();
    expect(byProvider(stats, 'claude')).toMatchObject({ failed: 1, failedLines: 0, unreadable: [{ code: 'not_transcript', count: 1 }] });
    expect(byProvider(stats, 'openclaw')).toMatchObject({ failed: 1, failedLines: 0, unreadable: [{ code: 'not_transcript', count: 1 }] });
    const named = h.driver.unreadable().files.map((f) => f.path).sort();
    expect(named).toEqual([claude, openclaw].sort());
  });
});

describe('a Codex session_meta without an id', () => {
  it('keeps the id from the file name and still takes the cwd', async () => {
    h = captureHarness(openWindow);
    const id = '019fb000-4444-7aaa-8bbb-3c4d5e6f7a04';
    rollout(h.codexRoot, id, '2026-12-02T09:00:00', goodLines(undefined, LEDGER));
    await h.driver.tick();
    const session = h.db.prepare('SELECT cwd, project_key FROM sessions WHERE session_id = ?').get(id) as { cwd: string | null; project_key: string | null } | undefined;
    expect(session?.cwd).toBe(LEDGER);
    expect(session?.project_key).not.toBeNull();
    expect(h.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(1);
  });
});

describe('what the person is told', () => {
  const temp = coreHome('steward-unreadable-lines-');

  it('steward sweep, backfill and info name a rollout of garbage; a bad middle line is counted, its file not named', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'codex');
    home.env.STEWARD_CODEX_ROOTS = root;
    const garbage = rollout(root, '019fa000-0000-7000-8000-000000000000', '2026-12-01T00:00:00', [], GARBAGE);
    const [meta, user, assistant] = goodLines(GOOD_ID, ORCHARD);
    const middle = rollout(root, GOOD_ID, '2026-12-02T08:00:00', [meta, user, 'this is not json at all', assistant]);

    const sweep = io(home.env);
    expect(await runCli(['sweep'], sweep)).toBe(1);
    expect(sweep.out).toMatch(/^codex: 2 transcript files, 1 read, 1 failed \(not_transcript ×1\); .*1 that did not parse/m);
    expect(sweep.out).toContain('It is named like a transcript but is not one: move it out of the agent’s folder, or rename it.\n');
    expect(sweep.out).toContain(`  ${garbage} (Codex CLI: not a transcript: nothing in it is JSON, not_transcript)\n`);
    expect(sweep.out).not.toContain(middle);

    const backfill = io(home.env);
    await runCli(['backfill', '--provider', 'codex', '--all'], backfill);
    expect(backfill.out).toContain(`  ${garbage} (Codex CLI: `);

    const info = io(home.env);
    expect(await runCli(['info'], info)).toBe(0);
    expect(info.out).toContain(`  ${garbage} (Codex CLI: `);
    expect(info.out).not.toContain(middle);
  });
});

describe('what the person is told of a Gemini chat read while Gemini CLI rewrites it', () => {
  const temp = coreHome('steward-rewritten-chat-');
  const legacy = readFileSync(fileURLToPath(new URL('../../fixtures/transcripts/gemini/legacy-session.json', import.meta.url)), 'utf8');

  it('says it may be in the middle of being written and is read again once it changes; the exit code rule stays', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'gemini');
    home.env.STEWARD_GEMINI_ROOTS = root;
    const path = write(join(root, 'tmp', 'webapp', 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json'), legacy.slice(0, Math.floor(legacy.length / 2)));
    const why = 'nothing of it could be read: it may be in the middle of being written, or cut short';
    expect(unreadableWhy('malformed')).toBe(why);

    const sweep = io(home.env);
    expect(await runCli(['sweep'], sweep)).toBe(1);
    expect(sweep.out).toContain('1 transcript file could not be read:\nIt may have been caught in the middle of being written: Steward reads it again once it changes, so there is nothing to do unless it stays like this. Then replace it with a good copy');
    expect(sweep.out).not.toContain('damaged');
    expect(sweep.out).toContain(`  ${path} (Gemini CLI: ${why}, malformed)\n`);

    const again = io(home.env);
    expect(await runCli(['sweep'], again)).toBe(0);
    expect(again.out).toContain('1 transcript file is still unreadable, unchanged since it failed:\nIt may have been caught in the middle of being written: ');

    // Gemini CLI finishes writing it: the next sweep reads it, and nothing is said of it any more.
    write(path, legacy);
    const later = new Date(statSync(path).mtimeMs + 5000);
    utimesSync(path, later, later);
    const written = io(home.env);
    expect(await runCli(['sweep'], written)).toBe(0);
    expect(written.out).not.toContain(path);
  });
});
