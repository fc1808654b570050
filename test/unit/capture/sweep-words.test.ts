import { describe, expect, it } from 'vitest';
import { SKIP_REASONS, SKIP_WORDS, unreadableWhy } from '../../../core/api/index.js';
import { formatSweepResult, formatUnreadable } from '../../../core/cli/commands/sweep.js';
import { localTime } from '../../../core/cli/output.js';

const base = { discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 3, failedLines: 0 };

describe('steward sweep / backfill: one line per provider, in words', () => {
  it('says when a provider has no files, when all are up to date, and what the read ones brought', () => {
    const text = formatSweepResult({
      providers: [
        { provider: 'codex', ...base },
        { provider: 'gemini', ...base, discovered: 2, unchanged: 2 },
        { provider: 'claude', ...base, discovered: 5, read: 2, unchanged: 3, partsWritten: 7, messagesWritten: 3 },
        { provider: 'openclaw', ...base, discovered: 1, read: 1 },
      ],
    });
    expect(text).toBe(
      [
        'codex: no transcript files found (3 ms)',
        'gemini: 2 transcript files, already up to date (3 ms)',
        'claude: 5 transcript files, 2 read, 3 already up to date; 3 new messages (3 ms)',
        'openclaw: 1 transcript file, 1 read; nothing new (3 ms)',
        '',
      ].join('\n'),
    );
  });

  /** Attack: a folder that could not be opened was counted a failed transcript file ("2 transcript files, 1 read, 2 failed"). */
  it('says the folders a walk could not open apart from the files, so the files add up', () => {
    const text = formatSweepResult({
      providers: [
        { provider: 'claude', ...base, discovered: 2, read: 1, failed: 2, partsWritten: 2, messagesWritten: 2, errors: [{ code: 'EACCES', count: 2 }], foldersFailed: [{ code: 'EACCES', count: 1 }] },
        { provider: 'codex', ...base, failed: 1, errors: [{ code: 'EACCES', count: 1 }], foldersFailed: [{ code: 'EACCES', count: 1 }] },
      ],
    });
    expect(text).toBe(
      [
        'claude: 2 transcript files, 1 read, 1 failed (EACCES ×1); 1 folder could not be read (EACCES ×1); 2 new messages (3 ms)',
        'codex: no transcript files found; 1 folder could not be read (EACCES ×1); nothing new (3 ms)',
        '',
      ].join('\n'),
    );
  });

  it('says what was kept out on purpose (never in parts) and every line that held nothing, by reason, naming the window', () => {
    const text = formatSweepResult({
      providers: [{ provider: 'claude', ...base, discovered: 1, read: 1, failedLines: 1, withheld: { forgotten: 4, excluded: 0 }, skipped: { malformed: 1, meta_only: 2, outside_window: 11 } }],
    });
    expect(text).toBe(
      'claude: 1 transcript file, 1 read; nothing new; kept out what you forgot; 14 lines held nothing to import (2 bookkeeping, 1 that did not parse, 11 older than the retention window) (3 ms)\n' +
        "The retention window is set in Settings → Importing conversations, or query.cache.retention.default_days in config.json; one agent's own is providers.<id>.backfill.window_days; `steward backfill --all` imports everything.\n",
    );
    const both = formatSweepResult({ providers: [{ provider: 'claude', ...base, discovered: 1, read: 1, withheld: { forgotten: 3, excluded: 2 } }] });
    expect(both).toBe('claude: 1 transcript file, 1 read; nothing new; kept out what you forgot and what is in excluded folders (3 ms)\n');
  });

  it('counts messages, never parts: parts that make no new message grew messages already stored', () => {
    const text = formatSweepResult({ providers: [{ provider: 'claude', ...base, discovered: 3, read: 3, partsWritten: 39, messagesWritten: 35 }, { provider: 'codex', ...base, discovered: 1, read: 1, partsWritten: 2, messagesWritten: 0 }] });
    expect(text).toBe('claude: 3 transcript files, 3 read; 35 new messages (3 ms)\ncodex: 1 transcript file, 1 read; added to messages already stored (3 ms)\n');
    expect(text).not.toMatch(/\bparts?\b/);
  });

  it('names the window --days asked for, and says nothing of the retention window then', () => {
    const text = formatSweepResult({ providers: [{ provider: 'claude', ...base, discovered: 2, read: 1, outsideWindow: 1, skipped: { outside_window: 3 } }] }, { kind: 'days', days: 30 });
    expect(text).toBe('claude: 2 transcript files, 1 read, 1 older than the last 30 days, not read; nothing new; 3 lines held nothing to import (3 older than the last 30 days) (3 ms)\n');
    expect(text).not.toContain('chosen');
  });

  it("names each agent's retention window as the owner gave it, and a number only then", () => {
    const claude = { provider: 'claude', ...base, discovered: 3, unchanged: 1, outsideWindow: 2 };
    const codex = { provider: 'codex', ...base, discovered: 2, unchanged: 1, outsideWindow: 1 };
    const where = "(Settings → Importing conversations, or query.cache.retention.default_days in config.json; one agent's own is providers.<id>.backfill.window_days); `steward backfill --all` imports everything.\n";
    const differ = formatSweepResult({ providers: [claude, codex] }, { kind: 'retention', days: { claude: 90, codex: 365, gemini: 365 } });
    expect(differ).toContain(`\nThe retention window is the last 90 days for Claude and the last 365 days for Codex CLI ${where}`);
    // Only the agents whose lines name the window are named; one window is said once.
    const one = formatSweepResult({ providers: [claude, { provider: 'codex', ...base, discovered: 1, unchanged: 1 }] }, { kind: 'retention', days: { claude: 90, codex: 365 } });
    expect(one).toContain(`\nThe retention window is the last 90 days ${where}`);
    // The owner did not say: no number at all, rather than one that may be wrong.
    expect(formatSweepResult({ providers: [claude] })).not.toMatch(/\d+ days/);
  });

  it('names the agent of an unreadable file as everything else does, and its code after the words (a terminal has no Details)', () => {
    const file = { provider: 'codex' as const, path: '/home/a/.codex/sessions/x.jsonl', code: 'read_failed', failedAt: 1, size: 10, mtimeMs: 1 };
    expect(formatUnreadable([file])).toContain('  /home/a/.codex/sessions/x.jsonl (Codex CLI: its contents could not be read, read_failed)\n');
    // A code without words of its own is said as the panel says it, not as "error E…": the code follows anyway.
    expect(formatUnreadable([{ ...file, code: 'EWHATEVER' }])).toContain('  /home/a/.codex/sessions/x.jsonl (Codex CLI: its contents could not be read, EWHATEVER)\n');
  });

  it('groups the files by what to do, in the panel\'s words: wait for one caught mid-write, replace a damaged one, move one that is no transcript, shorten a long path', () => {
    const chat = { provider: 'gemini' as const, path: '/home/a/.gemini/tmp/x/chats/session-1.json', code: 'malformed', failedAt: 1, size: 10, mtimeMs: 1 };
    const archive = { provider: 'codex' as const, path: '/home/a/.codex/sessions/x.jsonl.zst', code: 'read_failed', failedAt: 1, size: 10, mtimeMs: 1 };
    const store = { provider: 'openclaw' as const, path: '/home/a/.openclaw/agents/main/agent/openclaw-agent.sqlite', code: 'SQLITE_NOTADB', failedAt: 1, size: 10, mtimeMs: 1 };
    const deep = { provider: 'claude' as const, path: '/home/a/.claude/projects/x/deep.jsonl', code: 'ENAMETOOLONG', failedAt: 1, size: 10, mtimeMs: 1 };
    const chat2 = { ...chat, path: '/home/a/.gemini/tmp/x/chats/session-2.json' };
    expect(formatUnreadable([chat, archive, store, chat2, deep])).toBe(
      [
        '5 transcript files could not be read:',
        'They may have been caught in the middle of being written: Steward reads each again once it changes, so there is nothing to do unless one stays like this. Then replace it with a good copy, or move it out of the agent’s folder.',
        `  ${chat.path} (Gemini CLI: nothing of it could be read: it may be in the middle of being written, or cut short, malformed)`,
        `  ${chat2.path} (Gemini CLI: nothing of it could be read: it may be in the middle of being written, or cut short, malformed)`,
        'It may be damaged. Replace it with a good copy (from a backup, or the computer it came from), or move it out of the agent’s folder if it is not needed. Steward tries again once it changes.',
        `  ${archive.path} (Codex CLI: its contents could not be read, read_failed)`,
        'It is named like a transcript but is not one: move it out of the agent’s folder, or rename it.',
        `  ${store.path} (OpenClaw: not a database, SQLITE_NOTADB)`,
        'The system cannot open a path this long: shorten the names of the folders it is in, or move it to a folder with a shorter path.',
        `  ${deep.path} (Claude: its path is too long to open, ENAMETOOLONG)`,
        '`steward backfill` tries them again now, without waiting for one to change.',
        '',
      ].join('\n'),
    );
    // One caught mid-write is never called damaged.
    const one = formatUnreadable([chat]);
    expect(one).toMatch(/^1 transcript file could not be read:\nIt may have been caught in the middle of being written: Steward reads it again once it changes/);
    expect(one).not.toContain('damaged');
    expect(one).toContain('`steward backfill` tries it again now, without waiting for it to change.\n');
  });

  it('says files met known and unchanged are still unreadable, by what to do as well', () => {
    const archive = { provider: 'codex' as const, path: '/home/a/.codex/sessions/x.jsonl.zst', code: 'read_failed', failedAt: 1, size: 10, mtimeMs: 1 };
    expect(formatUnreadable([archive], 1, undefined, 1)).toMatch(/^1 transcript file is still unreadable, unchanged since it failed:\nIt may be damaged\. /);
    expect(formatUnreadable([archive, { ...archive, path: '/b' }], 2, undefined, 1)).toMatch(/^2 transcript files could not be read \(1 of them still unreadable, unchanged since it failed\):\nThey may be damaged\. /);
  });

  it('says a remembered list is the last check\'s, and when the next check looks again', () => {
    const file = { provider: 'codex' as const, path: '/home/a/.codex/sessions/x.jsonl', code: 'read_failed', failedAt: 1, size: 10, mtimeMs: 1 };
    const checkedAt = Date.UTC(2026, 11, 3, 9, 41);
    const nextCheckAt = Date.UTC(2026, 11, 3, 9, 46);
    const text = formatUnreadable([file], 1, { checkedAt, nextCheckAt });
    expect(text).toMatch(new RegExp(`^At the last check \\(${localTime(checkedAt)}\\), 1 transcript file could not be read:\n`));
    expect(text).toContain(`A file replaced or moved since then is still listed until the next check (${localTime(nextCheckAt)}) looks at it again; \`steward sweep\` checks now.\n`);
    expect(formatUnreadable([file], 1, { checkedAt, nextCheckAt: null })).toContain('still listed until the next check looks at it again');
    // A run's own list is what it found now: no label.
    expect(formatUnreadable([file])).toMatch(/^1 transcript file could not be read:\n/);
    expect(formatUnreadable([file])).not.toContain('last check');
    // Files listed past the list's end are counted, after the groups.
    expect(formatUnreadable([file], 4)).toContain(`(Codex CLI: its contents could not be read, read_failed)\n  … and 3 more files\n`);
  });

  it('says a repeated line in words that fit any count', () => {
    const text = formatSweepResult({ providers: [{ provider: 'claude', ...base, discovered: 1, read: 1, skipped: { duplicate: 1 } }] });
    expect(text).toContain('1 line held nothing to import (1 repeating what was already imported)');
    expect(SKIP_WORDS.duplicate).not.toMatch(/messages|lines/);
  });

  it('has words for every reason a line is skipped, and for nothing else', () => {
    expect(Object.keys(SKIP_WORDS).sort()).toEqual([...SKIP_REASONS].sort());
  });

  it('says what a run wrote though it read no file (rows an older version left in the spool)', () => {
    const text = formatSweepResult({ providers: [{ provider: 'claude', ...base, discovered: 2, unchanged: 2, partsWritten: 4, messagesWritten: 2 }] });
    expect(text).toBe('claude: 2 transcript files, already up to date; 2 new messages (3 ms)\n');
  });

  it('says how far a cancelled run got, and that files older than the window were not read', () => {
    const text = formatSweepResult({
      providers: [
        { provider: 'claude', ...base, discovered: 60, read: 28, unchanged: 1, outsideWindow: 1, partsWritten: 9, messagesWritten: 5, cancelled: true, notReached: 30 },
        { provider: 'openclaw', ...base, cancelled: true, notReached: 0 },
        { provider: 'codex', ...base, discovered: 3, unchanged: 1, outsideWindow: 2 },
      ],
    });
    expect(text).toBe(
      [
        'claude: cancelled after 30 of 60 transcript files, 28 read, 1 already up to date, 1 older than the retention window, not read; 5 new messages (3 ms)',
        'openclaw: cancelled before any transcript file was listed (3 ms)',
        'codex: 3 transcript files, 1 already up to date, 2 older than the retention window, not read (3 ms)',
        "The retention window is set in Settings → Importing conversations, or query.cache.retention.default_days in config.json; one agent's own is providers.<id>.backfill.window_days; `steward backfill --all` imports everything.",
        '',
      ].join('\n'),
    );
  });

  it('says why a file could not be read in words, a code without words as an error with that code', () => {
    expect(unreadableWhy('read_failed')).toBe('its contents could not be read');
    expect(unreadableWhy('SQLITE_NOTADB')).toBe('not a database');
    expect(unreadableWhy('SQLITE_CORRUPT_INDEX')).toBe('a damaged database');
    expect(unreadableWhy('EWHATEVER')).toBe('error EWHATEVER');
  });
});
