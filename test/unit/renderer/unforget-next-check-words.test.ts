import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';
import { Unforget, type Lift } from '../../../renderer/src/places/projects/Unforget.js';

const ID = '00000000-dead-beef-0000-000000000000';
const textOf = (html: string) => html.replace(/<\/?(code|time|span|a)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();
const liftedAs = (data: Result<'Forget.Lift'>): Lift => ({ data, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined });
const said = (data: Result<'Forget.Lift'>, kind: 'session' | 'project' = 'session') => textOf(renderToStaticMarkup(createElement(Unforget, { kind, id: ID, lift: liftedAs(data) })));

describe('what Unforget says of when it comes back', () => {
  it('the next check, when every file that held it is inside the regular checks’ window', () => {
    expect(said({ lifted: true, nextCheck: 'all' })).toBe("This conversation is no longer forgotten. Steward's next check brings it back (any message older than the regular checks reach comes with Import earlier history).");
    expect(said({ lifted: true, nextCheck: 'all' }, 'project')).toContain("Steward's next check brings its conversations back (any message older than the regular checks reach comes with Import earlier history).");
    expect(formatUnforget({ lifted: true, nextCheck: 'all' }, { kind: 'session', id: ID }, 'conversation id')).toBe("Lifted: Steward's next check imports that conversation again (any message older than the regular checks reach: `steward backfill --all`).\n");
  });

  it('the next check for what it reaches, and Import earlier history for the older rest', () => {
    const text = said({ lifted: true, nextCheck: 'part' });
    expect(text).toContain("Steward's next check brings back what the regular checks reach; Import earlier history on Projects, reaching back to when it was written, brings back the rest.");
    expect(formatUnforget({ lifted: true, nextCheck: 'part' }, { kind: 'project', id: 'p_1' }, 'project key')).toBe(
      "Lifted: Steward's next check imports what of that project the regular checks reach; `steward backfill --all` imports the rest, which is older.\n",
    );
  });

  it('only Import earlier history when no file is known inside the window', () => {
    const text = said({ lifted: true });
    expect(text).not.toMatch(/next check/);
    expect(text).toContain('Import earlier history on Projects, reaching back to when it was written, brings it back.');
    expect(formatUnforget({ lifted: true }, { kind: 'session', id: ID }, 'conversation id')).not.toMatch(/next check/);
  });
});
