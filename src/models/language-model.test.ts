import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Logger } from '../deps.js';
import { EngramError } from '../errors.js';
import { definePrompt, promptRef } from '../prompts/prompt.js';
import { createModel, type CreateModelOptions } from './language-model.js';
import { backoffDelay } from './retry.js';
import { extractJsonText } from './structured-output.js';
import { createUsageMeter } from './usage.js';

const listItems = definePrompt({
  id: 'list-items',
  version: 2,
  input: z.object({ text: z.string().min(1) }),
  output: z.object({ items: z.array(z.string()) }),
  build: ({ text }) => ({
    system: 'List the things the user mentions. 列出用户提到的东西。',
    messages: [{ role: 'user', content: text }],
  }),
});

type DoGenerate = ConstructorParameters<typeof MockLanguageModelV3>[0] extends infer P ? (P extends { doGenerate?: infer D } ? D : never) : never;
type DoGenerateResult = Extract<NonNullable<DoGenerate>, { content: unknown }>;

function reply(text: string, inputTokens = 11, outputTokens = 7): DoGenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
    },
    warnings: [],
  };
}

function apiError(status: number, headers: Record<string, string> = {}): APICallError {
  return new APICallError({ message: `HTTP ${status}`, url: 'http://x/v1/chat/completions', requestBodyValues: {}, statusCode: status, responseHeaders: headers });
}

/** A model whose answers are scripted step by step; each step returns a reply or throws. */
function stepModel(steps: Array<(signal: AbortSignal | undefined) => Promise<DoGenerateResult> | DoGenerateResult>) {
  let i = 0;
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'm1',
    doGenerate: async (options) => {
      const step = steps[Math.min(i++, steps.length - 1)]!;
      return step(options.abortSignal);
    },
  });
}

function recordingLogger() {
  const warnings: Array<{ msg: string; data?: Record<string, unknown> }> = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (msg, data) => warnings.push({ msg, ...(data ? { data } : {}) }) };
  return { logger, warnings };
}

function setup(model: MockLanguageModelV3, extra: Partial<CreateModelOptions> = {}) {
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const { logger, warnings } = recordingLogger();
  const client = createModel({ model, sleep, logger, ...extra });
  return { client, sleep, warnings };
}

function catchError(p: Promise<unknown>): Promise<EngramError> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => {
      if (!EngramError.isInstance(e)) throw e;
      return e;
    },
  );
}

