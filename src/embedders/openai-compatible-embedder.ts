import { z } from 'zod';
import { EngramError } from '../errors.js';
import { normalize, type Embedder } from './embedder.js';

export interface OpenAICompatibleEmbedderOptions {
  /** API root that `/embeddings` is appended to, e.g. "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1". */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; local servers such as Ollama need none. */
  apiKey?: string;
  /** Model name, e.g. "text-embedding-3-small", "nomic-embed-text", "text-embedding-v4". */
  model: string;
  /**
   * Vector length. When set it is sent as `dimensions` (for models that can shorten vectors) and
   * every answer is checked against it; when unset it is learned from the first answer.
   */
  dimensions?: number;
  /**
   * Texts per request. DashScope accepts at most 10; OpenAI up to 2048.
   * @default 10
   */
  batchSize?: number;
  /**
   * Requests in flight at once.
   * @default 4
   */
  concurrency?: number;
  /**
   * Time limit of one request, in milliseconds.
   * @default 30000
   */
  timeoutMs?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Injected for tests and proxies. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
}

const EmbeddingsResponse = z.object({
  data: z
    .array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative().optional() }))
    .min(1),
});

/** Vector lengths of well-known models, so `dimensions` is right before the first call. */
const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const BODY_EXCERPT = 500;

/**
 * An embedder over any OpenAI-compatible `POST /embeddings` endpoint: OpenAI, Ollama, vLLM,
 * DashScope, LM Studio. Texts are sent in batches, answers validated, vectors L2-normalised.
 */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const url = `${options.baseURL.replace(/\/+$/, '')}/embeddings`;
  const batchSize = Math.max(1, options.batchSize ?? 10);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = options.fetch ?? globalThis.fetch;
  let dimensions = options.dimensions ?? KNOWN_DIMENSIONS[options.model] ?? 0;
  const where = { url, model: options.model };

  function fail(message: string, extra: { cause?: unknown; details?: Record<string, unknown> } = {}): EngramError {
    return new EngramError('EMBEDDING_FAILED', `Embedding with ${options.model} at ${url}: ${message}`, {
      cause: extra.cause,
      details: { ...where, ...extra.details },
    });
  }

  async function request(texts: string[]): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: options.model, input: texts };
    if (options.dimensions !== undefined) body['dimensions'] = options.dimensions;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          ...options.headers,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      throw fail(timedOut ? `no answer within ${timeoutMs} ms` : 'request failed', { cause, details: { timeoutMs } });
    }
    const text = await response.text().catch((cause: unknown) => {
      throw fail('could not read the response body', { cause, details: { status: response.status } });
    });
    if (!response.ok) {
      throw fail(`HTTP ${response.status}`, { details: { status: response.status, body: text.slice(0, BODY_EXCERPT) } });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw fail('the response is not JSON', { cause, details: { status: response.status, body: text.slice(0, BODY_EXCERPT) } });
    }
    const parsed = EmbeddingsResponse.safeParse(json);
    if (!parsed.success) {
      throw fail('the response does not look like an embeddings response', {
        cause: parsed.error,
        details: { status: response.status, body: text.slice(0, BODY_EXCERPT) },
      });
    }
    const items = parsed.data.data;
    if (items.length !== texts.length) {
      throw fail(`got ${items.length} vectors for ${texts.length} texts`, { details: { status: response.status } });
    }
    const ordered = items.every((d) => d.index !== undefined) ? [...items].sort((a, b) => a.index! - b.index!) : items;
    return ordered.map((d) => {
      if (dimensions === 0) dimensions = d.embedding.length;
      if (d.embedding.length !== dimensions) {
        throw fail(`got a ${d.embedding.length}-dimensional vector, expected ${dimensions}`, {
          details: { expected: dimensions, actual: d.embedding.length },
        });
      }
      return normalize(Float32Array.from(d.embedding));
    });
  }

  async function embed(texts: readonly string[]): Promise<Float32Array[]> {
    // Endpoints reject empty strings; an empty text gets the zero vector (similar to nothing).
    const pending = texts.map((_, i) => i).filter((i) => texts[i]!.trim().length > 0);
    const batches: number[][] = [];
    for (let start = 0; start < pending.length; start += batchSize) batches.push(pending.slice(start, start + batchSize));
    const results: Float32Array[][] = new Array(batches.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batches.length) {
        const b = next++;
        results[b] = await request(batches[b]!.map((i) => texts[i]!));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
    const out: Float32Array[] = texts.map(() => new Float32Array(dimensions));
    batches.forEach((batch, b) => batch.forEach((textIndex, j) => (out[textIndex] = results[b]![j]!)));
    return out;
  }

  return {
    id: `openai-compatible:${options.model}`,
    get dimensions() {
      return dimensions;
    },
    embed,
  };
}
