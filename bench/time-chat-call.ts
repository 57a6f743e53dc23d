import type { UpstreamFetch } from '../src/proxy/upstream-fetch.js';

/**
 * Milliseconds of one Chat Completions call (or, with `path` '/responses', one Responses API
 * call): until the whole body (stream false) or its first chunk (stream true). `call` is the client's transport: the bench passes the proxy's own
 * node:http keep-alive transport, the lightest client Node has, so the client's allocations and
 * pauses weigh on the figures as little as they can.
 */
export async function timeChatCall(base: string, body: unknown, stream: boolean, call: UpstreamFetch = fetch, headers: Record<string, string> = {}, path: '/chat/completions' | '/responses' = '/chat/completions'): Promise<number> {
  const t = performance.now();
  const res = await call(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) throw new Error(`status ${res.status}`);
  if (!stream) {
    await res.arrayBuffer();
    return performance.now() - t;
  }
  const reader = res.body.getReader();
  await reader.read();
  const elapsed = performance.now() - t;
  while (!(await reader.read()).done);
  return elapsed;
}
