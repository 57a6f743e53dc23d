import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** Serves a fetch handler on 127.0.0.1 at a free port, for tests and benchmarks; `close` stops it. */
export async function serveLoopback(fetch: (request: Request) => Response | Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  let port = 0;
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      port = info.port;
      resolve(s);
    });
  });
  // As in mock-upstream.ts: a busy single-process benchmark must not race the keep-alive timeout.
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 60_000;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
