import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventName, EventPayload, MethodName, Params, Result } from '../../core/api/index.js';
import type { StewardClient } from './client.js';
import { usePanel } from './store.js';

export function useClient(): StewardClient | undefined {
  return usePanel((state) => state.client);
}

export interface CallState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Calls a contract method when the view mounts (and when `params` change), and again on `reload()`
 * or whenever one of `refreshOn` events arrives. Older replies never overwrite newer ones.
 */
export function useCall<M extends MethodName>(method: M, params: Params<M>, options: { refreshOn?: readonly EventName[] } = {}): CallState<Result<M>> {
  const client = useClient();
  const [state, setState] = useState<{ data: Result<M> | undefined; error: Error | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const paramsKey = JSON.stringify(params);
  const latest = useRef(0);

  useEffect(() => {
    if (!client) return;
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    client.call(method, JSON.parse(paramsKey) as Params<M>).then(
      (data) => { if (request === latest.current) setState({ data, error: undefined, loading: false }); },
      (error: unknown) => {
        if (request === latest.current) setState((previous) => ({ data: previous.data, error: error instanceof Error ? error : new Error('The request failed.'), loading: false }));
      },
    );
  }, [client, method, paramsKey, generation]);

  const refreshKey = (options.refreshOn ?? []).join(',');
  useEffect(() => {
    if (!client || refreshKey === '') return;
    const offs = (refreshKey.split(',') as EventName[]).map((event) => client.on(event, reload));
    return () => offs.forEach((off) => off());
  }, [client, refreshKey, reload]);

  return { ...state, reload };
}

/** Subscribes to a contract event for as long as the view is mounted. */
export function useEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): void {
  const client = useClient();
  const current = useRef(listener);
  useEffect(() => {
    current.current = listener;
  });
  useEffect(() => {
    if (!client) return;
    return client.on(event, (payload) => current.current(payload));
  }, [client, event]);
}