describe('createModel', () => {
  it('sends system + messages with the schema, parses the answer and counts usage (中文 round-trip)', async () => {
    const model = stepModel([() => reply('{"items":["咖啡","green tea"]}')]);
    const { client } = setup(model);

    const result = await client.generate(listItems, { text: '我喜欢咖啡, and green tea' });

    expect(client.id).toBe('mock:m1');
    expect(result.output).toEqual({ items: ['咖啡', 'green tea'] });
    expect(result.raw).toBe('{"items":["咖啡","green tea"]}');
    expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 7 });

    const call = model.doGenerateCalls[0]!;
    const system = call.prompt.find((m) => m.role === 'system');
    expect(system?.content).toContain('列出用户提到的东西');
    expect(system?.content).toContain('"items"');
    expect(JSON.stringify(call.prompt)).toContain('我喜欢咖啡');
    expect(call.responseFormat).toMatchObject({ type: 'json', name: 'list-items', schema: { type: 'object' } });

    expect(client.usage.snapshot().byPrompt['list-items']).toEqual({ calls: 1, failures: 0, attempts: 1, inputTokens: 11, outputTokens: 7 });
  });

  it('omits the schema from response_format when structuredOutputs is off (json_object servers)', async () => {
    const model = stepModel([() => reply('{"items":[]}')]);
    const { client } = setup(model, { structuredOutputs: false });
    await client.generate(listItems, { text: 'nothing' });
    expect(model.doGenerateCalls[0]!.responseFormat).toEqual({ type: 'json' });
  });

  it('tolerates a ```json fence and a leading <think> block', async () => {
    const model = stepModel([() => reply('<think>hmm</think>\n```json\n{"items":["茶"]}\n```')]);
    const { client } = setup(model);
    expect((await client.generate(listItems, { text: '茶' })).output).toEqual({ items: ['茶'] });
    expect(extractJsonText('  {"a":1}  ')).toBe('{"a":1}');
  });

  it('asks once more after an invalid answer, telling the model what was wrong', async () => {
    const model = stepModel([() => reply('{"things":["x"]}', 10, 5), () => reply('{"items":["x"]}', 20, 6)]);
    const { client, sleep, warnings } = setup(model);

    const result = await client.generate(listItems, { text: 'x' });

    expect(result.output).toEqual({ items: ['x'] });
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 11 });
    expect(sleep).not.toHaveBeenCalled();
    const second = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(second).toContain('{\\"things\\":[\\"x\\"]}');
    expect(second).toContain('items');
    expect(warnings.map((w) => w.msg)).toEqual(['model answer invalid, asking again']);
    expect(client.usage.snapshot().total).toMatchObject({ calls: 1, failures: 0, attempts: 2 });
  });

  it('throws MODEL_OUTPUT_INVALID with the raw text when the answer stays invalid', async () => {
    const model = stepModel([() => reply('not json at all')]);
    const { client } = setup(model);

    const error = await catchError(client.generate(listItems, { text: 'x' }));

    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.details).toMatchObject({ raw: 'not json at all', reason: 'json', prompt: 'list-items@2', attempts: 2 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(client.usage.snapshot().byPrompt['list-items']).toMatchObject({ calls: 1, failures: 1, attempts: 2 });
  });

  it('reports schema issues without a re-ask when invalidOutputRetries is 0', async () => {
    const model = stepModel([() => reply('{"items":"咖啡"}')]);
    const { client } = setup(model, { invalidOutputRetries: 0 });
    const error = await catchError(client.generate(listItems, { text: 'x' }));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.details).toMatchObject({ reason: 'schema', raw: '{"items":"咖啡"}' });
    expect(error.details?.['issues']).toEqual([expect.stringContaining('items')]);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('retries 429 and 5xx with exponential backoff, honouring Retry-After', async () => {
    const model = stepModel([
      () => Promise.reject(apiError(429, { 'retry-after': '2' })),
      () => Promise.reject(apiError(503)),
      () => Promise.reject(apiError(500)),
      () => reply('{"items":["ok"]}'),
    ]);
    const { client, sleep, warnings } = setup(model, { backoff: { initialMs: 100, maxMs: 300 } });

    const result = await client.generate(listItems, { text: 'x' });

    expect(result.output).toEqual({ items: ['ok'] });
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([2000, 200, 300]);
    expect(warnings.map((w) => w.data?.['status'])).toEqual([429, 503, 500]);
    expect(client.usage.snapshot().total).toMatchObject({ calls: 1, failures: 0, attempts: 4 });
  });

  it('gives up with MODEL_FAILED after maxRetries, with status and attempts', async () => {
    const model = stepModel([() => Promise.reject(apiError(500))]);
    const { client, sleep } = setup(model, { maxRetries: 2 });
    const error = await catchError(client.generate(listItems, { text: 'x' }));
    expect(error.code).toBe('MODEL_FAILED');
    expect(error.details).toMatchObject({ status: 500, attempts: 3, retryable: true });
    expect(APICallError.isInstance(error.cause)).toBe(true);
    expect(sleep).toHaveBeenCalledTimes(2);
  });

  it('does not retry a 400', async () => {
    const model = stepModel([() => Promise.reject(apiError(400))]);
    const { client, sleep } = setup(model);
    const error = await catchError(client.generate(listItems, { text: 'x' }));
    expect(error.details).toMatchObject({ status: 400, attempts: 1, retryable: false });
    expect(sleep).not.toHaveBeenCalled();
  });

  it('retries network errors (a socket reset under fetch failed)', async () => {
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const model = stepModel([() => Promise.reject(reset), () => reply('{"items":[]}')]);
    const { client, sleep } = setup(model);
    await expect(client.generate(listItems, { text: 'x' })).resolves.toMatchObject({ output: { items: [] } });
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it('times out each attempt and ends in MODEL_TIMEOUT after the retries', async () => {
    const hang = (signal: AbortSignal | undefined) =>
      new Promise<DoGenerateResult>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const model = stepModel([hang]);
    const { client, sleep } = setup(model, { timeoutMs: 20, maxRetries: 1 });
    const error = await catchError(client.generate(listItems, { text: 'x' }));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.details).toMatchObject({ timeoutMs: 20, attempts: 2 });
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it('stops without retrying when the caller aborts', async () => {
    const controller = new AbortController();
    const model = stepModel([
      (signal) =>
        new Promise<DoGenerateResult>((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          controller.abort(new Error('user left'));
        }),
    ]);
    const { client, sleep } = setup(model);
    const error = await catchError(client.generate(listItems, { text: 'x' }, { signal: controller.signal }));
    expect(error.code).toBe('MODEL_FAILED');
    expect(error.details).toMatchObject({ aborted: true, attempts: 1 });
    expect(sleep).not.toHaveBeenCalled();
  });

  it('rejects invalid input before calling the model', async () => {
    const model = stepModel([() => reply('{"items":[]}')]);
    const { client } = setup(model);
    const error = await catchError(client.generate(listItems, { text: '' }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('shares one usage meter across models', async () => {
    const usage = createUsageMeter();
    await setup(stepModel([() => reply('{"items":[]}', 3, 4)]), { usage }).client.generate(listItems, { text: 'a' });
    await setup(stepModel([() => reply('{"items":[]}', 5, 6)]), { usage }).client.generate(listItems, { text: 'b' });
    expect(usage.snapshot()).toEqual({
      total: { calls: 2, failures: 0, attempts: 2, inputTokens: 8, outputTokens: 10 },
      byPrompt: { 'list-items': { calls: 2, failures: 0, attempts: 2, inputTokens: 8, outputTokens: 10 } },
    });
    usage.reset();
    expect(usage.snapshot().total.calls).toBe(0);
  });
});

describe('helpers', () => {
  it('backoff doubles and caps', () => {
    expect([1, 2, 3, 4, 5, 6].map((r) => backoffDelay(r))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('promptRef and definePrompt checks', () => {
    expect(promptRef(listItems)).toBe('list-items@2');
    expect(() => definePrompt({ ...listItems, id: 'Bad Id' })).toThrow(/kebab-case/);
    expect(() => definePrompt({ ...listItems, version: 0 })).toThrow(/positive integer/);
  });
});
