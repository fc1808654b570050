import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { whatIsWrong, type ProviderSweepStats } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import type { TranscriptProvider } from '../../../core/transcripts/index.js';
import { captureIo as io } from '../../support/cli.js';
import { AgentStoreFixture, agentStorePath, fixtureEvents } from '../../support/openclaw-store.js';
import { coreHome } from '../../support/core.js';
import type { TempHome } from '../../support/home.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A transcript file whose own bytes cannot be read (a truncated Codex archive, an OpenClaw store that
 * is no database) is named to the person where they look, remembered as it was so that no tick reads it
 * again until it changes (a restart included), and is a warning that counts it, not an error forever.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
const COLD = join(FIXTURES, 'cold', 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl.zst');
const LIVE = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const BROKEN = 'rollout-2026-12-01T09-00-00-019fa000-0000-7000-8000-000000000001.jsonl.zst';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Codex's folder for a day, with one good rollout and a compressed one cut off half-way (a copy that stopped, a full disk). */
function codexDay(root: string): { good: string; broken: string } {
  const day = join(root, 'sessions', '2026', '12', '01');
  mkdirSync(day, { recursive: true });
  const good = join(day, LIVE);
  copyFileSync(join(FIXTURES, LIVE), good);
  const broken = join(day, BROKEN);
  const whole = readFileSync(COLD);
  writeFileSync(broken, whole.subarray(0, Math.floor(whole.length / 2)));
  return { good, broken };
}

/** Changes a file's mtime only, as `touch` does. */
function touch(path: string, secondsLater: number): void {
  const at = new Date(statSync(path).mtimeMs + secondsLater * 1000);
  utimesSync(path, at, at);
}

const openWindow = { query: { cache: { retention: { default_days: 0 } } } };

describe('a truncated Codex archive (.jsonl.zst)', () => {
  it('is counted unreadable and named; later ticks and a restart do not read it again, yet count it failing', async () => {
    h = captureHarness(openWindow);
    const { broken } = codexDay(h.codexRoot);
    const size = statSync(broken).size;

    const first = byProvider(await h.driver.tick(), 'codex');
    // One code whichever thread read it: the read worker says read_failed of a decoder's error too.
    expect(first).toMatchObject({ discovered: 2, read: 1, failed: 1, errors: [{ code: 'read_failed', count: 1 }], unreadable: [{ code: 'read_failed', count: 1 }] });
    expect(first.unreadableUnchanged).toBeUndefined();
    expect(first.bytesRead).toBeGreaterThanOrEqual(size);
    expect(h.driver.named([first]).unreadable).toMatchObject([{ provider: 'codex', path: broken, code: 'read_failed', size }]);

    // The failure is a warning in the log once, when the file failed; a tick that only meets it again,
    // unchanged, says so at info level with the same counts.
    const warned = (from: number) => h!.logger.lines.slice(from).filter((l) => l.startsWith('warn transcript scan had failures') && l.includes('provider="codex"'));
    expect(warned(0)).toHaveLength(1);
    const before = h.logger.lines.length;
    const second = byProvider(await h.driver.tick(), 'codex');
    expect(second).toMatchObject({ discovered: 2, read: 0, unchanged: 1, failed: 1, bytesRead: 0, unreadableUnchanged: 1, errors: [{ code: 'read_failed', count: 1 }], unreadable: [{ code: 'read_failed', count: 1 }] });
    expect(warned(before)).toEqual([]);
    expect(h.logger.lines.slice(before).join('\n')).toMatch(/^info transcript scan .*provider="codex".*unreadableUnchanged=1.*errors="read_failed:1"/m);

    // A new owner (an empty fingerprint map) remembers it from the store: nothing of it is read.
    await h.restart(openWindow);
    const restarted = byProvider(await h.driver.tick(), 'codex');
    expect(restarted).toMatchObject({ read: 0, unchanged: 1, failed: 1, bytesRead: 0, unreadableUnchanged: 1 });
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ provider: 'codex', path: broken }] });
  });

  it('is tried again once it changes, and forgotten once it reads', async () => {
    h = captureHarness(openWindow);
    const { broken } = codexDay(h.codexRoot);
    await h.driver.tick();

    touch(broken, 5);
    const touched = byProvider(await h.driver.tick(), 'codex');
    expect(touched).toMatchObject({ read: 0, failed: 1, bytesRead: statSync(broken).size, unreadable: [{ code: 'read_failed', count: 1 }] });
    expect(touched.unreadableUnchanged).toBeUndefined();

    // Replaced by a whole copy: it reads, and nothing is said of it any more (a restart included).
    copyFileSync(COLD, broken);
    touch(broken, 10);
    const replaced = byProvider(await h.driver.tick(), 'codex');
    expect(replaced).toMatchObject({ read: 1, failed: 0, errors: [] });
    expect(replaced.unreadable).toBeUndefined();
    expect(h.driver.unreadable()).toEqual({ files: [], total: 0 });
    await h.restart(openWindow);
    expect(h.driver.unreadable()).toEqual({ files: [], total: 0 });
  });

  it('is read again by a backfill, the way a person asks for a retry; failing as it did, it is still unreadable (README)', async () => {
    h = captureHarness(openWindow);
    const { broken } = codexDay(h.codexRoot);
    await h.driver.tick();
    const [backfill] = await h.driver.backfill({ provider: 'codex', all: true });
    expect(backfill).toMatchObject({ read: 1, failed: 1, unreadable: [{ code: 'read_failed', count: 1 }], unreadableUnchanged: 1 });
    expect(backfill!.bytesRead).toBeGreaterThanOrEqual(statSync(broken).size);
  });

  it('is forgotten when it is gone from the folder', async () => {
    h = captureHarness(openWindow);
    const { broken } = codexDay(h.codexRoot);
    await h.driver.tick();
    rmSync(broken);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 1, failed: 0 });
    expect(h.driver.unreadable().total).toBe(0);
  });

  it('is no longer said to wait for a retry once it is older than the window, which no tick reads', async () => {
    h = captureHarness(openWindow);
    const { broken } = codexDay(h.codexRoot);
    touch(broken, -40 * 86_400);
    await h.driver.tick();
    expect(h.driver.unreadable().total).toBe(1);
    await h.restart({ query: { cache: { retention: { default_days: 30 } } } });
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ outsideWindow: 1, failed: 0 });
    expect(h.driver.unreadable()).toEqual({ files: [], total: 0 });
  });

  it('stays listed after a backfill of fewer days than the schedule, which the next tick still tries', async () => {
    h = captureHarness(openWindow);
    const { broken } = codexDay(h.codexRoot);
    touch(broken, -10 * 86_400);
    await h.driver.tick();
    const [backfill] = await h.driver.backfill({ provider: 'codex', days: 3 });
    expect(backfill).toMatchObject({ outsideWindow: 1 });
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ path: broken }] });
  });
});

