import { z, type ZodType } from 'zod';
import { EngramError, parseInput } from '../errors.js';
import { promptRef, type BuiltPrompt, type PromptModule } from '../prompts/prompt.js';

/**
 * Structured output that works on every OpenAI-compatible server. Many (Ollama, vLLM, DeepSeek)
 * accept only `response_format: {type: "json_object"}`, so the JSON Schema also goes into the
 * system text, and the answer is parsed here with the prompt's own zod schema instead of relying
 * on the server to enforce it. Shared by the real model and the scripted test model, so both
 * reject the same answers.
 */

/** The prompt's output schema as JSON Schema, without the `$schema` noise. */
export function outputJsonSchema(schema: ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = json;
  return rest;
}

/** The instruction appended to every system text: the prompt's compact format, or its full JSON Schema. */
export function jsonInstructions(schema: ZodType, outputFormat?: string): string {
  if (outputFormat) return ['Reply with one JSON object and nothing else: no prose, no markdown. Shape:', outputFormat].join('\n');
  return [
    'Reply with one JSON object and nothing else: no prose, no markdown.',
    'It must validate against this JSON Schema:',
    JSON.stringify(outputJsonSchema(schema)),
  ].join('\n');
}

/**
 * Validates the input with the prompt's input schema (INVALID_INPUT on failure), builds the
 * messages and appends the JSON instructions to the system text.
 */
export function renderPrompt<I, O>(prompt: PromptModule<I, O>, input: I): BuiltPrompt {
  const parsed = parseInput(prompt.input, input, `input for prompt ${promptRef(prompt)}`);
  const built = prompt.build(parsed);
  const instructions = jsonInstructions(prompt.output, prompt.outputFormat);
  const system = built.system.trim().length > 0 ? `${built.system}\n\n${instructions}` : instructions;
  return { system, messages: built.messages };
}

const THINK_BLOCK = /^\s*<think>[\s\S]*?<\/think>/;
const FENCE = /```(?:json|JSON)?\s*\n?([\s\S]*?)\n?\s*```/;

/**
 * Finds the JSON text in a model answer: tolerates a leading <think> block (reasoning models on
 * Ollama/vLLM put it in the content) and a ```json fence. Returns the candidate, not a value.
 */
export function extractJsonText(raw: string): string {
  let text = raw.replace(THINK_BLOCK, '').trim();
  const fenced = FENCE.exec(text);
  if (fenced?.[1] !== undefined) text = fenced[1].trim();
  return text;
}

/**
 * Parses a raw model answer with the prompt's output schema. Never returns an empty default:
 * anything that is not valid JSON matching the schema is MODEL_OUTPUT_INVALID with the raw text
 * in `details.raw`.
 */
export function parseModelOutput<I, O>(prompt: PromptModule<I, O>, raw: string): O {
  const ref = promptRef(prompt);
  const text = extractJsonText(raw);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new EngramError('MODEL_OUTPUT_INVALID', `Model answer for ${ref} is not valid JSON`, {
      cause,
      details: { prompt: ref, reason: 'json', raw },
    });
  }
  return validateModelOutput(prompt, value, raw);
}

/** Validates an already-parsed value with the prompt's output schema. */
export function validateModelOutput<I, O>(prompt: PromptModule<I, O>, value: unknown, raw: string): O {
  const result = prompt.output.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
  throw new EngramError('MODEL_OUTPUT_INVALID', `Model answer for ${promptRef(prompt)} does not match its schema: ${issues.join('; ')}`, {
    cause: result.error,
    details: { prompt: promptRef(prompt), reason: 'schema', issues, raw },
  });
}

/** The follow-up turn used when the model is asked once more after an invalid answer. */
export function repairMessage(error: EngramError): string {
  const issues = error.details?.['issues'];
  const why = Array.isArray(issues) ? `It did not match the schema: ${issues.join('; ')}.` : 'It was not valid JSON.';
  return `Your previous reply could not be used. ${why} Reply again with only the JSON object.`;
}
