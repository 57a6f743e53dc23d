import type { z, ZodType } from 'zod';
import { EngramError } from '../errors.js';

/** One chat turn a prompt builds. The system text travels separately. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What `build(input)` returns: a system text and the conversation that follows it. */
export interface BuiltPrompt {
  system: string;
  messages: PromptMessage[];
}

/**
 * Every LLM call in Engram is a prompt module (STYLE habit 1): a stable id, a version that is
 * bumped whenever the text changes, a zod schema for what goes in and one for what must come
 * back, and a pure `build(input)`. The output schema is the one sent to the model and the one
 * its answer is parsed with, so a prompt and its contract can never drift apart.
 */
export interface PromptModule<I, O> {
  /** Stable kebab-case id, e.g. "extract-memories". */
  readonly id: string;
  /** Positive integer; bump it when the prompt text or the output schema changes. */
  readonly version: number;
  readonly input: ZodType<I>;
  readonly output: ZodType<O>;
  /**
   * A compact description of the JSON shape, sent instead of the full JSON Schema when the schema
   * would cost more tokens than it is worth. The answer is still validated with `output`.
   */
  readonly outputFormat?: string;
  build(input: I): BuiltPrompt;
}

const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Defines a prompt module, inferring `I` and `O` from the schemas and checking the id and version
 * once, at module load, so a typo fails loudly instead of producing untraceable memories.
 */
export function definePrompt<IS extends ZodType, OS extends ZodType>(definition: {
  id: string;
  version: number;
  input: IS;
  output: OS;
  outputFormat?: string;
  build(input: z.output<IS>): BuiltPrompt;
}): PromptModule<z.output<IS>, z.output<OS>> {
  if (!ID_PATTERN.test(definition.id)) {
    throw new EngramError('CONFIG_INVALID', `Prompt id "${definition.id}" must be kebab-case (a-z, 0-9 and single dashes)`);
  }
  if (!Number.isInteger(definition.version) || definition.version < 1) {
    throw new EngramError('CONFIG_INVALID', `Prompt "${definition.id}" version must be a positive integer, got ${definition.version}`);
  }
  return Object.freeze({ ...definition }) as PromptModule<z.output<IS>, z.output<OS>>;
}

/** "id@version": what a memory records as the prompt that produced it. */
export function promptRef(prompt: { readonly id: string; readonly version: number }): string {
  return `${prompt.id}@${prompt.version}`;
}
