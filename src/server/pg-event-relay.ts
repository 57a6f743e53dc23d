import { randomUUID } from 'node:crypto';

import { z } from 'zod';
import type { Logger } from '../deps.js';
import type { EngramEvent, EventSink } from '../events.js';
import type { PostgresHandle } from '../store/postgres/postgres-store.js';

/** NOTIFY payloads must stay under 8000 bytes; larger events reach only this process's streams. */
const MAX_PAYLOAD = 7900;
const DATE_FIELDS = ['at', 'dueAt', 'remindAt'] as const;

const Envelope = z.object({ origin: z.string(), event: z.record(z.string(), z.unknown()).and(z.object({ type: z.string(), userId: z.string() })) });

export interface EventRelay extends EventSink {
  stop(): Promise<void>;
}

/**
 * Feeds the event stream across processes on one PostgreSQL database: every event this process
 * emits goes to its own hub and, through NOTIFY on a channel named after the schema, to the other
 * processes, whose LISTEN connection hands it to their hubs. An event from this process is not
 * delivered twice (its origin id is skipped).
 */
export async function startPgEventRelay(handle: PostgresHandle, local: EventSink, logger: Logger): Promise<EventRelay> {
  const origin = randomUUID();
  const channel = `engram_events_${handle.schema}`;
  await handle.ready;
  const listener = await handle.pool.connect();
  let stopped = false;
  let sending: Promise<void> = Promise.resolve();
  listener.on('notification', (message) => {
    if (message.channel !== channel || message.payload === undefined) return;
    const parsed = Envelope.safeParse(JSON.parse(message.payload));
    if (!parsed.success) {
      logger.warn('ignored a malformed event from another process', { code: 'INVALID_INPUT', error: parsed.error.message });
      return;
    }
    if (parsed.data.origin === origin) return;
    const event: Record<string, unknown> = { ...parsed.data.event };
    for (const f of DATE_FIELDS) if (typeof event[f] === 'string') event[f] = new Date(event[f] as string);
    local.emit(event as EngramEvent);
  });
  await listener.query(`LISTEN "${channel}"`);
  return {
    emit(event) {
      local.emit(event);
      if (stopped) return;
      const payload = JSON.stringify({ origin, event });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
        logger.debug('event too large for NOTIFY; only this process streams it', { type: event.type });
        return;
      }
      // One NOTIFY after the other, so other processes see this process's events in order. The
      // sink must not throw or block the write path: a failed NOTIFY is logged.
      sending = sending
        .then(() => handle.pool.query('SELECT pg_notify($1, $2)', [channel, payload]))
        .then(
          () => undefined,
          (error: unknown) => logger.warn('could not relay an event to other processes', { code: 'STORE_BUSY', error: error instanceof Error ? error.message : String(error) }),
        );
    },
    async stop() {
      stopped = true;
      await sending;
      await listener.query(`UNLISTEN "${channel}"`).catch((error: unknown) => logger.debug('UNLISTEN failed', { error: String(error) }));
      listener.release();
    },
  };
}

