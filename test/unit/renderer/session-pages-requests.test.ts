import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Params } from '../../../core/api/index.js';
import { useSessionPages, type SessionPages } from '../../../renderer/src/places/sessions/pages.js';

/** Every Sessions.Get the viewer asks for, loaded at once (useCall) or run (useAction). */
const asked: Array<Params<'Sessions.Get'>> = [];
const PAGE = { session: {}, messages: [], subagents: [], cursor: 'next-page' };

vi.mock('../../../renderer/src/hooks.js', () => ({
  useCall: (_method: string, params: Params<'Sessions.Get'>, options: { skip?: boolean } = {}) => {
    if (options.skip !== true) asked.push(params);
    return { data: PAGE, error: undefined, loading: false, reload: () => undefined };
  },
  useAction: () => ({
    run: (params: Params<'Sessions.Get'>) => {
      asked.push(params);
      return Promise.resolve(PAGE);
    },
    busy: false,
    error: undefined,
    data: undefined,
    reset: () => undefined,
  }),
}));

function opened(redact: boolean): SessionPages {
  let pages: SessionPages | undefined;
  const Probe = () => {
    pages = useSessionPages('s1', undefined, redact);
    return null;
  };
  renderToStaticMarkup(createElement(Probe));
  return pages!;
}

beforeEach(() => {
  asked.length = 0;
});

describe('a conversation read with its secrets shown', () => {
  it('is one request per page, which says where its secrets are', async () => {
    const pages = opened(false);
    expect(asked).toEqual([{ sessionId: 's1', markSecrets: true }]);
    await pages.more('cursor');
    expect(asked).toEqual([
      { sessionId: 's1', markSecrets: true },
      { sessionId: 's1', cursor: 'next-page', markSecrets: true },
    ]);
  });

  it('read redacted, one request per page too', async () => {
    const pages = opened(true);
    await pages.more('cursor');
    expect(asked).toEqual([
      { sessionId: 's1', redact: true },
      { sessionId: 's1', cursor: 'next-page', redact: true },
    ]);
  });
});