describe('a damaged plain file', () => {
  /** Counts the files `provider` is asked to open, by path. */
  function counting(provider: TranscriptProvider): string[] {
    const opened: string[] = [];
    const read = provider.read.bind(provider);
    provider.read = (file, options, stats) => {
      opened.push(file.path);
      return read(file, options, stats);
    };
    return opened;
  }

  it('an OpenClaw store that is no database is remembered as it was, and not opened again, a restart included', async () => {
    h = captureHarness(openWindow);
    const store = join(h.openclawRoot, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
    mkdirSync(join(store, '..'), { recursive: true });
    writeFileSync(store, 'not a database, whatever its name says\n'.repeat(200));
    const openclaw = () => h!.driver.providers.find((p) => p.id === 'openclaw')!;

    let opened = counting(openclaw());
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 1, failed: 1, unreadable: [{ code: 'SQLITE_NOTADB', count: 1 }] });
    expect(opened).toEqual([store]);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ failed: 1, unreadableUnchanged: 1, errors: [{ code: 'SQLITE_NOTADB', count: 1 }] });
    expect(opened).toEqual([store]);

    await h.restart(openWindow);
    opened = counting(openclaw());
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ failed: 1, unreadableUnchanged: 1 });
    expect(opened).toEqual([]);

    // Overwritten (the same inode, a new size): tried again.
    writeFileSync(store, 'still not a database\n');
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ failed: 1, unreadable: [{ code: 'SQLITE_NOTADB', count: 1 }] });
    expect(opened).toEqual([store]);
  });

  it('a rollout of nothing but garbled lines is a file that could not be read (no line of it could be), named', async () => {
    h = captureHarness(openWindow);
    const day = join(h.codexRoot, 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    const path = join(day, 'rollout-2026-12-01T10-00-00-019fa000-0000-7000-8000-000000000002.jsonl');
    writeFileSync(path, Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x0a, 0x80, 0x81, 0x0a]));
    const stats: ProviderSweepStats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ read: 0, failed: 1, failedLines: 0, unreadable: [{ code: 'not_transcript', count: 1 }] });
    expect(h.driver.unreadable()).toMatchObject({ total: 1, files: [{ provider: 'codex', path, code: 'not_transcript' }] });
  });
});

