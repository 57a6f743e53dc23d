import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './auth.js';

const require = createRequire(import.meta.url);
const API_PATH = /^\/(v1|api|mcp|metrics|health|ready|openapi\.json|docs)(\/|$)/;

/** The folder of the swagger-ui-dist package (served at /docs, no CDN). */
export const swaggerUiDir = (): string => dirname(require.resolve('swagger-ui-dist/package.json'));

/** The built web page, `web/dist` at the repository root. */
export const defaultWebDir = (): string => resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Engram API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', persistAuthorization: true });`;

const PLACEHOLDER_HTML = `<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>Engram</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>Engram</h1>
<p>Long-term memory for AI assistants. 长期记忆服务正在运行。</p>
<p>The web page is not built yet (<code>web/dist</code>). 网页尚未构建。</p>
<ul><li><a href="/docs">API docs / 接口文档</a></li><li><a href="/openapi.json">openapi.json</a></li><li><a href="/health">health</a></li></ul>
</body></html>`;

/** `/openapi.json` (generated from the routes' zod schemas), `/docs` (Swagger UI) and the web page at `/`. */
export function mountDocs(app: OpenAPIHono<AppEnv>, options: { webDir?: string; version: string }): void {
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Engram', version: options.version, description: 'Long-term memory for AI assistants. Send `Authorization: Bearer <key>`; errors are `{ error: { code, message, details, requestId } }`.' },
    security: [{ bearer: [] }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  // Routes that are not JSON in and out, listed so the document names every path.
  const plain = (method: 'get' | 'post', path: string, summary: string, type: string, tags: string[]) =>
    app.openAPIRegistry.registerPath({ method, path, summary, tags, responses: { 200: { description: 'OK', content: { [type]: { schema: { type: 'string' } } } } } });
  plain('get', '/health', 'Liveness: the process answers', 'application/json', ['service']);
  plain('get', '/ready', 'Readiness: the database answers and the embedder is loaded; 503 while starting or draining', 'application/json', ['service']);
  plain('get', '/metrics', 'Prometheus metrics (admin key)', 'text/plain', ['service']);
  plain('get', '/v1/events', "Server-sent events of the caller's tenant: ready, memory.changed, extraction.done, todo.due", 'text/event-stream', ['events']);
  plain('post', '/api/topics/{id}/messages/stream', 'Seed 002: as /api/topics/{id}/messages, the reply streamed as `token` events then `done`', 'text/event-stream', ['compat (seed-shaped)']);

  const swagger = swaggerUiDir();
  app.get('/docs', (c) => c.html(DOCS_HTML));
  app.get('/docs/init.js', (c) => c.body(DOCS_INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.use('/docs/*', serveStatic({ root: swagger, rewriteRequestPath: (p) => p.replace(/^\/docs/, '') }));

  const web = options.webDir ?? defaultWebDir();
  if (existsSync(join(web, 'index.html'))) {
    const files = serveStatic<AppEnv>({ root: web });
    const page = serveStatic<AppEnv>({ root: web, rewriteRequestPath: () => '/index.html' });
    // The page's own routes fall back to index.html; API paths keep their JSON 404.
    app.get('*', async (c, next) => {
      if (API_PATH.test(c.req.path)) return next();
      const found = await files(c, async () => {});
      return found ?? page(c, next);
    });
  } else {
    app.get('/', (c) => c.html(PLACEHOLDER_HTML));
  }
}
