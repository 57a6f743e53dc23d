import { z } from '@hono/zod-openapi';
import { MessageRole } from '../../domain/conversation.js';
import type { MemoryEngine } from '../../memory-engine.js';
import type { SessionLister } from '../sessions-view.js';
import { createRoute, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { MessageDto, SessionDto, SessionParams, Text, UserParams } from '../schemas.js';
import { present } from '../wire.js';

const tags = ['conversations'];
const base = '/v1/users/{userId}/sessions/{sessionId}';

export const AppendBody = z
  .object({
    messages: z
      .array(
        z
          .object({
            id: z.string().min(1).max(200).optional(),
            role: MessageRole,
            content: Text.pipe(z.string().max(100_000)),
            callerId: z.string().max(200).optional(),
            createdAt: z.iso.datetime({ offset: true }).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(1000),
  })
  .strict()
  .openapi('AppendMessages');

/** A topic the user asked in these messages to be forgotten ("忘掉我前女友的事"), and how much went. */
const ForgottenDto = z
  .object({ messageId: z.string(), topic: z.string(), names: z.array(z.string()).optional(), memories: z.number().int(), messages: z.number().int() })
  .openapi('ForgottenOnRequest');

export const ExtractReportDto = z
  .looseObject({
    sessionId: z.string(),
    status: z.enum(['applied', 'skipped', 'nothing', 'busy', 'failed', 'disabled']),
    added: z.number(),
    updated: z.number(),
    deleted: z.number(),
    reinforced: z.number(),
    skipped: z.boolean(),
    reason: z.string(),
    messages: z.number(),
    /** Topics the model read the user asking to forget in the batch (with an LLM configured). */
    forgotten: z.array(ForgottenDto).optional(),
  })
  .openapi('ExtractReport');

const sessions = createRoute({ method: 'get', path: '/v1/users/{userId}/sessions', tags, summary: 'Sessions of a user, most recently active first', request: { params: UserParams, query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }) }, responses: ok(z.object({ items: z.array(SessionDto) })) });
const session = createRoute({ method: 'get', path: base, tags, summary: 'One session: activity and extraction state', request: { params: SessionParams }, responses: ok(SessionDto) });
const append = createRoute({ method: 'post', path: `${base}/messages`, tags, summary: 'Append messages (idempotent by id); extraction runs in the background', request: { params: SessionParams, body: jsonBody(AppendBody) }, responses: ok(z.object({ appended: z.array(MessageDto), skipped: z.number(), forgotten: z.array(ForgottenDto).optional() })) });
const messages = createRoute({
  method: 'get', path: `${base}/messages`, tags, summary: 'Messages of a session in order',
  request: { params: SessionParams, query: z.object({ afterSeq: z.coerce.number().int().min(-1).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }) },
  responses: ok(z.object({ items: z.array(MessageDto) })),
});
const window = createRoute({ method: 'get', path: `${base}/window`, tags, summary: 'The working window: the last messages, oldest first', request: { params: SessionParams, query: z.object({ size: z.coerce.number().int().min(1).max(200).default(30) }) }, responses: ok(z.object({ items: z.array(MessageDto) })) });
const end = createRoute({ method: 'post', path: `${base}/end`, tags, summary: 'End a session: its extraction and episode run in the background', request: { params: SessionParams }, responses: ok(z.object({ sessionId: z.string(), ended: z.literal(true) })) });
const extract = createRoute({ method: 'post', path: `${base}/extract`, tags, summary: "Extract the session's new messages now (seed 002's manual trigger)", request: { params: SessionParams }, responses: ok(ExtractReportDto) });

/** Sessions and their raw messages. */
export function sessionRoutes(memory: MemoryEngine, lister: SessionLister) {
  return newRouter()
    .openapi(sessions, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json({ items: present(c.var.auth, await lister(userId, c.req.valid('query').limit)) }, 200);
    })
    .openapi(session, async (c) => {
      const { userId: ext, sessionId } = c.req.valid('param');
      return c.json(present(c.var.auth, await memory.getSession(userOf(c, ext), sessionId)), 200);
    })
    .openapi(append, async (c) => {
      const { userId: ext, sessionId } = c.req.valid('param');
      const userId = userOf(c, ext);
      const result = await memory.appendMessages({ messages: c.req.valid('json').messages.map((m) => ({ ...m, userId, sessionId })) });
      return c.json(present(c.var.auth, result), 200);
    })
    .openapi(messages, async (c) => {
      const { userId: ext, sessionId } = c.req.valid('param');
      const userId = userOf(c, ext);
      await memory.getSession(userId, sessionId);
      const q = c.req.valid('query');
      const items = await memory.deps.store.listMessages({ userId, sessionId, ...(q.afterSeq === undefined ? {} : { afterSeq: q.afterSeq }), limit: q.limit });
      return c.json({ items: present(c.var.auth, items) }, 200);
    })
    .openapi(window, async (c) => {
      const { userId: ext, sessionId } = c.req.valid('param');
      const userId = userOf(c, ext);
      await memory.getSession(userId, sessionId);
      return c.json({ items: present(c.var.auth, await memory.workingWindow(userId, sessionId, c.req.valid('query').size)) }, 200);
    })
    .openapi(end, async (c) => {
      const { userId: ext, sessionId } = c.req.valid('param');
      const userId = userOf(c, ext);
      await memory.getSession(userId, sessionId);
      await memory.endSession(userId, sessionId);
      return c.json({ sessionId, ended: true as const }, 200);
    })
    .openapi(extract, async (c) => {
      const { userId: ext, sessionId } = c.req.valid('param');
      const userId = userOf(c, ext);
      await memory.getSession(userId, sessionId);
      return c.json(present(c.var.auth, await memory.extract(userId, sessionId)), 200);
    });
}
