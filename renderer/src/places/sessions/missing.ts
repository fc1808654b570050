import { useEffect, useRef, useState } from 'react';
import type { EventPayload, Result, StewardClient } from '../../../../core/api/index.js';
import { useClient } from '../../hooks.js';

/** What Sessions.Get answers a part the conversation does not hold (its details' `missing: 'part'`), and which subagent holds that part. */
export function missedOf(error: Error): { missing: unknown; heldBy: string | undefined } {
  const details = (error as { data?: { details?: Record<string, unknown> } }).data?.details;
  return { missing: details?.missing, heldBy: typeof details?.heldBy === 'string' ? details.heldBy : undefined };
}

const missesPart = (error: Error | undefined): error is Error => error !== undefined && missedOf(error).missing === 'part';

/** The first page's call as useCall holds it: a reload keeps what it had until the answer comes. */
interface FirstCall<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
}

/**
 * The part-miss the first page's call settled on, with the address (`sessionId`, `partId`, reading)
 * it answered; undefined until one settles. A reload (a check, an import) keeps the call's error
 * while it asks again, so the one the address had can be told from the address before's.
 */
export function useSettledMiss(first: FirstCall<unknown>, address: string): { error: Error; address: string } | undefined {
  const [settled, setSettled] = useState<{ error: Error; address: string }>();
  // Set while drawing, the answer that came: an effect would draw the page once more without it first.
  if (missesPart(first.error) && !first.loading && settled?.error !== first.error) {
    const now = { error: first.error, address };
    setSettled(now);
    return now;
  }
  return settled;
}

/**
 * What the first page's call shows at `address`. A part the conversation does not hold is the
 * address's answer, and a settled one: asked again (a check, an import), it stays said until another
 * answer comes, never the page the call kept from an address before, nor "loading". While another
 * address loads, that miss was the one before's: nothing is said of it, and its page is not shown either.
 */
export function firstAnswer<T>(first: FirstCall<T>, settled: { error: Error; address: string } | undefined, address: string): { page: T | undefined; error: Error | undefined } {
  if (!missesPart(first.error)) return { page: first.data, error: first.error };
  const ours = settled?.error === first.error && settled.address === address;
  return { page: undefined, error: ours ? first.error : undefined };
}

/** What tells a conversation changed without reading it: its message count and its last activity. */
export function markOf(end: Pick<Result<'Sessions.Get'>, 'session'>): string {
  return `${end.session.messages}:${end.session.lastAt ?? ''}`;
}

type Tick = Pick<EventPayload<'sweep.tick'>, 'providers'>;

/**
 * The watch on a conversation whose address names a message it does not hold. The miss is settled:
 * a check or import that wrote nothing asks nothing; one that wrote anything looks at the conversation's
 * end (one message: `look`), and only when its count or last activity moved since the miss (`settle`
 * looks once) is the address asked for again (`reload`), which may now hold the message.
 */
export function missWatch(look: () => Promise<string | undefined>, reload: () => void): { settle: () => Promise<void>; onTick: (tick: Tick) => Promise<void> } {
  let seen: string | undefined;
  return {
    settle: async () => {
      seen = await look();
    },
    onTick: async (tick) => {
      if (!tick.providers.some((p) => p.partsWritten > 0)) return;
      const mark = await look();
      // A look that failed says nothing: the next check looks again.
      if (mark === undefined || mark === seen) return;
      seen = mark;
      reload();
    },
  };
}

/** The conversation's end, as its mark; undefined when it could not be asked. */
async function lookAt(client: StewardClient | undefined, sessionId: string): Promise<string | undefined> {
  if (!client) return undefined;
  try {
    return markOf(await client.call('Sessions.Get', { sessionId, at: 'end', limit: 1, redact: true }));
  } catch {
    return undefined;
  }
}

/**
 * missWatch for the viewer, while `watching` (the address's message is missing): looked at when the miss
 * settles; the viewer hands it every settled check (`sweep.tick`) it does not ask for again itself.
 */
export function useMissWatch(sessionId: string, watching: boolean, reload: () => void): (tick: Tick) => void {
  const client = useClient();
  const watch = useRef<ReturnType<typeof missWatch>>(undefined);
  const reloadNow = useRef(reload);
  useEffect(() => {
    reloadNow.current = reload;
  });
  useEffect(() => {
    if (!watching) return;
    const current = missWatch(
      () => lookAt(client, sessionId),
      () => reloadNow.current(),
    );
    watch.current = current;
    void current.settle();
    return () => {
      if (watch.current === current) watch.current = undefined;
    };
  }, [client, sessionId, watching]);
  return (tick) => void watch.current?.onTick(tick);
}
