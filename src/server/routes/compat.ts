import { z } from '@hono/zod-openapi';
import { generateText, streamText, type LanguageModel, type ModelMessage } from 'ai';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Logger } from '../../deps.js';
import { InvalidInputError, parseInput } from '../../errors.js';
import type { MemoryEngine } from '../../memory-engine.js';
import type { AppEnv } from '../auth.js';
import { createRoute, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { MemoryDto, Text } from '../schemas.js';
import { present } from '../wire.js';
import { headerText } from '../../util/header-text.js';
import { ExtractReportDto } from './sessions.js';

const tags = ['compat (seed-shaped)'];
const UserHeader = z.object({ 'x-engram-user': z.string().min(1).max(200).optional().openapi({ description: "The user, unless the key is bound to one" }) });
const TopicParams = z.object({ id: z.string().min(1).max(200).openapi({ param: { name: 'id', in: 'path' } }) });
const SeedSettings = z
  .object({ memory_silent_minutes: z.number().min(0).max(1440), memory_extraction_enabled: z.boolean(), memory_context_messages: z.number().int().min(0).max(50) })
  .openapi('SeedSettings');
const ChatBody = z.object({ content: Text.pipe(z.string().trim().min(1).max(100_000)), id: z.string().min(1).max(200).optional() }).strict().openapi('TopicMessage');
const ChatReply = z
  .object({ stored: z.literal(true), reply: z.string().nullable(), note: z.string().optional(), context: z.object({ tokens: z.number(), included: z.number() }).optional() })
  .openapi('TopicReply');

const listMemories = createRoute({ method: 'get', path: '/api/v1/memories', tags, summary: 'Seed 000 §7: the user\'s memories, newest first', request: { headers: UserHeader, query: z.object({ category: z.string().optional() }) }, responses: ok(z.array(MemoryDto)) });
const deleteMemory = createRoute({ method: 'delete', path: '/api/v1/memories/{id}', tags, summary: 'Seed 000 §7: delete a memory (soft, restorable; ?purge=true erases)', request: { headers: UserHeader, params: TopicParams, query: z.object({ purge: z.enum(['true', 'false']).optional() }) }, responses: ok(z.object({ id: z.string(), status: z.enum(['deleted', 'purged']) })) });
const getSettings = createRoute({ method: 'get', path: '/api/settings', tags, summary: "Seed 002: the user's extraction settings", request: { headers: UserHeader }, responses: ok(SeedSettings) });
const putSettings = createRoute({ method: 'put', path: '/api/settings', tags, summary: "Seed 002: change the user's extraction settings", request: { headers: UserHeader, body: jsonBody(SeedSettings.partial().strict()) }, responses: ok(SeedSettings) });
const extract = createRoute({ method: 'post', path: '/api/topics/{id}/extract-memories', tags, summary: 'Seed 002: extract a topic (session) now', request: { headers: UserHeader, params: TopicParams }, responses: ok(ExtractReportDto) });
const chat = createRoute({ method: 'post', path: '/api/topics/{id}/messages', tags, summary: 'Seed 002: a user message; with a model, the reply uses the memory context', request: { headers: UserHeader, params: TopicParams, body: jsonBody(ChatBody) }, responses: ok(ChatReply) });

/** The user of a seed-shaped route: the key's bound user, else the X-Engram-User header. */
function compatUser(c: Context<AppEnv>): string {
  // A header naming another user than the key's is refused (userOf), not overridden by the key's.
  const ext = headerText(c.req.header('x-engram-user'))?.trim() || c.var.auth.boundUserId;
  if (!ext) throw new InvalidInputError('Name the user: a key bound to one user, or an X-Engram-User header', { details: { field: 'X-Engram-User' } });
  return userOf(c, ext);
}

const NO_MODEL = 'No language model is configured (ENGRAM_LLM_BASE_URL, ENGRAM_LLM_MODEL): the message was stored and will be remembered; no reply was generated.';

export interface CompatOptions {
  /** The chat model that answers on /api/topics/{id}/messages; without one the message is only stored. */
  chat?: LanguageModel;
  logger: Logger;
}

/** Seed-shaped routes (seeds 000 and 002) as a thin layer over the same engine calls. */
export function compatRoutes(memory: MemoryEngine, options: CompatOptions) {
  /** Stores the user's turn, then (with a model) what to send it: the memory context and the working window. */
  const prepare = async (userId: string, topic: string, body: z.infer<typeof ChatBody>) => {
    await memory.appendMessages({ messages: [{ userId, sessionId: topic, role: 'user', content: body.content, ...(body.id ? { id: body.id } : {}) }] });
    if (!options.chat) return null;
    // The topic's own messages go along as the working window: never repeated as excerpts.
    const block = await memory.context({ userId, query: body.content, sessionId: topic });
    const window = await memory.workingWindow(userId, topic, 20);
    const messages: ModelMessage[] = window.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
    const system = ['You are a helpful assistant. 你是一个乐于助人的助手。', block.text].filter((s) => s !== '').join('\n\n');
    return { block, messages, system, model: options.chat };
  };
  const finish = async (userId: string, topic: string, message: string, reply: string, recalledIds: string[]) => {
    await memory.appendMessages({ messages: [{ userId, sessionId: topic, role: 'assistant', content: reply }] });
    // Reinforcement by use runs after the answer; a failure there never fails the chat.
    memory.reportReply({ userId, message, reply, recalledIds }).catch((error: unknown) => options.logger.warn('reportReply failed', { error: String(error) }));
  };

  const router = newRouter()
    .openapi(listMemories, async (c) => {
      const userId = compatUser(c);
      const category = c.req.valid('query').category;
      const kinds = category ? z.array(z.enum(['identity', 'preference', 'fact', 'person', 'event', 'plan', 'todo', 'pattern', 'skill', 'episode', 'system'])).safeParse([category]) : undefined;
      if (kinds && !kinds.success) throw new InvalidInputError(`Unknown category "${category}"`, { details: { field: 'category' } });
      return c.json(present(c.var.auth, await memory.list({ userId, kinds: kinds?.data, orderBy: 'createdAt', order: 'desc', limit: 500 })), 200);
    })
    .openapi(deleteMemory, async (c) => {
      const userId = compatUser(c);
      const { id } = c.req.valid('param');
      if (c.req.valid('query').purge === 'true') {
        await memory.purge(userId, id, { actor: 'user' });
        return c.json({ id, status: 'purged' as const }, 200);
      }
      await memory.delete(userId, id, { actor: 'user' });
      return c.json({ id, status: 'deleted' as const }, 200);
    })
    .openapi(getSettings, async (c) => {
      const s = await memory.getSettings(compatUser(c));
      return c.json({ memory_silent_minutes: s.silentMinutes, memory_extraction_enabled: s.extractionEnabled, memory_context_messages: s.contextMessages }, 200);
    })
    .openapi(putSettings, async (c) => {
      const userId = compatUser(c);
      const b = c.req.valid('json');
      const s = await memory.setSettings(userId, {
        ...(b.memory_silent_minutes === undefined ? {} : { silentMinutes: b.memory_silent_minutes }),
        ...(b.memory_extraction_enabled === undefined ? {} : { extractionEnabled: b.memory_extraction_enabled }),
        ...(b.memory_context_messages === undefined ? {} : { contextMessages: b.memory_context_messages }),
      });
      return c.json({ memory_silent_minutes: s.silentMinutes, memory_extraction_enabled: s.extractionEnabled, memory_context_messages: s.contextMessages }, 200);
    })
    .openapi(extract, async (c) => {
      const userId = compatUser(c);
      const { id } = c.req.valid('param');
      await memory.getSession(userId, id);
      return c.json(present(c.var.auth, await memory.extract(userId, id)), 200);
    })
    .openapi(chat, async (c) => {
      const userId = compatUser(c);
      const topic = c.req.valid('param').id;
      const body = c.req.valid('json');
      const p = await prepare(userId, topic, body);
      if (!p) return c.json({ stored: true as const, reply: null, note: NO_MODEL }, 200);
      const { text } = await generateText({ model: p.model, system: p.system, messages: p.messages });
      await finish(userId, topic, body.content, text, p.block.included.map((i) => i.id));
      return c.json({ stored: true as const, reply: text, context: { tokens: p.block.tokens, included: p.block.included.length } }, 200);
    });

  // The streaming twin: server-sent events `token` { text } … then `done` { reply } (or `done` with the note).
  router.post('/api/topics/:id/messages/stream', async (c) => {
    const userId = compatUser(c);
    const topic = parseInput(z.string().min(1).max(200), c.req.param('id'), 'topic id');
    let body: unknown;
    try {
      body = await c.req.json();
    } catch (error) {
      throw new InvalidInputError(`The body is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const parsed = ChatBody.safeParse(body);
    if (!parsed.success) throw new InvalidInputError('Invalid json: expected { content }', { details: { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) } });
    const p = await prepare(userId, topic, parsed.data);
    return streamSSE(c, async (stream) => {
      if (!p) {
        await stream.writeSSE({ event: 'done', data: JSON.stringify({ stored: true, reply: null, note: NO_MODEL }) });
        return;
      }
      const result = streamText({ model: p.model, system: p.system, messages: p.messages });
      let reply = '';
      for await (const text of result.textStream) {
        reply += text;
        await stream.writeSSE({ event: 'token', data: JSON.stringify({ text }) });
      }
      await finish(userId, topic, parsed.data.content, reply, p.block.included.map((i) => i.id));
      await stream.writeSSE({ event: 'done', data: JSON.stringify({ stored: true, reply }) });
    }, async (error, stream) => {
      // Headers are sent: the failure travels as an event; the user's turn stays stored.
      options.logger.warn('chat stream failed', { error: String(error) });
      await stream.writeSSE({ event: 'error', data: JSON.stringify({ code: 'MODEL_FAILED', message: 'The model failed while answering' }) });
    });
  });
  return router;
}
