import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { fixedClock } from '../testing/clock.js';
import { DELIVERY_FAILED, callbackNotifier, type Reminder } from './notifier.js';
import { verifyWebhookSignature, webhookNotifier, type WebhookPayload } from './webhook-notifier.js';

const SECRET = 'test-secret';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A real receiver on loopback: records each request, answers `status`, or never answers. */
async function receiver(status: number | 'hang'): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      if (status === 'hang') return;
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : 'boom');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/engram?x=1`, received };
}

const zhReminder: Reminder = {
  deliveryId: 'dlv-1',
  userId: 'u1',
  todoId: 't1',
  content: '周五下午三点给妈妈打电话',
  dueAt: new Date('2026-01-09T07:00:00Z'),
  remindAt: new Date('2026-01-09T06:30:00Z'),
};
const enReminder: Reminder = { deliveryId: 'dlv-2', userId: 'u1', todoId: 't2', content: 'Submit the weekly report', remindAt: new Date('2026-01-05T01:00:00Z') };

describe('webhookNotifier', () => {
  it.each([
    ['Chinese', zhReminder],
    ['English', enReminder],
  ])('POSTs a signed JSON reminder (%s) that the receiver can verify', async (_lang, reminder) => {
    const { url, received } = await receiver(200);
    const clock = fixedClock('2026-01-09T06:30:00Z');
    await webhookNotifier({ url, secret: SECRET, clock }).notify(reminder);

    expect(received).toHaveLength(1);
    const [{ headers, raw }] = received as [Received];
    expect(verifyWebhookSignature(raw, headers['x-engram-signature'] as string, SECRET)).toBe(true);
    expect(verifyWebhookSignature(raw, headers['x-engram-signature'] as string, 'wrong-secret')).toBe(false);
    expect(verifyWebhookSignature(raw + ' ', headers['x-engram-signature'] as string, SECRET)).toBe(false);
    expect(headers['x-engram-delivery']).toBe(reminder.deliveryId);
    expect(headers['x-engram-timestamp']).toBe(String(Date.parse('2026-01-09T06:30:00Z') / 1000));
    expect(headers['content-type']).toMatch(/^application\/json/);

    const payload = JSON.parse(raw) as WebhookPayload;
    expect(payload).toEqual({
      type: 'engram.reminder',
      deliveryId: reminder.deliveryId,
      userId: reminder.userId,
      todoId: reminder.todoId,
      content: reminder.content,
      remindAt: reminder.remindAt.toISOString(),
      ...(reminder.dueAt ? { dueAt: reminder.dueAt.toISOString() } : {}),
    });
  });

  it('a 500 is a DELIVERY_FAILED error carrying the status', async () => {
    const { url } = await receiver(500);
    const error = await webhookNotifier({ url, secret: SECRET }).notify(zhReminder).catch((e: unknown) => e);
    expect(EngramError.hasCode(error, DELIVERY_FAILED)).toBe(true);
    expect((error as EngramError).details).toMatchObject({ status: 500, deliveryId: 'dlv-1', body: 'boom' });
    expect((error as EngramError).details?.['url']).not.toContain('x=1');
  });

  it('a receiver that never answers times out as DELIVERY_FAILED', async () => {
    const { url, received } = await receiver('hang');
    const error = await webhookNotifier({ url, secret: SECRET, timeoutMs: 100 }).notify(enReminder).catch((e: unknown) => e);
    expect(EngramError.hasCode(error, DELIVERY_FAILED)).toBe(true);
    expect((error as EngramError).details).toMatchObject({ timeoutMs: 100 });
    expect(received).toHaveLength(1);
  });

  it('a refused connection is DELIVERY_FAILED with the cause attached', async () => {
    const { url } = await receiver(200);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const error = await webhookNotifier({ url, secret: SECRET }).notify(enReminder).catch((e: unknown) => e);
    expect(EngramError.hasCode(error, DELIVERY_FAILED)).toBe(true);
    expect((error as EngramError).cause).toBeDefined();
  });

  it('rejects bad configuration up front', () => {
    expect(() => webhookNotifier({ url: 'not a url', secret: SECRET })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => webhookNotifier({ url: 'http://127.0.0.1/', secret: '' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('verifyWebhookSignature', () => {
  it('is false for a missing or malformed header, and accepts bytes', () => {
    expect(verifyWebhookSignature('{}', undefined, SECRET)).toBe(false);
    expect(verifyWebhookSignature('{}', 'sha256=zz', SECRET)).toBe(false);
    const body = Buffer.from('{"content":"给妈妈打电话"}', 'utf8');
    const header = 'sha256=' + createHmac('sha256', SECRET).update(body).digest('hex');
    expect(verifyWebhookSignature(body, header, SECRET)).toBe(true);
    expect(verifyWebhookSignature(body.toString('utf8'), header, SECRET)).toBe(true);
  });
});

describe('callbackNotifier', () => {
  it('hands the reminder to the function', async () => {
    const seen: Reminder[] = [];
    await callbackNotifier((r) => void seen.push(r)).notify(zhReminder);
    expect(seen).toEqual([zhReminder]);
  });

  it('turns a thrown error into DELIVERY_FAILED and passes EngramErrors through', async () => {
    const failed = await callbackNotifier(() => {
      throw new Error('推送服务不可用');
    })
      .notify(zhReminder)
      .catch((e: unknown) => e);
    expect(EngramError.hasCode(failed, DELIVERY_FAILED)).toBe(true);
    expect((failed as Error).message).toContain('推送服务不可用');
    const own = new EngramError('CONFLICT', 'x');
    await expect(callbackNotifier(async () => Promise.reject(own)).notify(enReminder)).rejects.toBe(own);
  });
});
