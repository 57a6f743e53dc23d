import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PAGE_GUARD_HEADERS, setResponseHeaders } from './response-headers.js';

/** An app whose outer middleware records the response the guard left, around a handler's own response. */
function appReturning(make: () => Response): { app: Hono; seen: { returned?: Response; final?: Response } } {
  const seen: { returned?: Response; final?: Response } = {};
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    seen.final = c.res;
  });
  app.use(async (c, next) => {
    await next();
    setResponseHeaders(c, PAGE_GUARD_HEADERS);
  });
  app.get('/', () => (seen.returned = make()));
  return { app, seen };
}

describe('setResponseHeaders', () => {
  it("sets the headers on a streamed response in place: the handler's own response goes out, not a copy (a copy's body is read ahead by the Node adapter)", async () => {
    const { app, seen } = appReturning(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('data: 你好\n\n'));
              controller.enqueue(new TextEncoder().encode('data: hello\n\n'));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    );
    const res = await app.request('/');
    expect(seen.final).toBe(seen.returned);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('data: 你好\n\ndata: hello\n\n');
  });

  it('copies a response whose headers cannot change (a redirect, a fetch passed on) and sets them on the copy', async () => {
    const { app, seen } = appReturning(() => Response.redirect('http://127.0.0.1/elsewhere', 302));
    const res = await app.request('/');
    expect(() => seen.returned!.headers.set('x-probe', '1')).toThrow(TypeError);
    expect(seen.final).not.toBe(seen.returned);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://127.0.0.1/elsewhere');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it("keeps a handler's own headers and body (c.json)", async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      setResponseHeaders(c, { 'X-Content-Type-Options': 'nosniff' });
    });
    app.get('/', (c) => c.json({ memory: '用户喜欢猫', en: 'The user likes cats' }, 201, { 'x-engram-memory': 'used' }));
    const res = await app.request('/');
    expect(res.status).toBe(201);
    expect(res.headers.get('x-engram-memory')).toBe('used');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual({ memory: '用户喜欢猫', en: 'The user likes cats' });
  });
});
