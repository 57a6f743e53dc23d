import { streamSSE } from 'hono/streaming';
import type { EngramEvent } from '../../events.js';
import { externalUserId } from '../auth.js';
import type { EventHub } from '../event-hub.js';
import { newRouter } from '../route-kit.js';
import { present } from '../wire.js';

/**
 * GET /v1/events: server-sent events of the caller's tenant (memory.changed, extraction.done,
 * todo.due); a key bound to one user sees only that user's. A comment line every 15 s keeps proxies open.
 */
export function eventRoutes(hub: EventHub | undefined, options: { heartbeatMs?: number } = {}) {
  const router = newRouter();
  router.get('/v1/events', (c) => {
    const auth = c.var.auth;
    return streamSSE(c, async (stream) => {
      const queue: EngramEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = hub?.subscribe((event) => {
        const ext = externalUserId(auth, event.userId);
        if (ext === null || (auth.boundUserId !== undefined && auth.boundUserId !== ext)) return;
        queue.push(event);
        wake?.();
      });
      let closed = false;
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ tenantId: auth.tenantId }) });
      try {
        while (!closed) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE({ event: event.type, data: JSON.stringify(present(auth, event)) });
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            const t = setTimeout(resolve, options.heartbeatMs ?? 15_000);
            t.unref?.();
          });
          wake = undefined;
          if (!closed && queue.length === 0) await stream.write(': keep-alive\n\n');
        }
      } finally {
        unsubscribe?.();
      }
    });
  });
  return router;
}
