import { z } from 'zod';
import { withMemoryBlock } from './memory-turn.js';

/**
 * The part of an OpenAI Responses API body (`POST /v1/responses`) the proxy reads. Everything else
 * (tools, reasoning, text format, store, unknown future fields) passes through untouched: the
 * objects are loose and an input item's content is read, never checked, so no item type the
 * proxy does not know is refused.
 */
const InputItem = z.looseObject({ type: z.string().optional(), role: z.string().optional(), content: z.unknown().optional() });
export type ResponsesInputItem = z.infer<typeof InputItem>;

export const ResponsesRequest = z.looseObject({
  model: z.string().min(1).optional(),
  input: z.union([z.string(), z.array(InputItem)]).optional(),
  instructions: z.string().nullish(),
  stream: z.boolean().optional(),
  user: z.string().trim().min(1).max(256).optional(),
  previous_response_id: z.string().nullish(),
  conversation: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

/** The text of a message's content: a string, or its parts of `types` (input_text, output_text) joined by `separator`. */
function contentText(content: unknown, types: ReadonlySet<string>, separator: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content as unknown[]) {
    if (typeof part !== 'object' || part === null) continue;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (typeof type === 'string' && types.has(type) && typeof text === 'string') texts.push(text);
  }
  return texts.join(separator);
}

const INPUT_TEXT = new Set(['input_text']);
const isUserMessage = (item: ResponsesInputItem): boolean => item.role === 'user' && (item.type === undefined || item.type === 'message');

/** Index of the last user message in an input list, or -1. Tool outputs after it belong to the same turn. */
export function lastUserItem(input: readonly ResponsesInputItem[]): number {
  for (let i = input.length - 1; i >= 0; i--) if (isUserMessage(input[i]!)) return i;
  return -1;
}

/**
 * The user's message this request answers and what identifies it within the conversation: the
 * input as a string, or the last user message of the input list with the items before it. The
 * earlier response or conversation it continues is part of the identity, so "yes" said in two
 * turns of one thread is two messages.
 */
export function responsesUserTurn(body: ResponsesRequest): { text: string; key: unknown[] } | undefined {
  const thread = threadOf(body);
  const { input } = body;
  if (input === undefined) return undefined;
  if (typeof input === 'string') return { text: input, key: [...thread, input] };
  const at = lastUserItem(input);
  if (at === -1) return undefined;
  return { text: contentText(input[at]!.content, INPUT_TEXT, '\n'), key: [...thread, input.slice(0, at + 1)] };
}

/** What identifies the reply to this request: the thread and the whole input. */
export function responsesReplyKey(body: ResponsesRequest): unknown[] {
  return [...threadOf(body), body.input ?? null, 'reply'];
}

/** The earlier response and the conversation a request continues (null for none), the conversation by its id however given. */
function threadOf(body: ResponsesRequest): [string | null, string | null] {
  return [body.previous_response_id ?? null, typeof body.conversation === 'string' ? body.conversation : (body.conversation?.id ?? null)];
}

/**
 * The body with the memory block appended to `instructions` (set when there are none): the
 * Responses API's system prompt, which a continued response does not inherit, so every turn
 * carries its own memory. The input is not touched.
 */
export function injectInstructions(body: ResponsesRequest, block: string): ResponsesRequest {
  if (block === '') return body;
  return { ...body, instructions: withMemoryBlock(body.instructions ?? '', block) };
}

const OUTPUT_TEXT = new Set(['output_text']);
const ResponseBody = z.looseObject({
  output: z.array(z.looseObject({ type: z.string().optional(), role: z.string().optional(), content: z.unknown().optional() })),
});

/**
 * The assistant's text of a response object: every output_text part of its assistant messages,
 * joined as the official SDKs join `output_text`. Undefined when it is not a response or has no
 * text (only tool calls, or a background response not yet run).
 */
export function responseText(response: unknown): string | undefined {
  const parsed = ResponseBody.safeParse(response);
  if (!parsed.success) return undefined;
  const texts = parsed.data.output
    .filter((item) => item.type === 'message' && (item.role === undefined || item.role === 'assistant'))
    .map((item) => contentText(item.content, OUTPUT_TEXT, ''));
  const text = texts.join('');
  return text === '' ? undefined : text;
}
