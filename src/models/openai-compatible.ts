import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Logger } from '../deps.js';
import { EngramError } from '../errors.js';
import { createModel, type ModelClient } from './language-model.js';
import type { BackoffOptions, Sleep } from './retry.js';
import type { UsageMeter } from './usage.js';

export interface OpenAICompatibleModelOptions {
  /** e.g. "https://api.openai.com/v1", "https://api.deepseek.com/v1", "http://127.0.0.1:11434/v1" (Ollama). */
  baseURL: string;
  /** Sent as a Bearer token; local servers usually need none. */
  apiKey?: string;
  /** Model name as the server knows it, e.g. "gpt-4o-mini", "deepseek-chat", "qwen-plus", "qwen3:8b". */
  model: string;
  /** Provider name, used in the model id. @default "openai-compatible" */
  name?: string;
  /** @default 60000 */
  timeoutMs?: number;
  /** @default 3 */
  maxRetries?: number;
  backoff?: BackoffOptions;
  /**
   * Ask the server to enforce the schema (`response_format: json_schema`, strict). Only OpenAI and
   * a few others support it; the default `json_object` works on Ollama, vLLM, DeepSeek and
   * DashScope, and the answer is validated locally either way. @default false
   */
  structuredOutputs?: boolean;
  temperature?: number;
  maxOutputTokens?: number;
  headers?: Record<string, string>;
  /** Custom fetch, e.g. for a proxy or for tests. */
  fetch?: typeof globalThis.fetch;
  sleep?: Sleep;
  logger?: Logger;
  usage?: UsageMeter;
}

/** A language model on any server that speaks the OpenAI chat-completions API. */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): ModelClient {
  const name = options.name ?? 'openai-compatible';
  const structuredOutputs = options.structuredOutputs ?? false;
  const provider = createOpenAICompatible({
    name,
    baseURL: options.baseURL,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    includeUsage: true,
    supportsStructuredOutputs: structuredOutputs,
  });
  return createModel({
    model: provider.chatModel(options.model),
    id: `${name}:${options.model}`,
    structuredOutputs,
    ...pick(options, ['timeoutMs', 'maxRetries', 'backoff', 'temperature', 'maxOutputTokens', 'sleep', 'logger', 'usage']),
  });
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/**
 * Reads ENGRAM_LLM_BASE_URL, ENGRAM_LLM_API_KEY and ENGRAM_LLM_MODEL. Returns undefined when
 * none is set (run without a model), and throws CONFIG_INVALID when the set is incomplete, so a
 * typo doesn't silently turn extraction off. `extra` adds what env can't carry (logger, usage).
 */
export function resolveModelFromEnv(
  env: Record<string, string | undefined> = process.env,
  extra: Partial<Omit<OpenAICompatibleModelOptions, 'baseURL' | 'apiKey' | 'model'>> = {},
): ModelClient | undefined {
  const baseURL = env['ENGRAM_LLM_BASE_URL']?.trim() || undefined;
  const apiKey = env['ENGRAM_LLM_API_KEY']?.trim() || undefined;
  const model = env['ENGRAM_LLM_MODEL']?.trim() || undefined;
  if (!baseURL && !apiKey && !model) return undefined;
  if (!baseURL || !model) {
    const missing = [!baseURL && 'ENGRAM_LLM_BASE_URL', !model && 'ENGRAM_LLM_MODEL'].filter(Boolean);
    throw new EngramError('CONFIG_INVALID', `Incomplete model configuration: set ${missing.join(' and ')} (or unset all ENGRAM_LLM_* variables)`, {
      details: { missing },
    });
  }
  return createOpenAICompatibleModel({ ...extra, baseURL, model, ...(apiKey === undefined ? {} : { apiKey }) });
}
