import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from '@hono/zod-openapi';
import { SettingsPatch, ExtractionSettings } from '../../domain/settings.js';
import { EngramError, NotFoundError } from '../../errors.js';
import type { MemoryEngine } from '../../memory-engine.js';
import { userFolder } from '../../pipelines/sync-mirror.js';
import { externalUserId } from '../auth.js';
import { createRoute, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { ContentText, ErasedForgetDto, ForgottenParams, ForgottenRequestDto, MemoryDto, ProfileDto, RecalledDto, Text, UndoneForgetDto, UserParams } from '../schemas.js';
import { present } from '../wire.js';
import { previewForgetTopic } from '../../pipelines/forget-preview.js';
import { userNotEmptyError } from '../../pipelines/import-user.js';

const tags = ['users'];
const u = '/v1/users/{userId}';

/** The bodies /forget takes, said in its error: a failed union alone would read "(root): Invalid input". */
const FORGET_SHAPES = '{"all": true} (everything about the user), {"topic": "…", "dryRun"?: true | false} (a topic; dryRun erases nothing and lists what would go) or {"memoryId": "…"} (one memory); no other fields';
const ForgetBody = z
  .union([
    z.object({ all: z.literal(true) }).strict(),
    /** `dryRun`: nothing is erased; the answer lists the memories that mention the topic (at least these would go). */
    z.object({ topic: Text.pipe(z.string().trim().min(1).max(500)), dryRun: z.boolean().optional() }).strict(),
    z.object({ memoryId: z.string().min(1).max(200) }).strict(),
  ], { error: `the body must be exactly one of: ${FORGET_SHAPES}` })
  .openapi('ForgetRequest');
const LearningBody = z
  .object({
    task: ContentText.pipe(z.string().trim().min(1).max(500)),
    steps: z.array(ContentText.pipe(z.string().trim().min(1))).min(1).max(50),
    tools: z.array(ContentText.pipe(z.string().trim().min(1).max(200))).max(50).optional(),
    error: z.string().optional(),
    fix: z.string().optional(),
    importance: z.number().min(0).max(1).optional(),
  })
  .strict()
  .openapi('LearningInput');
const ExportBody = z.looseObject({ format: z.literal('engram-export'), version: z.literal(1) }).openapi('UserExport');

const users = createRoute({ method: 'get', path: '/v1/users', tags, summary: "The tenant's users (those with memories or sessions)", responses: ok(z.object({ items: z.array(z.object({ userId: z.string() })) })) });
const user = createRoute({ method: 'get', path: u, tags, summary: 'One user: counts; 404 for a user with nothing stored', request: { params: UserParams }, responses: ok(z.object({ userId: z.string(), memories: z.number(), settings: ExtractionSettings })) });
const episodes = createRoute({ method: 'get', path: `${u}/episodes`, tags, summary: 'Session summaries, newest first', request: { params: UserParams, query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }) }, responses: ok(z.object({ items: z.array(MemoryDto) })) });
const profile = createRoute({ method: 'get', path: `${u}/profile`, tags, summary: 'The current core profile (null before the first)', request: { params: UserParams }, responses: ok(z.object({ profile: ProfileDto.nullable() })) });
const versions = createRoute({ method: 'get', path: `${u}/profile/versions`, tags, summary: 'Every version of the profile', request: { params: UserParams }, responses: ok(z.object({ items: z.array(ProfileDto) })) });
const getSettings = createRoute({ method: 'get', path: `${u}/settings`, tags, summary: "The user's effective settings (own overrides over the global defaults)", request: { params: UserParams }, responses: ok(ExtractionSettings) });
const putSettings = createRoute({ method: 'put', path: `${u}/settings`, tags, summary: "Change some of the user's settings; the other keys keep following the defaults", request: { params: UserParams, body: jsonBody(SettingsPatch.strict().openapi('SettingsPatch')) }, responses: ok(ExtractionSettings) });
const forget = createRoute({ method: 'post', path: `${u}/forget`, tags, summary: 'Forget everything, a topic, or one memory: really erased', request: { params: UserParams, body: jsonBody(ForgetBody) }, responses: ok(z.looseObject({ scope: z.enum(['user', 'topic', 'memory']) })) });
const forgotten = createRoute({ method: 'get', path: `${u}/forgotten`, tags, summary: 'What requests in conversation forgot ("忘掉…", "forget…"), undoable for 7 days, newest first', request: { params: UserParams }, responses: ok(z.object({ items: z.array(ForgottenRequestDto) })) });
const undoForgotten = createRoute({ method: 'post', path: `${u}/forgotten/{id}/undo`, tags, summary: 'Bring back what a request in conversation forgot: its messages, memories, todos and the profile before it', request: { params: ForgottenParams }, responses: ok(UndoneForgetDto) });
const eraseForgotten = createRoute({ method: 'delete', path: `${u}/forgotten/{id}`, tags, summary: 'Erase what a request in conversation forgot now, rather than when its undo time ends', request: { params: ForgottenParams }, responses: ok(ErasedForgetDto) });
const exportUser = createRoute({ method: 'get', path: `${u}/export`, tags, summary: 'Everything kept about the user, as one JSON document', request: { params: UserParams }, responses: ok(ExportBody) });
const importUser = createRoute({ method: 'post', path: `${u}/import`, tags, summary: 'Restore an export into this (empty) user', request: { params: UserParams, body: jsonBody(ExportBody) }, responses: ok(z.looseObject({ memories: z.number(), messages: z.number(), rewrittenOwners: z.number().optional(), reissuedIds: z.number().optional(), droppedRelations: z.number().optional(), droppedHistory: z.number().optional() })) });
const learnings = createRoute({ method: 'get', path: `${u}/learnings`, tags, summary: 'Procedures that worked, for a task', request: { params: UserParams, query: z.object({ task: Text.pipe(z.string().min(1).max(2000)), limit: z.coerce.number().int().min(1).max(50).default(5) }) }, responses: ok(z.object({ items: z.array(RecalledDto) })) });
const learn = createRoute({ method: 'post', path: `${u}/learnings`, tags, summary: 'Record a procedure that worked (or an error and its fix)', request: { params: UserParams, body: jsonBody(LearningBody) }, responses: ok(MemoryDto) });
const mirror = createRoute({ method: 'get', path: `${u}/mirror`, tags, summary: "The user's memory.md (when the server has a workspace)", request: { params: UserParams, query: z.object({ file: z.enum(['memory', 'learnings']).default('memory') }) }, responses: { 200: { description: 'Markdown', content: { 'text/markdown': { schema: z.string() } } } } });

