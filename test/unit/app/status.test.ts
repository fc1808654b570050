import { describe, expect, it } from 'vitest';
import { AppStatus, PAUSED_TEXT, statusLines, type StatusItem } from '../../../core/api/index.js';
import { StatusReporter } from '../../../core/app/reports.js';
import { AppState, boundText, composeStatus } from '../../../core/app/status.js';

const item = (kind: StatusItem['kind'], text: string, subject: string | null = null): StatusItem => ({ kind, subject, text, place: null });
const importing = item('import', 'Importing new transcripts');
const curating = item('curate', 'Curating notes for orchard', 'p_1');
const conflict = item('conflict', 'A cache conflict over github.com/acme/widgets needs your choice', 'ic_1');
const paused = item('curator-paused', 'The Anthropic curator is paused: credit balance too low', 'anthropic');
const failed = item('import-failed', 'Importing Claude transcripts failed', 'claude');

describe('the status model', () => {
  it('ranks the headline: a decision only the person makes, then error, then what needs the person, then work in hand, then the pause, then up to date', () => {
    expect(composeStatus(false, [])).toMatchObject({ state: 'idle', message: 'Up to date', details: [] });
    expect(composeStatus(true, [])).toMatchObject({ state: 'paused', message: PAUSED_TEXT, details: [] });
    expect(composeStatus(true, [importing])).toMatchObject({ state: 'working', message: importing.text, details: [PAUSED_TEXT] });
    expect(composeStatus(true, [importing, conflict])).toMatchObject({ state: 'attention', message: conflict.text, details: [importing.text, PAUSED_TEXT] });
    expect(composeStatus(false, [importing, conflict, failed])).toMatchObject({ state: 'attention', message: conflict.text, details: [failed.text, importing.text] });
    expect(composeStatus(false, [importing, paused, failed])).toMatchObject({ state: 'error', message: failed.text, details: [paused.text, importing.text] });
    expect(composeStatus(false, [paused, failed, conflict])).toMatchObject({ state: 'attention', message: '2 things need you', details: [conflict.text, failed.text, paused.text] });
  });

  it('names how many when several share the headline, and lists each once in the details', () => {
    expect(composeStatus(false, [conflict, paused])).toMatchObject({ state: 'attention', message: '2 things need you', details: [conflict.text, paused.text] });
    expect(composeStatus(false, [importing, curating])).toMatchObject({ state: 'working', message: `${importing.text} (and 1 more)`, details: [importing.text, curating.text] });
  });

  it('never says paused twice, whatever the headline', () => {
    for (const items of [[], [importing], [conflict], [failed], [failed, conflict, importing]]) {
      const lines = statusLines(composeStatus(true, items));
      expect(lines.filter((line) => /paused/i.test(line) && line !== paused.text)).toEqual([PAUSED_TEXT]);
    }
  });

  it('is valid against the contract in every combination', () => {
    for (const p of [false, true]) for (const items of [[], [importing, curating], [conflict, paused], [failed, conflict]]) expect(() => AppStatus.parse(composeStatus(p, items))).not.toThrow();
  });

  it('announces only real changes, and bounds long texts at a word', () => {
    const announced: AppStatus[] = [];
    const state = new AppState((status) => announced.push(status));
    state.put(importing);
    state.put(importing);
    state.drop('curate', 'p_1');
    expect(announced).toHaveLength(1);
    state.replace(['conflict'], [conflict]);
    state.replace(['conflict'], []);
    expect(announced.map((s) => s.state)).toEqual(['working', 'attention', 'working']);

    const long = boundText(`The curator failed: ${'word '.repeat(80)}`);
    expect(long.length).toBeLessThanOrEqual(240);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('takes a cancelled import for neither a failure nor a recovery', () => {
    const state = new AppState(() => undefined);
    const reporter = new StatusReporter(state, () => undefined);
    const run = { provider: 'claude', discovered: 3, read: 0, unchanged: 0, failed: 3, partsWritten: 0, durationMs: 1, failedLines: 0, errors: [{ code: 'EACCES', count: 3 }] };
    reporter.captureSettled([run]);
    expect(state.status.state).toBe('error');
    // Cancelled (a backfill cancelled, or the owner stopping): the failure it did not retry stays said.
    reporter.captureSettled([{ ...run, failed: 0, errors: [], cancelled: true, notReached: 3 }]);
    expect(state.status).toMatchObject({ state: 'error', message: '3 of 3 Claude transcript files could not be imported (EACCES)' });
    reporter.captureSettled([{ ...run, failed: 0, errors: [], read: 3 }]);
    expect(state.status.state).toBe('idle');
    reporter.captureSettled([{ provider: 'openclaw', discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0, cancelled: true, notReached: 0 }]);
    expect(state.status.state).toBe('idle');
  });
});
