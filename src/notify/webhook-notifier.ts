import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RecurrenceRule } from '../domain/recurrence.js';
import { systemClock, type Clock } from '../deps.js';
import { EngramError } from '../errors.js';
import { DELIVERY_FAILED, errorMessage, type Notifier, type Reminder } from './notifier.js';

export interface WebhookNotifierOptions {
  /** Where reminders are POSTed. */
  url: string;
  /** Shared secret for the X-Engram-Signature HMAC. */
  secret: string;
  /** @default 10000 */
  timeoutMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** For X-Engram-Timestamp. @default systemClock */
  clock?: Clock;
}

/** The JSON body a receiver gets. Dates are ISO 8601 strings. */
export interface WebhookPayload {
  type: 'engram.reminder';
  deliveryId: string;
  userId: string;
  /** Present when the server runs tenants: `userId` is then that tenant's own id of the user. */
  tenantId?: string;
  todoId: string;
  content: string;
  dueAt?: string;
  remindAt: string;
  /** A repeating todo's rule (its next reminder comes with the next occurrence). */
  repeat?: RecurrenceRule;
}

export const SIGNATURE_HEADER = 'X-Engram-Signature';
export const DELIVERY_HEADER = 'X-Engram-Delivery';
export const TIMESTAMP_HEADER = 'X-Engram-Timestamp';

/**
 * POSTs each reminder as JSON, signed: `X-Engram-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.
 * `X-Engram-Delivery` carries the deliveryId, the receiver's idempotency key (a retry repeats it);
 * `X-Engram-Timestamp` is the send time in Unix seconds. A non-2xx answer, a network error or no
 * answer within timeoutMs is an EngramError (DELIVERY_FAILED) with the status in `details`.
 */
export function webhookNotifier(options: WebhookNotifierOptions): Notifier {
  const { secret, timeoutMs = 10_000, clock = systemClock } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  let url: URL;
  try {
    url = new URL(options.url);
  } catch (cause) {
    throw new EngramError('CONFIG_INVALID', `Webhook url is not a valid URL: ${options.url}`, { cause });
  }
  if (!secret) throw new EngramError('CONFIG_INVALID', 'Webhook secret must not be empty');
  if (!(timeoutMs > 0)) throw new EngramError('CONFIG_INVALID', `Webhook timeoutMs must be positive, got ${timeoutMs}`);

  return {
    async notify(reminder) {
      const body = JSON.stringify(toPayload(reminder));
      const details = { deliveryId: reminder.deliveryId, url: url.origin + url.pathname };
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      try {
        const response = await doFetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            [SIGNATURE_HEADER]: sign(body, secret),
            [DELIVERY_HEADER]: reminder.deliveryId,
            [TIMESTAMP_HEADER]: String(Math.floor(clock.now().getTime() / 1000)),
          },
          body,
          signal: controller.signal,
        });
        const text = await response.text(); // drain, so the connection is released
        if (!response.ok) {
          throw new EngramError(DELIVERY_FAILED, `Webhook answered ${response.status} for reminder ${reminder.deliveryId}`, {
            details: { ...details, status: response.status, body: text.slice(0, 500) },
          });
        }
      } catch (cause) {
        if (EngramError.isInstance(cause)) throw cause;
        if (timedOut) {
          throw new EngramError(DELIVERY_FAILED, `Webhook did not answer within ${timeoutMs} ms for reminder ${reminder.deliveryId}`, {
            cause,
            details: { ...details, timeoutMs },
          });
        }
        throw new EngramError(DELIVERY_FAILED, `Webhook request failed for reminder ${reminder.deliveryId}: ${errorMessage(cause)}`, { cause, details });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * For receivers: checks `X-Engram-Signature` against the RAW request body (before any JSON parsing).
 * Constant-time; false for a missing or malformed header.
 */
export function verifyWebhookSignature(body: string | Uint8Array, header: string | null | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const expected = Buffer.from(sign(body, secret));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sign(body: string | Uint8Array, secret: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}

function toPayload(r: Reminder): WebhookPayload {
  const payload: WebhookPayload = { type: 'engram.reminder', deliveryId: r.deliveryId, userId: r.userId, todoId: r.todoId, content: r.content, remindAt: r.remindAt.toISOString() };
  if (r.dueAt) payload.dueAt = r.dueAt.toISOString();
  if (r.tenantId !== undefined) payload.tenantId = r.tenantId;
  if (r.repeat) payload.repeat = r.repeat;
  return payload;
}
