import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventName, EventPayload, MethodName, Params, Result } from '../../core/api/index.js';
import type { StewardClient } from './client.js';
import { usePanel } from './store.js';
import { toRpcError, type StewardRpcError } from './transport.js';

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
 * or whenever one of `refreshOn` events arrives. Older replies never overwrite newer ones. `skip`: not
 * called (yet): a view whose hooks cannot be conditional asks only when it has something to ask.
 */
export function useCall<M extends MethodName>(method: M, params: Params<M>, options: { refreshOn?: readonly EventName[]; skip?: boolean } = {}): CallState<Result<M>> {
  const client = useClient();
  const [state, setState] = useState<{ data: Result<M> | undefined; error: Error | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const paramsKey = JSON.stringify(params);
  const latest = useRef(0);

  const skip = options.skip === true;
  useEffect(() => {
    if (!client || skip) return;
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    client.call(method, JSON.parse(paramsKey) as Params<M>).then(
      (data) => { if (request === latest.current) setState({ data, error: undefined, loading: false }); },
      (error: unknown) => {
        if (request === latest.current) setState((previous) => ({ data: previous.data, error: error instanceof Error ? error : new Error('The request failed.'), loading: false }));
      },
    );
  }, [client, method, paramsKey, generation, skip]);

  const refreshKey = (options.refreshOn ?? []).join(',');
  useEffect(() => {
    if (!client || refreshKey === '') return;
    const offs = (refreshKey.split(',') as EventName[]).map((event) => client.on(event, reload));
    return () => offs.forEach((off) => off());
  }, [client, refreshKey, reload]);

  return { ...state, reload };
}

export interface ActionState<M extends MethodName> {
  /** Calls the method; resolves with its result, or undefined when it failed (the error is in `error`). */
  run: (params: Params<M>) => Promise<Result<M> | undefined>;
  busy: boolean;
  error: StewardRpcError | undefined;
  /** The last successful result. */
  data: Result<M> | undefined;
  reset: () => void;
}

/**
 * A contract method a person triggers (Save, Sweep now, Import): whether it is running, its last
 * result and its last error, typed, in one place instead of three useStates per button.
 */
export function useAction<M extends MethodName>(method: M): ActionState<M> {
  const client = useClient();
  const [state, setState] = useState<{ busy: boolean; error: StewardRpcError | undefined; data: Result<M> | undefined }>({ busy: false, error: undefined, data: undefined });
  const run = useCallback(
    async (params: Params<M>): Promise<Result<M> | undefined> => {
      if (!client) return undefined;
      setState((previous) => ({ ...previous, busy: true, error: undefined }));
      try {
        const data = await client.call(method, params);
        setState({ busy: false, error: undefined, data });
        return data;
      } catch (error) {
        setState({ busy: false, error: toRpcError(error), data: undefined });
        return undefined;
      }
    },
    [client, method],
  );
  const reset = useCallback(() => setState({ busy: false, error: undefined, data: undefined }), []);
  return { ...state, run, reset };
}

/** The problems `Settings.Update` (and every config write) names per dotted key, from a refusal's details. */
export function fieldErrors(error: StewardRpcError | undefined): Record<string, { message: string; minimum?: number; maximum?: number }> {
  const fields = error?.data.details?.fields;
  return fields !== null && typeof fields === 'object' ? (fields as Record<string, { message: string; minimum?: number; maximum?: number }>) : {};
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

/**
 * Calls `reload` every `everyMs` for as long as `active` holds: for a live status that no event marks
 * every change of (a wipe waiting for the disk, or one that stopped on an error).
 */
export function useReloadWhile(active: boolean, reload: () => void, everyMs = 1000): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, [active, reload, everyMs]);
}

/**
 * Lands on the section the address names (`?section=…`, see placeHref) once `ready` (the place has
 * drawn it): scrolled to its top and its heading focused, so a link to where a thing is done arrives
 * there rather than at the top of the place. Returns the section named, if any.
 */
export function useSectionLanding(ready: boolean): string | undefined {
  const section = usePanel((state) => ('params' in state.route ? state.route.params.section : undefined));
  useEffect(() => {
    if (ready && section !== undefined) landOnSection(section);
  }, [ready, section]);
  return section;
}

/** Lands on the section with id `id`: scrolled to its top, its heading focused (a link to it followed again, too). */
export function landOnSection(id: string): void {
  const target = document.getElementById(id);
  target?.scrollIntoView({ block: 'start' });
  target?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
}

/**
 * Names the view in the window title while it is shown (a conversation's name, a project's, a search's
 * words: see viewName); undefined leaves the place's own name. Said no more once the view goes.
 */
export function useViewTitle(title: string | undefined): void {
  useEffect(() => {
    usePanel.setState({ viewTitle: title });
    return () => usePanel.setState({ viewTitle: undefined });
  }, [title]);
}

/** Whether the component is still mounted: an answer that comes after it is gone must not write to the address or its state. */
export function useMounted(): { readonly current: boolean } {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
