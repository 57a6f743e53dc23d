import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** What the proxy sends to the model server: a fetch-shaped call (`globalThis.fetch` is one). */
export interface UpstreamRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}
export type UpstreamFetch = (url: string, init: UpstreamRequest) => Promise<Response>;

const DECODERS: Record<string, () => Transform> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/**
 * Calls the model server over node:http(s) with keep-alive connections and answers with a fetch
 * `Response`, as `globalThis.fetch` would. Why not fetch itself: undici's fetch spends about
 * 0.7 ms of CPU more per call on the proxy's thread (its Request, header lists and stream
 * plumbing), all of it before the first token (bench/results/2026-11-25-s9-proxy.md).
 *
 * As fetch does, it asks for gzip, deflate or br and hands back the decoded body (the proxy drops
 * `content-encoding` when it passes the response on), and the signal aborts the call, also
 * mid-body. Unlike fetch it follows no redirect: a 3xx reaches the client like any other status.
 * A transport failure rejects with the socket's error (e.g. ECONNREFUSED).
 */
/** The model server sent no response headers in time. */
export class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
  constructor(readonly ms: number) {
    super(`the model server sent no answer within ${Math.round(ms / 1000)} s`);
  }
}

export interface UpstreamFetchOptions {
  /** Longest wait for the response's headers; past it the call fails with UpstreamTimeout. @default none */
  headersTimeoutMs?: number;
}

export function createUpstreamFetch(options: UpstreamFetchOptions = {}): UpstreamFetch {
  // One pool per proxy; idle sockets are unref'd by the agent and closed before the server's
  // announced keep-alive timeout (Node reads the Keep-Alive hint).
  const agents = { http: new HttpAgent({ keepAlive: true, scheduling: 'lifo' }), https: new HttpsAgent({ keepAlive: true, scheduling: 'lifo' }) };
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') throw new TypeError(`Unsupported protocol ${target.protocol} in ${url}`);
      const signal = init.signal;
      if (signal?.aborted) return reject(signal.reason);
      const headers: Record<string, string | number> = { 'accept-encoding': 'gzip, deflate, br', ...init.headers };
      if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
      const request: RequestOptions = { method: init.method, headers, agent: secure ? agents.https : agents.http };
      let timer: NodeJS.Timeout | undefined;
      const req: ClientRequest = (secure ? httpsRequest : httpRequest)(target, request, (res) => {
        clearTimeout(timer);
        try {
          resolve(toResponse(res, signal, () => req.destroy(signal?.reason)));
        } catch (error) {
          req.destroy();
          reject(error);
        }
      });
      const abort = (): void => {
        req.destroy(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      // Rejects only before the response: afterwards the body stream carries the error.
      req.on('error', reject);
      req.once('close', () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
      });
      const wait = options.headersTimeoutMs;
      if (wait !== undefined) timer = setTimeout(() => req.destroy(new UpstreamTimeout(wait)), wait);
      req.end(init.body);
    });
}

/** The response with its body as a web stream, decoded, read only as fast as it is consumed. */
function toResponse(res: IncomingMessage, signal: AbortSignal | undefined, abort: () => void): Response {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 502;
  // fetch's null-body statuses: a Response must not be given a body for them.
  if (status === 204 || status === 205 || status === 304 || res.method === 'HEAD') {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers });
  }
  const coding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = DECODERS[coding]?.();
  const source: Readable = decoder ? res.pipe(decoder) : res;
  // pipe() passes no error on: a reset socket must still end the decoded body.
  if (decoder) res.on('error', (error) => decoder.destroy(error));
  let settled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        controller.error(signal?.aborted ? signal.reason : error);
      };
      source.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.once('end', () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      // Also a socket closed before the body ended (the server went away, or the signal aborted
      // the call): the response emits an error (ECONNRESET) then.
      source.on('error', fail);
    },
    pull() {
      source.resume();
    },
    cancel() {
      settled = true;
      abort();
    },
  });
  return new Response(body, { status, statusText: res.statusMessage, headers });
}