/** Everything else under /v1/users/{userId}: layers, settings, forgetting, export, learnings, mirror. */
export function userRoutes(memory: MemoryEngine, options: { workspace?: string } = {}) {
  return newRouter()
    .openapi(users, async (c) => {
      const ids = (await memory.deps.store.userIds()).map((id) => externalUserId(c.var.auth, id)).filter((id): id is string => id !== null);
      const visible = c.var.auth.boundUserId === undefined ? ids : ids.filter((id) => id === c.var.auth.boundUserId);
      return c.json({ items: visible.sort().map((userId) => ({ userId })) }, 200);
    })
    .openapi(user, async (c) => {
      const ext = c.req.valid('param').userId;
      const userId = userOf(c, ext);
      const memories = await memory.deps.store.countMemories({ userId });
      if (memories === 0 && !(await memory.deps.store.userIds()).includes(userId)) throw new NotFoundError('User', ext);
      return c.json({ userId: ext, memories, settings: await memory.getSettings(userId) }, 200);
    })
    .openapi(episodes, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const items = await memory.list({ userId, kinds: ['episode'], orderBy: 'createdAt', order: 'desc', limit: c.req.valid('query').limit });
      return c.json({ items: present(c.var.auth, items) }, 200);
    })
    .openapi(profile, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json({ profile: present(c.var.auth, await memory.profile(userId)) }, 200);
    })
    .openapi(versions, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json({ items: present(c.var.auth, await memory.profileVersions(userId)) }, 200);
    })
    .openapi(getSettings, async (c) => c.json(await memory.getSettings(userOf(c, c.req.valid('param').userId)), 200))
    .openapi(putSettings, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      await memory.setSettings(userId, c.req.valid('json'));
      return c.json(await memory.getSettings(userId), 200);
    })
    .openapi(forget, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const b = c.req.valid('json');
      if ('all' in b) return c.json({ scope: 'user' as const, counts: await memory.forget({ userId }) }, 200);
      if ('topic' in b && b.dryRun) return c.json({ scope: 'topic' as const, dryRun: true, topic: b.topic, wouldErase: await previewForgetTopic(memory.deps, userId, b.topic) }, 200);
      if ('topic' in b) return c.json({ scope: 'topic' as const, ...(await memory.forgetTopic(userId, b.topic)) }, 200);
      await memory.purge(userId, b.memoryId, { actor: 'user', reason: 'forget' });
      return c.json({ scope: 'memory' as const, id: b.memoryId }, 200);
    })
    .openapi(forgotten, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json({ items: present(c.var.auth, await memory.forgottenOnRequest(userId)) }, 200);
    })
    .openapi(undoForgotten, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      return c.json(await memory.undoForgotten(userOf(c, ext), id), 200);
    })
    .openapi(eraseForgotten, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      return c.json(await memory.eraseForgotten(userOf(c, ext), id), 200);
    })
    .openapi(exportUser, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json(present(c.var.auth, await memory.exportUser(userId)), 200);
    })
    .openapi(importUser, async (c) => {
      const ext = c.req.valid('param').userId;
      const userId = userOf(c, ext);
      // Every record is re-owned by the path's user: an export never writes into another user or tenant.
      // importUser re-owns every row and re-issues ids already taken, and says so in its report.
      try {
        return c.json(present(c.var.auth, await memory.importUser(c.req.valid('json'), { userId })), 200);
      } catch (error) {
        // The engine names the user by its tenant-scoped id (t:acme:alice); the caller knows them as ext.
        if (EngramError.hasCode(error, 'CONFLICT') && error.details?.userId === userId && Array.isArray(error.details.held)) throw userNotEmptyError(ext, error.details.held as string[], { cause: error });
        throw error;
      }
    })
    .openapi(learnings, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const q = c.req.valid('query');
      return c.json({ items: present(c.var.auth, await memory.recallLearnings({ userId, task: q.task, limit: q.limit })) }, 200);
    })
    .openapi(learn, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json(present(c.var.auth, await memory.recordLearning({ ...c.req.valid('json'), userId })), 200);
    })
    .openapi(mirror, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      if (!options.workspace) throw new EngramError('CONFIG_INVALID', 'This server has no workspace for the memory.md mirror (ENGRAM_WORKSPACE)');
      const file = c.req.valid('query').file === 'learnings' ? 'learnings.md' : 'memory.md';
      let text: string;
      try {
        text = await readFile(join(userFolder(options.workspace, userId), file), 'utf8');
      } catch (cause) {
        throw new EngramError('NOT_FOUND', `No ${file} for this user yet`, { cause, details: { file } });
      }
      return c.body(text, 200, { 'content-type': 'text/markdown; charset=utf-8' });
    });
}
