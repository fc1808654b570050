import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventPayload } from '../../../core/api/index.js';
import { useFolderSurvey } from '../../../renderer/src/places/home/survey.js';

// Review: Home's and Settings' folder badges walked every watched folder again after every check, in
// every open tab, though a check's own stats say how many files its walk found.
let reloads = 0;
let onTick: ((tick: EventPayload<'sweep.tick'>) => void) | undefined;
const SURVEYED = { providers: [{ provider: 'claude', files: 3 }, { provider: 'codex', files: 0 }], durationMs: 1 };

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useCall: () => ({ data: SURVEYED, error: undefined, loading: false, reload: () => (reloads += 1) }),
  useEvent: (_event: string, listener: (tick: EventPayload<'sweep.tick'>) => void) => (onTick = listener),
}));

const tick = (claude: number, codex: number) =>
  ({ kind: 'scheduled', at: 1, providers: [{ provider: 'claude', discovered: claude }, { provider: 'codex', discovered: codex }] }) as unknown as EventPayload<'sweep.tick'>;

beforeEach(() => {
  reloads = 0;
  const Probe = () => (useFolderSurvey(), null);
  renderToStaticMarkup(createElement(Probe));
});

describe("the folders' survey after a check", () => {
  it('is not asked again when the check found the files it counted', () => {
    onTick!(tick(3, 0));
    expect(reloads).toBe(0);
  });

  it('is asked again when a check found other files', () => {
    onTick!(tick(3, 1));
    expect(reloads).toBe(1);
  });
});
