import { streamSSE } from 'hono/streaming';
import type { EngramEvent } from '../../events.js';
import { externalUserId } from '../auth.js';
import type { EventHub } from '../event-hub.js';
import { newRouter } from '../route-kit.js';
import { present } from '../wire.js';
import type { KeyStore } from '../keys/key-store.js';

/**
 * GET /v1/events: server-sent events of the caller's tenant (memory.changed, extraction.done,
 * todo.due); a key bound to one user sees only that user's. A comment line every 15 s keeps proxies open.
 */
export function eventRoutes(hub: EventHub | undefined, options: { heartbeatMs?: number; keys?: KeyStore } = {}) {
  const router = newRouter();
  router.get('/v1/events', (c) => {
    const auth = c.var.auth;
    // A key revoked while its stream is open: the stream ends at the next event or heartbeat.
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const revoked = async (): Promise<boolean> => {
      if (!options.keys || auth.keyId === null || secret === undefined) return false;
      const key = await options.keys.find(secret);
      return !key || Boolean(key.revokedAt);
    };
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
          // Once per wake, before what came meanwhile is sent.
          if (await revoked()) {
            await stream.writeSSE({ event: 'error', data: JSON.stringify({ code: 'UNAUTHORIZED', message: 'This API key was revoked' }) });
            break;
          }
          for (let event = queue.shift(); event && !closed; event = queue.shift()) {
            await stream.writeSSE({ event: event.type, data: JSON.stringify(present(auth, event)) });
          }
          if (closed) break;
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
