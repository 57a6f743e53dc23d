import { z } from '@hono/zod-openapi';
import { InvalidInputError } from '../../errors.js';
import type { MemoryEngine } from '../../memory-engine.js';
import type { Memory } from '../../domain/memory.js';
import { memoryVersion } from '../../domain/memory-version.js';
import type { AuthInfo } from '../auth.js';
import { etagOf, parseIfMatch } from '../entity-tags.js';
import { createRoute, created, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { CreateMemoryBody, ErrorBody, HistoryEventDto, IfMatchHeader, ListMemoriesQuery, MemoryDto, MemoryPage, MemoryParams, PatchMemoryBody, RelationDto } from '../schemas.js';
import { present } from '../wire.js';

const tags = ['memories'];
const base = '/v1/users/{userId}/memories';

const encodeCursor = (offset: number): string => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const parsed = z.object({ o: z.number().int().min(0).max(1_000_000) }).safeParse(safeJson(Buffer.from(cursor, 'base64url').toString('utf8')));
  if (!parsed.success) throw new InvalidInputError('Invalid cursor: pass the nextCursor of a previous page', { details: { field: 'cursor' } });
  return parsed.data.o;
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: reported as an invalid cursor by the caller's schema check
  }
}

const list = createRoute({
  method: 'get', path: base, tags, summary: 'List memories: filters, a text query (best first), sort and cursor pagination',
  request: { params: MemoryParams.pick({ userId: true }), query: ListMemoriesQuery },
  responses: ok(MemoryPage),
});
const create = createRoute({ method: 'post', path: base, tags, summary: 'Add a memory by hand (no model)', request: { params: MemoryParams.pick({ userId: true }), body: jsonBody(CreateMemoryBody) }, responses: created(MemoryDto) });
const ETag = z.object({ ETag: z.string().openapi({ description: 'The memory\'s version as a strong entity tag: send it back in If-Match', example: '"k3J0aWJ2bG9nZ2VkLWluAb"' }) });
const withETag = (description: string) => ({ ...ok(MemoryDto, description), 200: { description, headers: ETag, content: { 'application/json': { schema: MemoryDto } } } });
const stale = { 412: { description: 'PRECONDITION_FAILED: the memory changed since the If-Match version; nothing was changed', content: { 'application/json': { schema: ErrorBody } } } };
const get = createRoute({ method: 'get', path: `${base}/{id}`, tags, summary: 'One memory (with its ETag)', request: { params: MemoryParams }, responses: withETag('The memory; `version` and the ETag header name this version of it') });
const patch = createRoute({
  method: 'patch', path: `${base}/{id}`, tags,
  summary: 'Change fields of a memory (recorded in its history); with If-Match, only the version that was read',
  description: 'Send only the fields to change. With `If-Match: "<version>"` (the ETag of a GET, or a list item\'s `version`), the change applies only while the memory is still at that version, checked atomically in the store, in whichever process: otherwise 412 PRECONDITION_FAILED (details.current: the version now), nothing changed. Without If-Match the patch applies to the memory as it is now.',
  request: { params: MemoryParams, headers: IfMatchHeader, body: jsonBody(PatchMemoryBody) },
  responses: { ...withETag('The changed memory and its new version'), ...stale },
});
const remove = createRoute({
  method: 'delete', path: `${base}/{id}`, tags, summary: 'Soft delete (restorable); with ?purge=true really erase it; with If-Match, only the version that was read',
  request: { params: MemoryParams, headers: IfMatchHeader, query: z.object({ purge: z.enum(['true', 'false']).optional() }) },
  responses: { ...ok(z.object({ id: z.string(), status: z.enum(['deleted', 'purged']), memory: MemoryDto.optional() })), ...stale },
});
const restore = createRoute({
  method: 'post', path: `${base}/{id}/restore`, tags, summary: 'Restore a soft-deleted memory; with If-Match, only the version that was read',
  request: { params: MemoryParams, headers: IfMatchHeader }, responses: { ...withETag('The restored memory and its new version'), ...stale },
});
const purge = createRoute({
  method: 'post', path: `${base}/{id}/purge`, tags, summary: 'Really erase a memory; its history keeps only that it was purged; with If-Match, only the version that was read',
  request: { params: MemoryParams, headers: IfMatchHeader }, responses: { ...ok(z.object({ id: z.string(), status: z.literal('purged') })), ...stale },
});
const history = createRoute({ method: 'get', path: `${base}/{id}/history`, tags, summary: 'Every change of a memory, oldest first', request: { params: MemoryParams }, responses: ok(z.object({ items: z.array(HistoryEventDto) })) });
const relations = createRoute({ method: 'get', path: `${base}/{id}/relations`, tags, summary: 'Links from and to a memory', request: { params: MemoryParams }, responses: ok(z.object({ items: z.array(RelationDto) })) });

