import { z } from '@hono/zod-openapi';
import type { MemoryEngine } from '../../memory-engine.js';
import { createRoute, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { ContextBody, ContextDto, RecalledDto, SearchBody, UserParams } from '../schemas.js';
import { present } from '../wire.js';

const search = createRoute({
  method: 'post', path: '/v1/users/{userId}/search', tags: ['recall'], summary: 'Hybrid search over the memories, with score parts',
  request: { params: UserParams, body: jsonBody(SearchBody) }, responses: ok(z.object({ items: z.array(RecalledDto) })),
});
const context = createRoute({
  method: 'post', path: '/v1/users/{userId}/context', tags: ['recall'], summary: 'A token-budgeted context block for the system prompt',
  request: { params: UserParams, body: jsonBody(ContextBody) }, responses: ok(ContextDto),
});

/** Recall: search and the context block. */
export function searchRoutes(memory: MemoryEngine) {
  return newRouter()
    .openapi(search, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const b = c.req.valid('json');
      const items = await memory.recall({ userId, query: b.query, limit: b.limit, recipe: b.recipe, kinds: b.kinds });
      return c.json({ items: present(c.var.auth, items) }, 200);
    })
    .openapi(context, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const b = c.req.valid('json');
      const block = await memory.context({ userId, query: b.query, tokenBudget: b.tokenBudget, ...(b.sessionId ? { sessionId: b.sessionId } : {}), ...(b.language ? { language: b.language } : {}) });
      return c.json(present(c.var.auth, block), 200);
    });
}
