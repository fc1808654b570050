import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { CuratorPauses, PAUSES_FILE } from '../../../core/sweeper/pauses.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;
afterEach(() => home.cleanup());

describe('curator pauses on disk', () => {
  it('keeps a damaged record aside and holds every remote curator paused, never lifting a pause silently', () => {
    home = tempHome();
    writeFileSync(join(home.dir, PAUSES_FILE), '{"version": 1, "pauses": [{"curator": "anthropic", "reason": "spend_li');
    const logger = createMemoryLogger();
    const pauses = new CuratorPauses(home.dir, logger, Date.parse('2026-12-01T10:00:00Z'));
    expect(pauses.get('anthropic')).toMatchObject({ reason: 'record_damaged' });
    expect(pauses.get('openai-compatible')).toMatchObject({ reason: 'record_damaged' });
    expect(pauses.get('offline')).toBeUndefined();
    expect(pauses.get('anthropic')!.message).toMatch(/kept as sweeper-pauses\.json\.corrupt-2026-12-01T10-00-00-000Z/);
    expect(readdirSync(home.dir)).toContain('sweeper-pauses.json.corrupt-2026-12-01T10-00-00-000Z');
    expect(logger.lines.join('\n')).toMatch(/curator pauses damaged/);
    // The hold is itself recorded, so a restart keeps it until the person lifts it.
    const again = new CuratorPauses(home.dir);
    expect(again.get('anthropic')).toMatchObject({ reason: 'record_damaged' });
    again.lift('anthropic');
    expect(new CuratorPauses(home.dir).get('anthropic')).toBeUndefined();
  });

  it('reads no file as no pause', () => {
    home = tempHome();
    expect(new CuratorPauses(home.dir).all()).toEqual([]);
    expect(existsSync(join(home.dir, PAUSES_FILE))).toBe(false);
  });
});
