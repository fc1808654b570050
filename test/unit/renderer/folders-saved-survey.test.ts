import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { MethodName } from '../../../core/api/index.js';
import type * as Saving from '../../../renderer/src/places/settings/saving.js';
import type { ConfigView } from '../../../renderer/src/places/settings/saving.js';
import { TranscriptFolders } from '../../../renderer/src/places/settings/TranscriptFolders.js';

/** What was asked for again (useCall's reload), and what the page does once a save is done (useSave's). */
const reloaded: MethodName[] = [];
let afterSave: (() => void) | undefined;

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useCall: (method: MethodName) => ({ data: undefined, error: undefined, loading: true, reload: () => reloaded.push(method) }),
  useAction: () => ({ run: () => Promise.resolve(undefined), busy: false, error: undefined, data: undefined, reset: () => undefined }),
}));

vi.mock('../../../renderer/src/places/settings/saving.js', async (importOriginal) => {
  const saving = await importOriginal<typeof Saving>();
  return {
    ...saving,
    useSave: (onSaved: () => void) => {
      afterSave = onSaved;
      return saving.useSave(onSaved);
    },
  };
});

const CONFIG = { saved: { providers: {} }, environment: [] } as unknown as ConfigView;

/** Review: a newly set folder's badge counted the transcripts of the folders watched before the save. */
describe('the folders once a save is done', () => {
  it('asks the survey again with the folders, so each badge counts the folders watched now', () => {
    renderToStaticMarkup(createElement(TranscriptFolders, { config: CONFIG, onSaved: () => undefined }));
    afterSave?.();
    expect(reloaded).toContain('Providers.Roots');
    expect(reloaded).toContain('Providers.Survey');
  });
});
