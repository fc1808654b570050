import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EpochMs, LAST_MS, methods } from '../../../core/api/index.js';

// The largest millisecond date a request may carry is one rule (100,000 days after 1970),
// said once in the api room: the search and session contracts and the MCP tools' date reading all use it.

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('the epoch-ms bound of a request', () => {
  it('is 17 October 2243, and EpochMs takes 0 to it', () => {
    expect(LAST_MS).toBe(8_640_000_000_000);
    expect(new Date(LAST_MS).toISOString()).toBe('2243-10-17T00:00:00.000Z');
    expect(EpochMs.safeParse(0).success).toBe(true);
    expect(EpochMs.safeParse(LAST_MS).success).toBe(true);
    for (const refused of [-1, LAST_MS + 1, 1.5]) expect(EpochMs.safeParse(refused).success, String(refused)).toBe(false);
  });

  it('bounds Search.Query and Sessions.List from/to alike', () => {
    const cases = [
      ['Search.Query', { query: 'x' }],
      ['Sessions.List', {}],
    ] as const;
    for (const [method, base] of cases) {
      const params = methods[method].params;
      for (const end of ['from', 'to'] as const) {
        expect(params.safeParse({ ...base, [end]: LAST_MS }).success, `${method} ${end}`).toBe(true);
        expect(params.safeParse({ ...base, [end]: LAST_MS + 1 }).success, `${method} ${end}`).toBe(false);
      }
    }
  });

  it('is written once: no room spells the number again', () => {
    for (const file of ['core/api/search.ts', 'core/api/sessions.ts', 'core/mcp/history.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/8_?640_?000_?000_?000/);
    }
  });
});
