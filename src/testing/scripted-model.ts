import { EngramError } from '../errors.js';
import type { GenerateResult, LanguageModelPort } from '../models/language-model.js';
import { parseModelOutput, renderPrompt, validateModelOutput } from '../models/structured-output.js';
import { createUsageMeter, type UsageMeter } from '../models/usage.js';
import { promptRef, type PromptMessage, type PromptModule } from '../prompts/prompt.js';
import { countTokens } from '../text/tokens.js';

/**
 * One scripted answer: an output object (validated with the prompt's output schema), a string
 * (raw model text, parsed like a real answer, so malformed JSON can be scripted), or an Error
 * (thrown as is, e.g. `new EngramError('MODEL_TIMEOUT', ...)`).
 */
export type ScriptedAnswer = unknown;

export type ScriptFunction = (
  promptId: string,
  input: unknown,
  built: { system: string; messages: PromptMessage[] },
) => ScriptedAnswer | Promise<ScriptedAnswer>;

/**
 * A list answered in order, a function, or lists keyed by prompt id (each answered in order),
 * for pipelines that call several prompts.
 */
export type Script = readonly ScriptedAnswer[] | ScriptFunction | Readonly<Record<string, readonly ScriptedAnswer[]>>;

/** Everything the scripted model saw and did in one call. */
export interface ScriptedCall {
  promptId: string;
  /** "id@version" */
  prompt: string;
  input: unknown;
  /** System text as sent to a real model (prompt text + JSON instructions). */
  system: string;
  messages: PromptMessage[];
  output?: unknown;
  raw?: string;
  error?: unknown;
}

export interface ScriptedModel extends LanguageModelPort {
  readonly calls: readonly ScriptedCall[];
  readonly usage: UsageMeter;
  /** Calls made for one prompt id. */
  callsFor(promptId: string): ScriptedCall[];
  /** Answers not used yet (list scripts only). */
  remaining(): number;
}

export interface ScriptedModelOptions {
  /** @default "scripted" */
  id?: string;
  usage?: UsageMeter;
}

/**
 * A real LanguageModelPort that answers from a script and records every call: no network, no
 * mocking framework. Inputs are validated and outputs parsed with the same code as the real
 * model, so a pipeline test catches schema mistakes. Tokens are counted with the real tokenizer.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  const id = options.id ?? 'scripted';
  const usage = options.usage ?? createUsageMeter();
  const calls: ScriptedCall[] = [];
  const cursors = new Map<string, number>();

  function next(promptId: string, input: unknown, built: { system: string; messages: PromptMessage[] }): ScriptedAnswer | Promise<ScriptedAnswer> {
    if (typeof script === 'function') return script(promptId, input, built);
    const list = Array.isArray(script) ? script : (script as Record<string, readonly ScriptedAnswer[]>)[promptId];
    const key = Array.isArray(script) ? '' : promptId;
    const index = cursors.get(key) ?? 0;
    if (!list || index >= list.length) {
      throw new EngramError('MODEL_FAILED', `Scripted model has no answer left for prompt ${promptId} (call ${index + 1})`, {
        details: { model: id, promptId, scripted: list?.length ?? 0 },
      });
    }
    cursors.set(key, index + 1);
    return list[index];
  }

  function remaining(): number {
    if (typeof script === 'function') return 0;
    if (Array.isArray(script)) return script.length - (cursors.get('') ?? 0);
    return Object.entries(script as Record<string, readonly ScriptedAnswer[]>).reduce((sum, [key, list]) => sum + list.length - (cursors.get(key) ?? 0), 0);
  }

  return {
    id,
    usage,
    calls,
    callsFor: (promptId) => calls.filter((c) => c.promptId === promptId),
    remaining,
    async generate<I, O>(prompt: PromptModule<I, O>, input: I): Promise<GenerateResult<O>> {
      const built = renderPrompt(prompt, input);
      const call: ScriptedCall = { promptId: prompt.id, prompt: promptRef(prompt), input, system: built.system, messages: built.messages };
      calls.push(call);
      const inputTokens = countTokens(built.system) + built.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
      let outputTokens = 0;
      try {
        const answer = await next(prompt.id, input, built);
        if (answer instanceof Error) throw answer;
        let output: O;
        let raw: string;
        if (typeof answer === 'string') {
          raw = answer;
          outputTokens = countTokens(raw);
          output = parseModelOutput(prompt, raw);
        } else {
          raw = JSON.stringify(answer);
          outputTokens = countTokens(raw);
          output = validateModelOutput(prompt, answer, raw);
        }
        call.output = output;
        call.raw = raw;
        usage.record({ promptId: prompt.id, ok: true, attempts: 1, inputTokens, outputTokens });
        return { output, usage: { inputTokens, outputTokens }, raw };
      } catch (error) {
        call.error = error;
        usage.record({ promptId: prompt.id, ok: false, attempts: 1, inputTokens, outputTokens });
        throw error;
      }
    },
  };
}