describe('what the person is told', () => {
  const temp = coreHome('steward-unreadable-');
  function withCodex(): { home: TempHome; broken: string } {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'codex');
    const { broken } = codexDay(root);
    home.env.STEWARD_CODEX_ROOTS = root;
    return { home, broken };
  }

  it('steward sweep names the file and what to do; the next sweep (a new process) does not read it again; steward info names it', async () => {
    const { home, broken } = withCodex();
    const first = io(home.env);
    expect(await runCli(['sweep'], first)).toBe(1);
    expect(first.out).toMatch(/^codex: 2 transcript files, 1 read, 1 failed \(read_failed ×1\);/m);
    expect(first.out).toContain('1 transcript file could not be read:\nIt may be damaged. Replace it with a good copy (from a backup, or the computer it came from), or move it out of the agent’s folder if it is not needed.');
    expect(first.out).toContain('`steward backfill` tries it again now, without waiting for it to change.\n');
    expect(first.out).toContain(`  ${broken} (Codex CLI: its contents could not be read, read_failed)\n`);

    // Known and unchanged, it is no failure of this run: a warning, exit 0.
    const again = io(home.env);
    expect(await runCli(['sweep', '--json'], again)).toBe(0);
    const result = JSON.parse(again.out) as { providers: ProviderSweepStats[]; unreadable: Array<{ path: string }> };
    expect(byProvider(result.providers, 'codex')).toMatchObject({ read: 0, failed: 1, bytesRead: 0, unreadableUnchanged: 1 });
    expect(result.unreadable.map((f) => f.path)).toEqual([broken]);

    const text = io(home.env);
    expect(await runCli(['sweep'], text)).toBe(0);
    expect(text.out).toMatch(/^codex: 2 transcript files, 1 already up to date, 1 still unreadable \(read_failed ×1; not read again: unchanged since it failed\);/m);
    expect(text.out).toContain('1 transcript file is still unreadable, unchanged since it failed:\nIt may be damaged. Replace it with a good copy');
    expect(text.out).toContain(`  ${broken} (Codex CLI: its contents could not be read, read_failed)\n`);

    const info = io(home.env);
    expect(await runCli(['info'], info)).toBe(0);
    expect(info.out).toContain(`  ${broken} (Codex CLI: its contents could not be read, read_failed)\n`);
    const json = io(home.env);
    expect(await runCli(['info', '--json'], json)).toBe(0);
    expect((JSON.parse(json.out) as { unreadable: { total: number; files: Array<{ path: string }> } }).unreadable).toMatchObject({ total: 1, files: [{ path: broken }], checkedAt: expect.any(Number) as number });
  });

  it('a store another process holds locked is named and said to be caught mid-write, a warning and not an error of Steward\'s', async () => {
    const { home } = temp;
    const root = join(home.dir, 'roots', 'openclaw');
    home.env.STEWARD_OPENCLAW_ROOTS = root;
    const fixture = new AgentStoreFixture(agentStorePath(root), 'current', 'main');
    fixture.append('7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01', fixtureEvents());
    fixture.db.pragma('locking_mode = EXCLUSIVE');
    fixture.db.exec('BEGIN EXCLUSIVE');
    try {
      const out = io(home.env);
      await runCli(['sweep'], out);
      expect(out.out).toContain('1 transcript file could not be read:\nIt may have been caught in the middle of being written');
      expect(out.out).toContain(`  ${agentStorePath(root)} (OpenClaw: ${whatIsWrong('SQLITE_BUSY')}, SQLITE_BUSY)\n`);
      expect(whatIsWrong('SQLITE_BUSY')).not.toBe('its contents could not be read');
      const core = temp.open();
      await core.call('Sweep.Tick', {});
      expect(core.status).toMatchObject({ state: 'attention', errors: [], attention: [{ kind: 'files-unreadable', subject: 'openclaw' }] });
    } finally {
      fixture.db.exec('COMMIT');
      fixture.close();
    }
  });

  it('steward info says the list is the last check\'s: a file replaced since stays listed, so labelled, until the next check', async () => {
    const { home, broken } = withCodex();
    expect(await runCli(['sweep'], io(home.env))).toBe(1);
    // The person replaces the damaged file with a good copy; info looks at no file, and says so.
    copyFileSync(COLD, broken);
    const info = io(home.env);
    expect(await runCli(['info'], info)).toBe(0);
    expect(info.out).toMatch(/^At the last check \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2})\), 1 transcript file could not be read:\nIt may be damaged\. /m);
    expect(info.out).toContain(`  ${broken} (Codex CLI: its contents could not be read, read_failed)\n`);
    expect(info.out).toContain('A file replaced or moved since then is still listed until the next check looks at it again; `steward sweep` checks now.\n');
    // The next check reads the replaced file, and it is listed no more.
    expect(await runCli(['sweep'], io(home.env))).toBe(0);
    const after = io(home.env);
    expect(await runCli(['info'], after)).toBe(0);
    expect(after.out).not.toContain(broken);
    expect(after.out).not.toContain('could not be read');
  });

  it('the status warns with the count and where the names are, ticks after ticks; status, telemetry and logs hold no path', async () => {
    const { home, broken } = withCodex();
    const logger = createMemoryLogger();
    const core = temp.open({ logger });
    const text = '1 Codex CLI transcript file could not be read: it is tried again once it changes; Telemetry names it';
    for (let tick = 0; tick < 4; tick += 1) {
      const result = await core.call('Sweep.Tick', {});
      expect(result.unreadable?.map((f) => f.path)).toEqual([broken]);
      // A warning, never an error, and never "failing N times in a row": Steward itself works.
      expect(core.status).toMatchObject({ state: 'attention', message: text, errors: [], attention: [{ kind: 'files-unreadable', subject: 'codex', text, place: 'telemetry' }] });
    }
    expect(await core.call('Sweep.Unreadable', {})).toMatchObject({ total: 1, files: [{ provider: 'codex', path: broken, code: 'read_failed' }] });

    const telemetry = JSON.stringify(await core.call('Telemetry.Recent', {}));
    const said = [JSON.stringify(core.status), JSON.stringify(await core.call('App.Info', {})), telemetry, logger.lines.join('\n')];
    for (const words of said) {
      expect(words).not.toContain(BROKEN);
      expect(words).not.toContain(home.dir);
    }
    expect(telemetry).toContain('"unreadable":[{"code":"read_failed","count":1}]');

    // Once it is gone, nothing is said of it.
    rmSync(broken);
    await core.call('Sweep.Tick', {});
    expect(core.status).toMatchObject({ state: 'idle', attention: [], errors: [] });
    expect(await core.call('Sweep.Unreadable', {})).toEqual({ files: [], total: 0 });
  });
});
