import { z } from '@hono/zod-openapi';
import { RelationType } from '../../domain/profile.js';
import { NotFoundError } from '../../errors.js';
import type { MemoryEngine } from '../../memory-engine.js';
import { createRoute, created, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { MemoryParams, RelationDto, Text, UserParams } from '../schemas.js';
import { present } from '../wire.js';

const base = '/v1/users/{userId}/memories/{id}/relations';

const NewRelationBody = z
  .object({
    /** The other memory: "{id} supports targetId". */
    targetId: z.string().min(1).max(200),
    type: RelationType,
    /** 0..1. @default 1 */
    strength: z.number().min(0).max(1).optional(),
    reason: Text.pipe(z.string().trim().max(500)).optional(),
  })
  .strict()
  .openapi('NewRelation');

export const ReplyBody = z
  .object({
    /** The user's message the reply answered. */
    message: Text.pipe(z.string().max(20_000)),
    reply: Text.pipe(z.string().max(100_000)),
    /** Ids of the memories and episodes in the context block of the turn (its `included` ids). */
    recalledIds: z.array(z.string().min(1).max(200)).max(200),
  })
  .strict()
  .openapi('ReplyRequest');
const ReplyReportDto = z
  .object({ used: z.array(z.object({ id: z.string(), reason: z.string() })), ignored: z.array(z.string()), decidedBy: z.string() })
  .openapi('ReplyOutcome');

const add = createRoute({
  method: 'post', path: base, tags: ['memories'], summary: 'Link this memory to another: supports, contradicts, refines (seed 004 §3.1), supersedes, derived-from',
  request: { params: MemoryParams, body: jsonBody(NewRelationBody) }, responses: created(RelationDto),
});
const remove = createRoute({
  method: 'delete', path: `${base}/{relationId}`, tags: ['memories'], summary: 'Remove one link from or to this memory',
  request: { params: MemoryParams.extend({ relationId: z.string().min(1).max(200).openapi({ param: { name: 'relationId', in: 'path' } }) }) },
  responses: ok(z.object({ id: z.string(), deleted: z.literal(true) })),
});
const replies = createRoute({
  method: 'post', path: '/v1/users/{userId}/replies', tags: ['recall'],
  summary: "After the assistant replied: the recalled memories that shaped the reply are reinforced (seed 001's reinforcement by use)",
  request: { params: UserParams, body: jsonBody(ReplyBody) }, responses: ok(ReplyReportDto),
});

/** Relations of a memory (add, remove) and the reply report that reinforces what a reply used. */
export function relationRoutes(memory: MemoryEngine) {
  return newRouter()
    .openapi(add, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const b = c.req.valid('json');
      const relation = await memory.relate({ userId: userOf(c, ext), sourceId: id, ...b });
      return c.json(present(c.var.auth, relation), 201);
    })
    .openapi(remove, async (c) => {
      const { userId: ext, id, relationId } = c.req.valid('param');
      const userId = userOf(c, ext);
      // Only a link of this memory is removed through its path.
      if (!(await memory.relations(userId, id)).some((r) => r.id === relationId)) throw new NotFoundError('Relation', relationId);
      await memory.unrelate(userId, relationId);
      return c.json({ id: relationId, deleted: true as const }, 200);
    })
    .openapi(replies, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      return c.json(await memory.reportReply({ userId, ...c.req.valid('json') }), 200);
    });
}
