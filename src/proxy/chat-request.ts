import { z } from 'zod';

/**
 * The part of an OpenAI Chat Completions body the proxy reads. Everything else (tools,
 * temperature, response_format, unknown future fields) passes through untouched: the objects are
 * loose, and the proxy forwards the original body with only the system message changed.
 */
const ContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
export const ChatMessage = z.looseObject({
  role: z.string().min(1),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatRequest = z.looseObject({
  model: z.string().min(1).optional(),
  messages: z.array(ChatMessage).min(1),
  stream: z.boolean().optional(),
  user: z.string().trim().min(1).max(256).optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** Plain text of a message's content (string, or the text parts of an array). */
export function messageText(message: ChatMessage): string {
  const c = message.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('\n');
  return '';
}

/** Index of the last user message, or -1. Tool results after it belong to the same turn. */
export function lastUserIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

const SYSTEM_ROLES = new Set(['system', 'developer']);

/**
 * The messages with the memory block appended to the first system (or developer) message, or a
 * new system message in front when there is none. No other message is touched or moved.
 */
export function injectMemory(messages: readonly ChatMessage[], block: string): ChatMessage[] {
  if (block === '') return [...messages];
  const at = messages.findIndex((m) => SYSTEM_ROLES.has(m.role));
  if (at === -1) return [{ role: 'system', content: block }, ...messages];
  const system = messages[at]!;
  const content = system.content;
  const next: ChatMessage = Array.isArray(content)
    ? { ...system, content: [...content, { type: 'text', text: block }] }
    : { ...system, content: typeof content === 'string' && content.trim() !== '' ? `${content}\n\n${block}` : block };
  return messages.map((m, i) => (i === at ? next : m));
}
