import type { Context, MiddlewareHandler } from 'hono';
import { InvalidInputError } from '../errors.js';
import type { AppEnv } from './auth.js';
import { isWellFormed } from './schemas.js';
import { strictUtf8 } from '../util/strict-utf8.js';

export { firstInvalidUtf8 } from '../util/strict-utf8.js';

/**
 * Reads a request body once (Hono caches it for the validators and handlers) and turns bytes that
 * are not UTF-8, malformed JSON or strings with lone surrogates anywhere in it into 400
 * INVALID_INPUT, naming where. Query strings too. Every body is decoded strictly, whatever its
 * content type: the chat proxy and the streaming chat read JSON from a `text/plain` body too
 * (what `fetch` sends for a string), and a lenient decoder would store U+FFFD for the bad bytes.
 */
export const jsonGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (!isWellFormed(name) || values.some((v) => !isWellFormed(v))) throw new InvalidInputError(`Invalid query: ${name}: must be well-formed Unicode`, { details: { field: name } });
  }
  // Not `c.req.raw.body`: on Node that getter builds a web stream the server's fast path avoids.
  if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return next();
  const json = /^application\/(.+\+)?json/i.test(c.req.header('content-type') ?? '');
  const text = await strictText(c, json ? 'json' : 'body');
  // An empty body with a JSON content type (a bodiless POST from a generic client) is no body.
  if (!json || text.trim() === '') return next();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new InvalidInputError('Malformed JSON in the request body', { cause, details: { target: 'json' } });
  }
  if (depthOf(body, MAX_DEPTH) > MAX_DEPTH) throw new InvalidInputError(`Invalid json: nested more than ${MAX_DEPTH} levels deep`, { details: { target: 'json' } });
  const bad = firstLoneSurrogate(body, '');
  if (bad !== null) throw new InvalidInputError(`Invalid json: ${bad || '(root)'}: must be well-formed Unicode (no lone surrogates)`, { details: { target: 'json', path: bad } });
  return next();
};

/** The body as text, refused unless it is UTF-8; cached where `c.req.text()` and `c.req.json()` find it. */
async function strictText(c: Context<AppEnv>, target: 'json' | 'body'): Promise<string> {
  const decoded = strictUtf8(new Uint8Array(await c.req.arrayBuffer()));
  if ('byteOffset' in decoded) throw new InvalidInputError(`Invalid ${target}: the body is not valid UTF-8 (byte ${decoded.byteOffset})`, { details: { target, byteOffset: decoded.byteOffset } });
  const text = decoded.text;
  // Hono keeps each body read as a promise here (its type says values): later reads reuse this text.
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
  return text;
}

/** Far deeper than any request Engram takes (a chat with tool calls is about ten): past it, a body is refused before anything walks it. */
const MAX_DEPTH = 100;

/** How deeply arrays and objects nest in a parsed body, counted without recursion and only up to just past `limit`. */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function firstLoneSurrogate(value: unknown, path: string): string | null {
  if (typeof value === 'string') return isWellFormed(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = firstLoneSurrogate(v, path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      if (!isWellFormed(k)) return here;
      const found = firstLoneSurrogate(v, here);
      if (found !== null) return found;
    }
  }
  return null;
}
