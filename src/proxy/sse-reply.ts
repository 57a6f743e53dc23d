import { z } from 'zod';

const Chunk = z.object({
  choices: z.array(z.object({ index: z.number().optional(), delta: z.object({ content: z.string().nullish() }).loose().optional() }).loose()),
}).loose();

/**
 * Reads the assistant's text out of an OpenAI Chat Completions event stream as its bytes pass
 * by, without changing or holding them: `push` each chunk as it is forwarded, `text()` at the end.
 * Only choice 0 is assembled (the one a chat app shows).
 */
export function createSseReply(): { push(bytes: Uint8Array): void; end(): void; text(): string; malformed(): number } {
  const decoder = new TextDecoder();
  let buffer = '';
  let reply = '';
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
    const chunk = Chunk.safeParse(json);
    if (!chunk.success) return;
    for (const c of chunk.data.choices) if ((c.index ?? 0) === 0 && typeof c.delta?.content === 'string') reply += c.delta.content;
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
    text: () => reply,
    malformed: () => bad,
  };
}