const user = { actor: 'user' as const };

/** The library's condition from an If-Match header (none for no header or `*`). */
const conditionOf = (header: string | undefined) => {
  const ifVersion = parseIfMatch(header);
  return ifVersion ? { ifVersion } : undefined;
};

/** A memory as the /memories endpoints answer it: with its version, which PATCH takes back in If-Match. */
const versioned = (auth: AuthInfo, m: Memory) => ({ ...present(auth, m), version: memoryVersion(m) });

/** /v1/users/{userId}/memories: the semantic memories of one user. */
export function memoryRoutes(memory: MemoryEngine) {
  return newRouter()
    .openapi(list, async (c) => {
      const { userId: ext } = c.req.valid('param');
      const q = c.req.valid('query');
      const userId = userOf(c, ext);
      const offset = decodeCursor(q.cursor);
      const statuses = q.status && q.status.length > 0 ? q.status : undefined;
      const from = q.from ? new Date(q.from) : undefined;
      const to = q.to ? new Date(q.to) : undefined;
      let page: Memory[];
      let more: boolean;
      if (q.q !== undefined && q.q.trim() !== '') {
        const want = Math.min(offset + q.limit + 1, 500);
        const found = await memory.recall({ userId, query: q.q, limit: want, kinds: q.kind, statuses, from, to, includeExpired: true, touch: false, ...(q.minRelevance === undefined ? {} : { config: { minRelevance: q.minRelevance } }) });
        page = found.slice(offset, offset + q.limit).map((r) => r.memory);
        more = found.length > offset + q.limit && offset + q.limit < 500;
      } else {
        const rows = await memory.list({ userId, kinds: q.kind, statuses, createdFrom: from, createdTo: to, orderBy: q.sort, order: q.order, limit: q.limit + 1, offset });
        page = rows.slice(0, q.limit);
        more = rows.length > q.limit;
      }
      // `core` filters the page (a page may hold fewer than `limit` items; follow nextCursor).
      const items = q.core === undefined ? page : page.filter((m) => m.core === q.core);
      return c.json({ items: items.map((m) => versioned(c.var.auth, m)), nextCursor: more ? encodeCursor(offset + q.limit) : null }, 200);
    })
    .openapi(create, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const m = await memory.add({ ...c.req.valid('json'), userId });
      c.header('ETag', etagOf(memoryVersion(m)));
      return c.json(versioned(c.var.auth, m), 201);
    })
    .openapi(get, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const m = await memory.get(userOf(c, ext), id);
      c.header('ETag', etagOf(memoryVersion(m)));
      return c.json(versioned(c.var.auth, m), 200);
    })
    .openapi(patch, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const m = await memory.update(userOf(c, ext), id, c.req.valid('json'), user, conditionOf(c.req.valid('header')['if-match']));
      c.header('ETag', etagOf(memoryVersion(m)));
      return c.json(versioned(c.var.auth, m), 200);
    })
    .openapi(remove, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      const condition = conditionOf(c.req.valid('header')['if-match']);
      if (c.req.valid('query').purge === 'true') {
        await memory.purge(userId, id, user, condition);
        return c.json({ id, status: 'purged' as const }, 200);
      }
      const m = await memory.delete(userId, id, user, condition);
      c.header('ETag', etagOf(memoryVersion(m)));
      return c.json({ id, status: 'deleted' as const, memory: versioned(c.var.auth, m) }, 200);
    })
    .openapi(restore, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const m = await memory.restore(userOf(c, ext), id, user, conditionOf(c.req.valid('header')['if-match']));
      c.header('ETag', etagOf(memoryVersion(m)));
      return c.json(versioned(c.var.auth, m), 200);
    })
    .openapi(purge, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      await memory.purge(userOf(c, ext), id, user, conditionOf(c.req.valid('header')['if-match']));
      return c.json({ id, status: 'purged' as const }, 200);
    })
    .openapi(history, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await memory.get(userId, id).catch(async (error: unknown) => {
        // A purged memory still has its history; only a memory that never existed is NOT_FOUND.
        if ((await memory.history(userId, id)).length === 0) throw error;
      });
      return c.json({ items: present(c.var.auth, await memory.history(userId, id)) }, 200);
    })
    .openapi(relations, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await memory.get(userId, id);
      return c.json({ items: present(c.var.auth, await memory.relations(userId, id)) }, 200);
    });
}
