import { useEffect, useRef, useState } from 'preact/hooks';
import { createSseParser, type SseEvent } from './sse';

/**
 * Follows the server's event stream (`/v1/events`) with the key in the Authorization header
 * (EventSource cannot send one), reconnecting after a pause when it drops.
 */
export function useLiveEvents(key: string, onEvent: (e: SseEvent) => void): boolean {
  const [connected, setConnected] = useState(false);
  // The newest handler, so a re-render (a language switch) is seen without reconnecting.
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      try {
        const res = await fetch('/v1/events', { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), accept: 'text/event-stream' }, signal: abort.signal });
        if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
        setConnected(true);
        const feed = createSseParser((e) => handler.current(e));
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          feed(value);
        }
      } catch (error) {
        if (abort.signal.aborted) return;
        console.warn('live events', error);
      }
      setConnected(false);
      if (!abort.signal.aborted) timer = setTimeout(() => void connect(), 5000);
    };
    void connect();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [key]);
  return connected;
}
