import { createHash } from 'node:crypto';
import type { Logger } from '../deps.js';
import { EngramError } from '../errors.js';
import { forgetNotice } from '../context/forget-notice.js';
import { readForgetRequest, requestLabel } from '../extraction/forget-request.js';
import { detectLanguage } from '../text/language.js';
import { countTokens } from '../text/tokens.js';

/**
 * The slice of Engram a door needs for one chat turn: the context block before the model call,
 * then the two messages and the usage report after it. The in-process engine (`MemoryEngine`)
 * has it (the tests pass one); `turnMemoryOfClient` adapts the HTTP client.
 */
export interface TurnMemory {
  context(options: { userId: string; query: string; tokenBudget: number; sessionId?: string }): Promise<{ text: string; tokens: number; included: ReadonlyArray<{ type: string; id: string }> }>;
  appendMessages(options: { messages: Array<{ id: string; userId: string; sessionId: string; role: 'user' | 'assistant'; content: string }> }): Promise<unknown>;
  /**
   * The session's latest messages, oldest first: a request that continues a thread the model server
   * holds (the Responses API's `previous_response_id`) and sends only tool outputs takes its query
   * from the user's last message here. When absent, such a request goes on without memory.
   */
  workingWindow?(userId: string, sessionId: string, size?: number): Promise<ReadonlyArray<{ role: string; content: string }>>;
  /**
   * What the user's message will ask to be forgotten once recorded (the engine's `forgetRequest`: a
   * bare "forget tacos" asks only of someone remembered). When absent, the patterns alone decide.
   */
  forgetRequest?(options: { userId: string; sessionId?: string; content: string }): Promise<{ topic: string; time?: boolean } | undefined>;
  /** Reinforcement by use (the engine, or the HTTP client over POST /v1/users/{userId}/replies); when absent nothing is reinforced. */
  reportReply?(input: { userId: string; message: string; reply: string; recalledIds: readonly string[] }): Promise<unknown>;
}

/** What went into the prompt for one turn. */
export interface PreparedTurn {
  /**
   * used: a block was added; empty: nothing relevant; unavailable: Engram failed; timeout: the block
   * was not ready within the deadline (in these two the call goes on without memory); forgetting:
   * the user asked to forget a topic, and the model gets only that notice (`forgetNotice`).
   */
  status: 'used' | 'empty' | 'unavailable' | 'timeout' | 'forgetting';
  text: string;
  tokens: number;
  /** Memories and episodes in the block: what reportReply may reinforce. */
  recalledIds: string[];
  /** The error code when unavailable. */
  errorCode?: string;
}

/** The topic the user's message asks to be forgotten: the engine's reading when it has one (a failure falls back to the patterns, logged). */
async function forgetAsked(memory: TurnMemory, input: { userId: string; query: string; logger: Logger; sessionId?: string }): Promise<{ topic: string; time?: boolean } | undefined> {
  if (!memory.forgetRequest) return patternRead(input.query);
  try {
    return await memory.forgetRequest({ userId: input.userId, content: input.query, ...(input.sessionId ? { sessionId: input.sessionId } : {}) });
  } catch (error) {
    input.logger.warn('reading a forget request failed; read by the patterns alone', { code: EngramError.isInstance(error) ? error.code : 'UNKNOWN', error: String(error) });
    return patternRead(input.query);
  }
}

/** The patterns' reading of a forget request, shaped as the engine's. */
function patternRead(query: string): { topic: string; time?: boolean } | undefined {
  const read = readForgetRequest(query);
  return read && { topic: requestLabel(read), ...(read.when ? { time: true } : {}) };
}

/**
 * Builds the context block for the user's message. Never throws: a failure of Engram's own part
 * degrades to "unavailable" (logged) so the assistant still answers, only without memory.
 */
