import type { z } from 'zod';
import { ChatRequest, injectMemory, lastUserIndex, messageText } from './chat-request.js';
import { injectInstructions, responsesReplyKey, ResponsesRequest, responsesUserTurn, responseText } from './responses-request.js';
import { createResponsesSseReply, createSseReply, type SseReply } from './sse-reply.js';

/** What every OpenAI request body the proxy adds memory to has. */
export interface ModelRequest {
  model?: string | undefined;
  stream?: boolean | undefined;
  user?: string | undefined;
}

/**
 * One OpenAI protocol the proxy speaks with memory: where it is forwarded, how its body is read
 * (the user's message), where the memory block goes, and how the reply is read back, whole or
 * streamed. The proxy's handling (user, session, deadline, recording, errors) is the same for all.
 */
export interface ProxyWire<Body extends ModelRequest> {
  /** The model server's path after its base URL, and the proxy's after /v1. */
  path: '/chat/completions' | '/responses';
  /** What the request is called in errors ("Invalid chat request: …"). */
  name: string;
  schema: z.ZodType<Body>;
  /** The user's message this request answers, and what identifies it in its conversation; undefined when the request has none. */
  userTurn(body: Body): { text: string; key: unknown[] } | undefined;
  /**
   * Whether the request continues a thread the model server holds, so the user's message it
   * answers may be an earlier request's (a tool output sent back with `previous_response_id`).
   */
  continuesThread(body: Body): boolean;
  /** What identifies the reply in its conversation. */
  replyKey(body: Body): unknown[];
  /** The body with the memory block in its system prompt; nothing else changed. */
  withMemory(body: Body, block: string): Body;
  /** The assistant's text of a whole (non-streamed) reply; undefined when it has none. */
  replyOf(json: unknown): string | undefined;
  /** Reads the assistant's text of a streamed reply as it passes. */
  streamReply(): SseReply;
  /**
   * The event that ends a stream the model server broke off mid-reply, as this API reports an error
   * in a stream (the official clients throw it with its code): the client learns the reply is cut
   * short, instead of a reset connection or a stream that looks finished.
   */
  streamFailure(message: string): string;
}

/** Chat Completions: memory appended to the system message, the reply in choice 0. */
export const CHAT_WIRE: ProxyWire<ChatRequest> = {
  path: '/chat/completions',
  name: 'chat request',
  schema: ChatRequest,
  userTurn(body) {
    const at = lastUserIndex(body.messages);
    return at === -1 ? undefined : { text: messageText(body.messages[at]!), key: [body.messages.slice(0, at + 1)] };
  },
  // The whole conversation is in every request.
  continuesThread: () => false,
  replyKey: (body) => [body.messages, 'reply'],
  withMemory: (body, block) => ({ ...body, messages: injectMemory(body.messages, block) }),
  replyOf(json) {
    const choices = (json as { choices?: Array<{ message?: { content?: unknown } }> } | null)?.choices;
    const content = Array.isArray(choices) ? choices[0]?.message?.content : undefined;
    return typeof content === 'string' ? content : undefined;
  },
  streamReply: createSseReply,
  streamFailure: (message) => `data: ${JSON.stringify({ error: { message, type: 'upstream_error', code: 'UPSTREAM_FAILED' } })}\n\n`,
};

/** The Responses API: memory appended to `instructions`, the reply in the output's text. */
export const RESPONSES_WIRE: ProxyWire<ResponsesRequest> = {
  path: '/responses',
  name: 'responses request',
  schema: ResponsesRequest,
  userTurn: responsesUserTurn,
  continuesThread: (body) => Boolean(body.previous_response_id || body.conversation),
  replyKey: responsesReplyKey,
  withMemory: injectInstructions,
  replyOf: responseText,
  streamReply: createResponsesSseReply,
  streamFailure: (message) => `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'UPSTREAM_FAILED', message, param: null })}\n\n`,
};

/** The OpenAI endpoints the proxy adds memory to, under /v1. */
export const MEMORY_PATHS = [CHAT_WIRE.path, RESPONSES_WIRE.path] as const;
