import type { z } from 'zod';
import { ErrorBody } from './schemas';

/** An error from the API (or from reaching it), with the server's code and request id. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    /** What the server says about the refusal beyond its message (the field, a todo time's reason). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
  /** The key itself was refused (wrong, revoked): the page asks for it again. A 403 is shown as an error instead. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export interface ClientOptions {
  /** The API key; empty in the server's open mode (loopback, no keys yet): no Authorization header is sent. */
  key: string;
  /** @default '' (same origin) */
  baseUrl?: string;
  /** Called on 401 so the page can ask for the key again. */
  onUnauthorized?: (error: ApiError) => void;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** A thin fetch wrapper: Bearer key, JSON in and out, every answer parsed by its schema. */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl ?? '';
  async function send(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extraHeaders },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new ApiError(0, 'NETWORK', cause instanceof Error ? cause.message : String(cause));
    }
    if (!res.ok) {
      const error = await toError(res);
      if (error.unauthorized) options.onUnauthorized?.(error);
      throw error;
    }
    return res;
  }
  async function json<T extends z.ZodType>(schema: T, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<z.infer<T>> {
    const res = await send(method, path, body, headers);
    const text = await res.text();
    const data: unknown = text ? JSON.parse(text) : null;
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new ApiError(res.status, 'BAD_RESPONSE', `${method} ${path}: ${parsed.error.message}`, res.headers.get('x-request-id') ?? undefined);
    return parsed.data;
  }
  return {
    key: options.key,
    send,
    get: <T extends z.ZodType>(schema: T, path: string, query?: Query) => json(schema, 'GET', withQuery(path, query)),
    post: <T extends z.ZodType>(schema: T, path: string, body?: unknown, headers?: Record<string, string>) => json(schema, 'POST', path, body ?? {}, headers),
    put: <T extends z.ZodType>(schema: T, path: string, body: unknown) => json(schema, 'PUT', path, body),
    patch: <T extends z.ZodType>(schema: T, path: string, body: unknown, headers?: Record<string, string>) => json(schema, 'PATCH', path, body, headers),
    del: async (path: string) => { await send('DELETE', path); },
    /** A DELETE whose answer is read (what it erased). */
    remove: <T extends z.ZodType>(schema: T, path: string) => json(schema, 'DELETE', path),
  };
}
export type Client = ReturnType<typeof createClient>;

async function toError(res: Response): Promise<ApiError> {
  const headerId = res.headers.get('x-request-id') ?? undefined;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page, say): the status line is all there is to show.
    return new ApiError(res.status, `HTTP_${res.status}`, text.slice(0, 200) || res.statusText, headerId);
  }
  const body = ErrorBody.safeParse(data);
  if (!body.success) return new ApiError(res.status, `HTTP_${res.status}`, res.statusText, headerId);
  const e = body.data.error;
  const details = e.details !== null && typeof e.details === 'object' && !Array.isArray(e.details) ? (e.details as Record<string, unknown>) : undefined;
  return new ApiError(res.status, e.code, e.message, e.requestId ?? body.data.requestId ?? headerId, details);
}
