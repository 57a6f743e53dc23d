import type { LanguageModelMiddleware } from 'ai';
import { z } from 'zod';
import { silentLogger, systemClock, type Clock, type Logger } from '../deps.js';
import { UserId } from '../domain/user-id.js';
import { InvalidInputError, parseInput } from '../errors.js';
import { turnMemoryOfClient, type TurnClient } from './client-memory.js';
import { createBackground, dailySessionId, prepareTurn, recordTurn, turnMessageId, withMemoryBlock, type PreparedTurn, type TurnMemory } from '../proxy/memory-turn.js';

type TransformArgs = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0];
type CallOptions = TransformArgs['params'];
type Prompt = CallOptions['prompt'];
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

const Options = z.object({
  userId: z.string().trim().min(1).pipe(UserId),
  // As every route takes a session id: a session recorded here must be one the HTTP API can reach.
  sessionId: z
    .string()
    .trim()
    .min(1)
    .max(200, 'sessionId must be at most 200 characters (as every route takes a session id)')
    .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/u.test(s), 'sessionId must not contain control characters')
    .optional(),
  tokenBudget: z.number().int().min(0).default(800),
  contextTimeoutMs: z.number().int().min(1).default(2000),
});

export interface EngramMemoryOptions {
  /** The engine (`createMemory`), or anything with its context / appendMessages / reportReply. */
  memory?: TurnMemory;
  /** The HTTP client (`createClient` from engram/client) instead of an in-process engine; it reinforces what a reply used over POST /v1/users/{userId}/replies. */
  client?: TurnClient;
  userId: string;
  /** @default one session per user and UTC day */
  sessionId?: string;
  /** Token budget of the memory block. @default 800 */
  tokenBudget?: number;
  /** Longest wait for the memory block; past it the call goes on without memory. @default 2000 */
  contextTimeoutMs?: number;
  clock?: Clock;
  logger?: Logger;
}

export type EngramMiddleware = LanguageModelMiddleware & {
  /** Resolves when the turns of calls finished so far are recorded. */
  idle(): Promise<void>;
};

interface Turn {
  prepared: PreparedTurn;
  sessionId: string;
  user?: { id: string; content: string };
  replyId: string;
}

/** Text of a prompt message (user text parts; system content is a string). */
function textOf(message: Prompt[number]): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** The prompt with the block appended to the first system message, or a system message in front. */
function injectSystem(prompt: Prompt, block: string): Prompt {
  if (block === '') return prompt;
  const at = prompt.findIndex((m) => m.role === 'system');
  if (at === -1) return [{ role: 'system', content: block }, ...prompt];
  return prompt.map((m, i) => (i === at && m.role === 'system' ? { ...m, content: withMemoryBlock(m.content, block) } : m));
}

/**
 * The model's stream passed on part by part, the reply assembled as it passes. `done` gets the
 * whole reply once the stream ends, or undefined when it did not end whole: an error part, the
 * model's stream failing (a provider errors its stream when the call is aborted), the caller's
 * abort, or the reader cancelling. The user's message is recorded either way: a stopped reply
 * loses only the partial reply, as in the chat proxy. An app that stops reading without aborting
 * (a `break` out of `textStream`) leaves the SDK reading the model's stream to its end: the reply
 * was made whole, and is recorded.
 */
function watchReply(stream: ReadableStream<StreamPart>, abortSignal: AbortSignal | undefined, done: (reply: string | undefined) => void): ReadableStream<StreamPart> {
  const reader = stream.getReader();
  let text = '';
  let whole = true;
  let ended = false;
  const end = (reply: string | undefined): void => {
    if (ended) return;
    ended = true;
    done(reply);
  };
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        end(undefined);
        controller.error(error);
        return;
      }
      if (read.done) {
        end(whole && abortSignal?.aborted !== true ? text : undefined);
        controller.close();
        return;
      }
      const part = read.value;
      if (part.type === 'text-delta') text += part.delta;
      if (part.type === 'error') whole = false;
      controller.enqueue(part);
    },
    cancel(reason) {
      end(undefined);
      return reader.cancel(reason);
    },
  });
}

/**
 * Long-term memory for any AI SDK model (`wrapLanguageModel({ model, middleware: engramMemory(…) })`):
 * the memory block for the last user message goes into the system prompt, and after the reply —
 * streamed replies assembled as they pass — both turns are appended to the session and the
 * memories that shaped the reply are reinforced. If Engram fails, the call goes on without memory.
 */
export function engramMemory(options: EngramMemoryOptions): EngramMiddleware {
  const o = parseInput(Options, options, 'engramMemory options');
  const memory = options.memory ?? (options.client ? turnMemoryOfClient(options.client) : undefined);
  if (!memory) throw new InvalidInputError('engramMemory needs `memory` (the engine) or `client` (an HTTP client)');
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const background = createBackground();
  const turns = new WeakMap<CallOptions, Turn>();
  const record = (turn: Turn | undefined, reply: string | undefined): void => {
    if (!turn) return;
    background.run(
      recordTurn(memory, { userId: o.userId, sessionId: turn.sessionId, user: turn.user, reply: reply === undefined ? undefined : { id: turn.replyId, content: reply }, recalledIds: turn.prepared.recalledIds, logger }),
    );
  };

  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      const prompt = params.prompt;
      let at = -1;
      for (let i = prompt.length - 1; i >= 0 && at === -1; i--) if (prompt[i]!.role === 'user') at = i;
      const query = at === -1 ? '' : textOf(prompt[at]!);
      const sessionId = o.sessionId ?? dailySessionId(clock.now());
      const prepared: PreparedTurn = query.trim() === '' ? { status: 'empty', text: '', tokens: 0, recalledIds: [] } : await prepareTurn(memory, { userId: o.userId, query, tokenBudget: o.tokenBudget, logger, sessionId, timeoutMs: o.contextTimeoutMs });
      const plain = prompt.map((m) => [m.role, textOf(m)]);
      const next: CallOptions = { ...params, prompt: injectSystem(prompt, prepared.text) };
      turns.set(next, {
        prepared,
        sessionId,
        user: at === -1 ? undefined : { id: turnMessageId([o.userId, sessionId, plain.slice(0, at + 1)]), content: query },
        replyId: turnMessageId([o.userId, sessionId, plain, 'reply']),
      });
      return next;
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
      record(turns.get(params), text);
      return result;
    },
    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      return { stream: watchReply(stream, params.abortSignal, (reply) => record(turns.get(params), reply)), ...rest };
    },
    idle: () => background.idle(),
  };
}
