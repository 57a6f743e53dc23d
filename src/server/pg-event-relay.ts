import { randomUUID } from 'node:crypto';

import type pg from 'pg';
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

const backoff = (attempt: number) => Math.min(2_000, 50 * 2 ** attempt);

/**
 * Feeds the event stream across processes on one PostgreSQL database: every event this process
 * emits goes to its own hub and, through NOTIFY on a channel named after the schema, to the other
 * processes, whose LISTEN connection hands it to their hubs. An event from this process is not
 * delivered twice (its origin id is skipped). When the LISTEN connection is lost (the server
 * restarted) it is opened again with backoff; events NOTIFYed meanwhile are not seen here (NOTIFY
 * keeps nothing for absent listeners): streams are live views, the store stays the record.
 */
export async function startPgEventRelay(handle: PostgresHandle, local: EventSink, logger: Logger): Promise<EventRelay> {
  const origin = randomUUID();
  const channel = `engram_events_${handle.schema}`;
  let stopped = false;
  let sending: Promise<void> = Promise.resolve();
  let listener: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
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
  };

  // The LISTEN client's connection died: drop the client (the 'error' listener stays, so a second
  // event from it cannot crash the process) and listen again on a new one.
  const lost = (client: pg.PoolClient, error: unknown) => {
    if (listener !== client) return;
    listener = undefined;
    client.release(error instanceof Error ? error : new Error(String(error)));
    if (stopped) return;
    logger.warn('event relay lost its LISTEN connection; reconnecting', { code: 'STORE_BUSY', error: error instanceof Error ? error.message : String(error) });
    schedule(0);
  };

  const listen = async (): Promise<void> => {
    await handle.ready;
    const client = await handle.pool.connect();
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('LISTEN connection ended')));
    client.on('notification', onNotification);
    listener = client;
    try {
      await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      lost(client, error);
      throw error;
    }
  };

  const schedule = (attempt: number) => {
    if (stopped) return;
    retry = setTimeout(() => {
      listen().then(
        () => logger.info('event relay listening again', { channel }),
        (error: unknown) => {
          logger.debug('event relay could not listen yet', { attempt, error: error instanceof Error ? error.message : String(error) });
          // lost() has scheduled the next attempt when the connection was opened; otherwise do it here.
          if (listener === undefined && retry === undefined) schedule(attempt + 1);
        },
      );
      retry = undefined;
    }, backoff(attempt));
    retry.unref();
  };

  await listen();
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
      if (retry) clearTimeout(retry);
      await sending;
      const client = listener;
      listener = undefined;
      if (!client) return;
      await client.query(`UNLISTEN "${channel}"`).catch((error: unknown) => logger.debug('UNLISTEN failed', { error: String(error) }));
      client.release();
    },
  };
}