export async function prepareTurn(
  memory: TurnMemory,
  input: { userId: string; query: string; tokenBudget: number; logger: Logger; timeoutMs?: number; sessionId?: string },
): Promise<PreparedTurn> {
  // The topic goes once the turn is recorded (appendMessages); until then its memories stay out of
  // the prompt, so the reply cannot retell them into the session.
  const asked = await forgetAsked(memory, input);
  if (asked) {
    const text = forgetNotice(asked.topic, detectLanguage(input.query), { time: asked.time === true });
    return { status: 'forgetting', text, tokens: countTokens(text), recalledIds: [] };
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    // With the session, its working window (which the caller sends anyway) is not repeated as excerpts.
    const building = memory.context({ userId: input.userId, query: input.query, tokenBudget: input.tokenBudget, ...(input.sessionId ? { sessionId: input.sessionId } : {}) });
    const deadline = input.timeoutMs === undefined ? undefined : new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), input.timeoutMs)));
    const block = deadline ? await Promise.race([building, deadline]) : await building;
    if (block === 'timeout') {
      // The late block is dropped; its failure, if any, must not surface as an unhandled rejection.
      building.catch((error: unknown) => input.logger.warn('memory context failed after its deadline', { error: String(error) }));
      input.logger.warn('memory context missed its deadline; the call goes on without memory', { timeoutMs: input.timeoutMs });
      return { status: 'timeout', text: '', tokens: 0, recalledIds: [] };
    }
    const recalledIds = block.included.filter((i) => i.type === 'memory' || i.type === 'episode').map((i) => i.id);
    return { status: block.text === '' ? 'empty' : 'used', text: block.text, tokens: block.tokens, recalledIds };
  } catch (error) {
    const errorCode = EngramError.isInstance(error) ? error.code : 'UNKNOWN';
    input.logger.warn('memory context failed; the call goes on without memory', { code: errorCode, error: String(error) });
    return { status: 'unavailable', text: '', tokens: 0, recalledIds: [], errorCode };
  } finally {
    clearTimeout(timer);
  }
}

/** A stable message id, so a retried or tool-looping request never stores the same turn twice. */
export function turnMessageId(parts: readonly unknown[]): string {
  return 'turn-' + createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

export interface RecordTurnInput {
  userId: string;
  sessionId: string;
  /** The user's message; absent when the request had none (then nothing is recorded). */
  user?: { id: string; content: string };
  /** The assistant's reply; absent or empty when the model answered with tool calls only, or the client went away. */
  reply?: { id: string; content: string };
  recalledIds: readonly string[];
  logger: Logger;
}

/**
 * After the reply: both turns go to the session (extraction runs on silence as usual) and the
 * recalled memories that shaped the reply are reinforced. Failures are logged, never thrown: the
 * user already has their answer.
 */
export async function recordTurn(memory: TurnMemory, input: RecordTurnInput): Promise<void> {
  const { userId, sessionId } = input;
  const messages = [
    ...(input.user && input.user.content.trim() !== '' ? [{ id: input.user.id, userId, sessionId, role: 'user' as const, content: input.user.content }] : []),
    ...(input.reply && input.reply.content.trim() !== '' ? [{ id: input.reply.id, userId, sessionId, role: 'assistant' as const, content: input.reply.content }] : []),
  ];
  if (messages.length === 0) return;
  const codeOf = (error: unknown): string => (EngramError.isInstance(error) ? error.code : 'UNKNOWN');
  try {
    await memory.appendMessages({ messages });
  } catch (error) {
    input.logger.error('recording the turn failed', { code: codeOf(error), userId, sessionId, error: String(error) });
    return;
  }
  if (!memory.reportReply || !input.user || !input.reply || input.reply.content.trim() === '' || input.recalledIds.length === 0) return;
  try {
    await memory.reportReply({ userId, message: input.user.content, reply: input.reply.content, recalledIds: input.recalledIds });
  } catch (error) {
    // The turn is recorded; only this reply's reinforcement is skipped (e.g. the judge model answered garbage).
    input.logger.warn('reinforcing the memories the reply used failed; the turn is recorded', { code: codeOf(error), userId, sessionId, error: String(error) });
  }
}

/** Background work started after a response, so tests and shutdown can wait for it. */
export interface Background {
  run(task: Promise<void>): void;
  /** Resolves when everything started so far has finished. */
  idle(): Promise<void>;
}

export function createBackground(): Background {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      const tracked = task.finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/** The day's session id when the caller names none: one conversation per user and UTC day. */
export function dailySessionId(now: Date): string {
  return `chat-${now.toISOString().slice(0, 10)}`;
}

/** Appends the memory block to a system prompt text. */
export function withMemoryBlock(system: string, block: string): string {
  return system.trim() === '' ? block : `${system}\n\n${block}`;
}
