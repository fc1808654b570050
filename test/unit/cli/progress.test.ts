import { describe, expect, it, vi } from 'vitest';
import { processIo } from '../../../core/cli/output.js';
import type { AppStatus, StatusItem } from '../../../core/api/index.js';
import { ProgressLine, progressText, withProgress } from '../../../core/cli/progress.js';
import type { StewardClient } from '../../../core/api/index.js';

const item = (kind: StatusItem['kind'], text: string, subject: string | null = null): StatusItem => ({ kind, subject, text, place: null });
const status = (working: StatusItem[]): AppStatus => ({ state: 'working', message: '', paused: false, working, attention: [], errors: [], details: [] });

describe('the CLI progress line', () => {
  it('says the working item of the kind (and subject) the verb waits for', () => {
    const s = status([item('curate', 'Curating notes for orchard', 'p_1'), item('import', 'Importing Claude Code transcripts — 942 of 4,402 files'), item('forget', 'Forgetting billing-api: 1 of 2 conversations and subagents deleted', 'p_2')]);
    expect(progressText(s, 'import')).toBe('Importing Claude Code transcripts — 942 of 4,402 files');
    expect(progressText(s, 'forget', 'p_2')).toBe('Forgetting billing-api: 1 of 2 conversations and subagents deleted');
    expect(progressText(s, 'forget', 'p_9')).toBeUndefined();
    expect(progressText(status([]), 'import')).toBeUndefined();
  });

  it('rewrites one line on a terminal, cut to its width, and clears it at the end', () => {
    const written: string[] = [];
    const line = new ProgressLine((text) => written.push(text), { tty: true, columns: 20 });
    line.show('Importing Claude Code transcripts — 942 of 4,402 files');
    line.show('Importing Claude Code transcripts — 942 of 4,402 files');
    line.show(undefined);
    line.clear();
    line.clear();
    expect(written).toEqual(['\r\x1b[KImporting Claude C…', '\r\x1b[K']);
  });

  it('writes nothing when stderr is not a terminal', () => {
    const written: string[] = [];
    const line = new ProgressLine((text) => written.push(text), { tty: false, columns: 80 });
    line.show('Forgetting billing-api: 1 of 2 conversations and subagents deleted');
    line.clear();
    expect(written).toEqual([]);
  });

  it('off a terminal, waits for the work without asking the status or writing a byte', async () => {
    const written: string[] = [];
    const asked: string[] = [];
    const client = { call: async (method: string) => void asked.push(method), on: () => () => undefined } as unknown as StewardClient;
    const io = { stdout: (t: string) => written.push(t), stderr: (t: string) => written.push(t), env: {} };
    await expect(withProgress(io, client, 'forget', 'p_2', Promise.resolve(7))).resolves.toBe(7);
    expect({ written, asked }).toEqual({ written: [], asked: [] });
  });

  it('on a terminal, rewrites the line while the work runs and clears it when the answer comes, without holding it back', async () => {
    const before = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      let n = 0;
      const client = { call: async () => ({ status: status([item('forget', `Forgetting billing-api: ${++n} of 9 conversations and subagents deleted`, 'p_2')]) }) } as unknown as StewardClient;
      const started = performance.now();
      await expect(withProgress(processIo, client, 'forget', 'p_2', new Promise((resolve) => setTimeout(() => resolve(7), 700)))).resolves.toBe(7);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(write.mock.calls.map(([text]) => text)).toEqual([
        '\r\x1b[KForgetting billing-api: 1 of 9 conversations and subagents deleted',
        '\r\x1b[KForgetting billing-api: 2 of 9 conversations and subagents deleted',
        '\r\x1b[K',
      ]);
    } finally {
      if (before) Object.defineProperty(process.stderr, 'isTTY', before);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
      write.mockRestore();
    }
  });
});
