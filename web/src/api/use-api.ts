import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Client } from './client';

export interface Session {
  client: Client;
  userId: string;
  /** Bumped when the event stream says data changed, so open screens reload. */
  liveVersion: number;
  /** Reloads the header's list of users (after one was forgotten). */
  reloadUsers: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionContext');
  return s;
}

/** The user's path prefix, `/v1/users/{userId}`. */
export const userPath = (userId: string, rest = ''): string => `/v1/users/${encodeURIComponent(userId)}${rest}`;

export interface Async<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'CLIENT', error instanceof Error ? error.message : String(error));
}

/** Runs `load` when `deps` change (and on reload); a stale answer never overwrites a newer one. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Async<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => { if (mine === seq.current) setState({ data, loading: false }); },
      (error: unknown) => { if (mine === seq.current) setState({ error: toApiError(error), loading: false }); },
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
