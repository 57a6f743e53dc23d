import { generateText, type LanguageModel, type OutputInterface } from 'ai';
import { silentLogger, type Logger } from '../deps.js';
import { EngramError } from '../errors.js';
import { promptRef, type PromptMessage, type PromptModule } from '../prompts/prompt.js';
import { backoffDelay, classifyFailure, defaultSleep, type BackoffOptions, type FailureInfo, type Sleep } from './retry.js';
import { outputJsonSchema, parseModelOutput, renderPrompt, repairMessage } from './structured-output.js';
import { createUsageMeter, type UsageMeter } from './usage.js';

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface GenerateOptions {
  /** Cancels the call, including any pending retry. Ends in MODEL_FAILED with `details.aborted`. */
  signal?: AbortSignal;
}

export interface GenerateResult<O> {
  /** The answer, parsed and validated with the prompt's output schema. */
  output: O;
  /** Tokens over every attempt of this call, rejected answers included. */
  usage: ModelUsage;
  /** The model's text exactly as received, for audit and debugging. */
  raw: string;
}

/**
 * The language-model port the pipelines depend on. It knows prompt modules, not chat APIs: it
 * sends a prompt and returns its validated output, or throws EngramError MODEL_FAILED,
 * MODEL_TIMEOUT or MODEL_OUTPUT_INVALID.
 */
export interface LanguageModelPort {
  /** e.g. "openai-compatible:qwen-plus"; recorded next to what the model produced. */
  readonly id: string;
  generate<I, O>(prompt: PromptModule<I, O>, input: I, options?: GenerateOptions): Promise<GenerateResult<O>>;
}

/** A port that also exposes its usage meter. */
export interface ModelClient extends LanguageModelPort {
  readonly usage: UsageMeter;
}

export interface CreateModelOptions {
  /** Any AI SDK language model (OpenAI-compatible, Anthropic, a MockLanguageModelV3, ...). */
  model: LanguageModel;
  /** @default "<provider>:<modelId>" */
  id?: string;
  /** Per attempt, not per call. @default 60000 */
  timeoutMs?: number;
  /** Retries after the first attempt on 408/429/5xx, network errors and timeouts. @default 3 */
  maxRetries?: number;
  /** @default { initialMs: 500, maxMs: 8000 } */
  backoff?: BackoffOptions;
  /**
   * How many times to ask again, with the validation error, after an answer that is not valid
   * JSON for the schema. Small models often fix their answer when told what was wrong; a second
   * failure is thrown. @default 1
   */
  invalidOutputRetries?: number;
  /**
   * Also send the JSON Schema in `response_format` (json_schema). Turn off for servers that only
   * accept json_object; the schema is always in the system text either way. @default true
   */
  structuredOutputs?: boolean;
  /** @default provider default */
  temperature?: number;
  maxOutputTokens?: number;
  /** Injected so tests don't wait through backoff. */
  sleep?: Sleep;
  logger?: Logger;
  /** @default a fresh meter, readable as `model.usage` */
  usage?: UsageMeter;
}

type ResponseFormat = NonNullable<Awaited<OutputInterface['responseFormat']>>;
type JsonSchema = Extract<ResponseFormat, { type: 'json' }>['schema'];

/**
 * An AI SDK output spec that asks for JSON but returns the text untouched: parsing is ours, so
 * a fenced or invalid answer becomes MODEL_OUTPUT_INVALID with the raw text, never an SDK error.
 */
function jsonTextOutput(responseFormat: ResponseFormat): OutputInterface<string, string, never> {
  return {
    name: 'engram-json-text',
    responseFormat: Promise.resolve(responseFormat),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}

function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
}

