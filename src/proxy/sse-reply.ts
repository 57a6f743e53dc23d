import { z } from 'zod';
import { responseText } from './responses-request.js';

/** Reads a reply's text out of an event stream as its bytes pass by, without changing or holding them. */
export interface SseReply {
  /** Each chunk, as it is forwarded. */
  push(bytes: Uint8Array): void;
  /** The stream ended. */
  end(): void;
  /** The assistant's text so far ('' when the model said nothing or the stream reported a failure). */
  text(): string;
  /** Data lines that were not JSON (the client got them as they were). */
  malformed(): number;
}

/**
 * The JSON of every `data:` line of a server-sent event stream, fed chunk by chunk. Lines that are
 * not JSON are counted, not thrown: the bytes are the client's to judge.
 */
function sseReader(onData: (json: unknown) => void): Omit<SseReply, 'text'> {
  const decoder = new TextDecoder();
  let buffer = '';
  let bad = 0;
  const line = (raw: string): void => {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!l.startsWith('data:')) return;
    const data = l.slice(5).trim();
    if (data === '' || data === '[DONE]') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      // Not ours to judge: the client gets the bytes as they were; we only count what we could not read.
      bad++;
      return;
    }
    onData(json);
  };
  const drain = (): void => {
    let nl = buffer.indexOf('\n');
    while (nl !== -1) {
      line(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf('\n');
    }
  };
  return {
    push(bytes) {
      buffer += decoder.decode(bytes, { stream: true });
      drain();
    },
    end() {
      buffer += decoder.decode();
      drain();
      if (buffer !== '') line(buffer);
      buffer = '';
    },
    malformed: () => bad,
  };
}

const Chunk = z.object({
  choices: z.array(z.object({ index: z.number().optional(), delta: z.object({ content: z.string().nullish() }).loose().optional() }).loose()),
}).loose();

/** The assistant's text of a Chat Completions event stream: choice 0's content deltas (the one a chat app shows). */
export function createSseReply(): SseReply {
  let reply = '';
  const reader = sseReader((json) => {
    const chunk = Chunk.safeParse(json);
    if (!chunk.success) return;
    for (const c of chunk.data.choices) if ((c.index ?? 0) === 0 && typeof c.delta?.content === 'string') reply += c.delta.content;
  });
  return { ...reader, text: () => reply };
}

const ResponsesEvent = z.looseObject({ type: z.string(), delta: z.string().optional(), response: z.unknown().optional() });

/**
 * The assistant's text of a Responses API event stream: the `response.output_text.delta` events
 * as they pass, replaced at the end by the finished response's own text (`response.completed`, or
 * `response.incomplete` when the model stopped at its limit: the user saw that much). A stream
 * that reports `response.failed` or `error` has no reply.
 */
export function createResponsesSseReply(): SseReply {
  let deltas = '';
  let final: string | undefined;
  let failed = false;
  const reader = sseReader((json) => {
    const event = ResponsesEvent.safeParse(json);
    if (!event.success) return;
    const { type } = event.data;
    if (type === 'response.output_text.delta' && event.data.delta !== undefined) deltas += event.data.delta;
    else if (type === 'response.completed' || type === 'response.incomplete') final = responseText(event.data.response);
    else if (type === 'response.failed' || type === 'error') failed = true;
  });
  return { ...reader, text: () => (failed ? '' : (final ?? deltas)) };
}
