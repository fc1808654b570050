import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayReader } from '../../../core/gateway/index.js';
import { createRedactor } from '../../../core/secrets/index.js';
import { buildDigest, DIGEST_LIMITS, renderPrompt } from '../../../core/sweeper/digest.js';
import { activityDays, extract } from '../../../core/sweeper/extract.js';
import { GatewayDigestSource } from '../../../core/sweeper/gateway-source.js';
import { localDay } from '../../../core/api/index.js';
import { offlineOverview } from '../../../core/sweeper/curators/offline.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from '../capture/harness.js';

/**
 * A Claude Code line with no `timestamp` is stored with its place (the time of the line before it) and
 * no time of its own. The notes see it where the file has it, on the day of the line before it, and
 * never as a message from 1970-01-01: no CHANGELOG day, no `at=` the prompt shows, no first cut.
 */
const SID = '7a3e9c10-5b2d-4f6e-8a1c-3d9b0e7f2a64';
const CWD = '/work/quince';
const T0 = Date.now() - 3 * 3_600_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const UNTIMED = '7a3e9c10-0000-4000-8000-0000000000ff';
const ASK = 'Also prune the quince hedge by the gate';
const TIMED = 120;
const UNTIMED_AFTER = 115;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** 120 timed lines, user and assistant in turn, one minute apart; the untimed user line after the 115th. */
async function captured(): Promise<CaptureHarness> {
  h = captureHarness();
  const lines: Array<Record<string, unknown>> = [];
  for (let i = 0; i < TIMED; i += 1) {
    const assistant = i % 2 === 1;
    lines.push(claudeLine({ sessionId: SID, cwd: CWD, ts: at(i), uuid: `7a3e9c10-0000-4000-8000-${String(i).padStart(12, '0')}`, type: assistant ? 'assistant' : 'user', text: assistant ? `Tended quince row ${i}.` : `Tend the quince row number ${i} please` }));
    if (i === UNTIMED_AFTER) {
      const { timestamp: _dropped, ...untimed } = claudeLine({ sessionId: SID, cwd: CWD, uuid: UNTIMED, text: ASK });
      lines.push(untimed);
    }
  }
  writeJsonl(join(h.claudeRoot, 'projects', '-work-quince', `${SID}.jsonl`), lines);
  await h.driver.tick();
  return h;
}

async function digestOf(c: CaptureHarness, limits: { sessions: number; messages: number } = DIGEST_LIMITS) {
  const [project] = c.projects.list();
  const source = new GatewayDigestSource(c.projects, new GatewayReader(c.db));
  const paths = projectPaths(c.home.dir, project!.slug);
  return buildDigest(source, project!, paths, createRedactor(), T0 + TIMED * 60_000, Date.now(), null, limits);
}

const texts = (digest: Awaited<ReturnType<typeof digestOf>>) => digest.sessions[0]!.messages.map((m) => m.text);

describe('a message whose line carries no time', () => {
  it('sits where its file has it, on the day of the line before it, with no time shown', async () => {
    const c = await captured();
    const digest = await digestOf(c);
    const list = texts(digest);
    const where = list.indexOf(ASK);
    expect(where).toBeGreaterThan(0);
    expect(list[where - 1]).toBe(`Tended quince row ${UNTIMED_AFTER}.`);
    expect(list[where + 1]).toBe(`Tend the quince row number ${UNTIMED_AFTER + 1} please`);

    const days = activityDays(digest).map((d) => d.date);
    expect(days.some((d) => d.startsWith('1970'))).toBe(false);
    expect(days).toEqual([...new Set([localDay(at(0).getTime()), localDay(at(TIMED - 1).getTime())])]);
    expect(extract(digest).sessions[0]!.lastAt).toBe(at(TIMED - 1).getTime());

    const prompt = renderPrompt(digest, '2026-01-01', 200_000).user;
    expect(prompt).not.toContain('1970');
    expect(prompt).toContain(`role="user">\n${ASK}`);
    expect(digest.sessions[0]!.messages[where]!.ts).toBeNull();
  });

  it('is kept as the newer messages are when the budget cuts the oldest first', async () => {
    const c = await captured();
    const digest = await digestOf(c);
    const whole = renderPrompt(digest, '2026-01-01', 200_000);
    // A budget that keeps about the newest ten messages: the untimed one is the sixth newest.
    const perMessage = (whole.estimatedTokens - renderPrompt(digest, '2026-01-01', 0).estimatedTokens) / whole.messagesIncluded;
    const tight = renderPrompt(digest, '2026-01-01', whole.estimatedTokens - Math.floor(perMessage * (whole.messagesIncluded - 10)));
    expect(tight.messagesDropped).toBeGreaterThan(0);
    expect(tight.user).toContain(ASK);
    expect(tight.user).not.toContain(`Tend the quince row number ${TIMED - 40} please`);
  });

  it('stored before parts had a place (no time, no place), gives no 1970 either', async () => {
    const c = await captured();
    c.db.prepare('UPDATE parts SET ts = NULL, ts_inferred = 0 WHERE part_id = ?').run(`cc:${UNTIMED}:0`);
    // Such a part reads as the conversation's oldest: a tail as long as the conversation holds it.
    const digest = await digestOf(c, { sessions: 3, messages: 200 });
    const message = digest.sessions[0]!.messages.find((m) => m.text === ASK);
    expect(activityDays(digest).map((d) => d.date).some((d) => d.startsWith('1970'))).toBe(false);
    expect(extract(digest).sessions[0]!.lastAt).toBe(at(TIMED - 1).getTime());
    expect(renderPrompt(digest, '2026-01-01', 200_000).user).not.toContain('1970');
    expect(message).toBeDefined();
    expect(message!.ts).toBeNull();
  });

  it('in a conversation none of whose parts has a time, gives no day and no date at all', async () => {
    const c = await captured();
    c.db.prepare('UPDATE parts SET ts = NULL, ts_inferred = 0 WHERE session_id = ?').run(SID);
    const digest = await digestOf(c, { sessions: 3, messages: 200 });
    expect(digest.sessions[0]!.messages.length).toBeGreaterThan(100);
    expect(activityDays(digest)).toEqual([]);
    const x = extract(digest);
    expect(x.sessions[0]!.lastAt).toBeNull();
    expect(offlineOverview(digest, x)).not.toMatch(/1970|NaN/);
    expect(renderPrompt(digest, '2026-01-01', 200_000).user).not.toContain(' at="');
  });
});