/** Wraps an AI SDK model into the port: structured output, retries, timeouts, usage. */
export function createModel(options: CreateModelOptions): ModelClient {
  const id = options.id ?? modelIdOf(options.model);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const invalidOutputRetries = options.invalidOutputRetries ?? 1;
  const sleep = options.sleep ?? defaultSleep;
  const logger = options.logger ?? silentLogger;
  const usage = options.usage ?? createUsageMeter();

  async function attempt(prompt: PromptModule<unknown, unknown>, system: string, messages: PromptMessage[], signal: AbortSignal) {
    const responseFormat: ResponseFormat =
      options.structuredOutputs === false
        ? { type: 'json' }
        : { type: 'json', schema: outputJsonSchema(prompt.output) as JsonSchema, name: prompt.id.replace(/[^a-zA-Z0-9_-]/g, '_') };
    const result = await generateText({
      model: options.model,
      system,
      messages,
      output: jsonTextOutput(responseFormat),
      maxRetries: 0, // our own loop retries, so it is testable and logged
      abortSignal: signal,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    });
    return {
      text: result.text,
      finishReason: result.finishReason,
      inputTokens: result.usage.inputTokens ?? 0,
      outputTokens: result.usage.outputTokens ?? 0,
    };
  }

  async function generate<I, O>(prompt: PromptModule<I, O>, input: I, callOptions: GenerateOptions = {}): Promise<GenerateResult<O>> {
    const rendered = renderPrompt(prompt, input); // INVALID_INPUT before any request is made
    const ref = promptRef(prompt);
    const callerSignal = callOptions.signal;
    const tokens: ModelUsage = { inputTokens: 0, outputTokens: 0 };
    let messages = rendered.messages;
    let attempts = 0;
    let retries = 0;
    let repairsLeft = invalidOutputRetries;

    const fail = (error: EngramError): never => {
      usage.record({ promptId: prompt.id, ok: false, attempts, ...tokens });
      logger.debug('model call failed', { model: id, prompt: ref, code: error.code, attempts });
      throw error;
    };
    const aborted = (cause: unknown) =>
      new EngramError('MODEL_FAILED', `Model call for ${ref} was aborted by the caller`, { cause, details: { model: id, prompt: ref, attempts, aborted: true } });

    for (;;) {
      if (callerSignal?.aborted) return fail(aborted(callerSignal.reason));
      attempts += 1;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
      let answer: Awaited<ReturnType<typeof attempt>>;
      try {
        answer = await attempt(prompt as PromptModule<unknown, unknown>, rendered.system, messages, signal);
      } catch (cause) {
        if (callerSignal?.aborted) return fail(aborted(cause));
        const timedOut = timeout.signal.aborted;
        const failure: FailureInfo = timedOut ? { retryable: true, message: `no answer within ${timeoutMs} ms` } : classifyFailure(cause);
        if (!failure.retryable || retries >= maxRetries) {
          const details: Record<string, unknown> = { model: id, prompt: ref, attempts, retryable: failure.retryable };
          if (failure.status !== undefined) details['status'] = failure.status;
          if (timedOut) {
            return fail(new EngramError('MODEL_TIMEOUT', `Model ${id} gave no answer for ${ref} within ${timeoutMs} ms (${attempts} attempts)`, { cause, details: { ...details, timeoutMs } }));
          }
          return fail(new EngramError('MODEL_FAILED', `Model ${id} failed on ${ref} after ${attempts} attempts: ${failure.message}`, { cause, details }));
        }
        retries += 1;
        // A server's Retry-After wins over our backoff, within reason.
        const delayMs = Math.max(backoffDelay(retries, options.backoff), Math.min(failure.retryAfterMs ?? 0, 60_000));
        logger.warn('model call failed, retrying', {
          model: id,
          prompt: ref,
          attempt: attempts,
          delayMs,
          reason: timedOut ? 'timeout' : failure.message,
          ...(failure.status === undefined ? {} : { status: failure.status }),
        });
        try {
          await sleep(delayMs, callerSignal);
        } catch (sleepError) {
          return fail(aborted(sleepError));
        }
        continue;
      } finally {
        clearTimeout(timer);
      }

      tokens.inputTokens += answer.inputTokens;
      tokens.outputTokens += answer.outputTokens;
      try {
        const output = parseModelOutput(prompt, answer.text);
        usage.record({ promptId: prompt.id, ok: true, attempts, ...tokens });
        return { output, usage: { ...tokens }, raw: answer.text };
      } catch (error) {
        if (!EngramError.hasCode(error, 'MODEL_OUTPUT_INVALID')) throw error;
        if (repairsLeft > 0) {
          repairsLeft -= 1;
          logger.warn('model answer invalid, asking again', { model: id, prompt: ref, attempt: attempts, error: error.message });
          messages = [...rendered.messages, { role: 'assistant', content: answer.text }, { role: 'user', content: repairMessage(error) }];
          continue;
        }
        return fail(
          new EngramError('MODEL_OUTPUT_INVALID', error.message, {
            cause: error.cause,
            details: { ...error.details, model: id, attempts, finishReason: answer.finishReason },
          }),
        );
      }
    }
  }

  return { id, usage, generate };
}
