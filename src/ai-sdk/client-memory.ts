import type { EngramClient } from '../client/client.js';
import type { TurnMemory } from '../proxy/memory-turn.js';

/** The client methods a chat turn uses; with `reportReply`, what a reply used is reinforced. */
export type TurnClient = Pick<EngramClient, 'context' | 'appendMessages'> & Partial<Pick<EngramClient, 'reportReply'>>;

/**
 * The HTTP client (`engram/client`) as a TurnMemory: context, messages and the reply report
 * (reinforcement by use, POST /v1/users/{userId}/replies) go over the API.
 */
export function turnMemoryOfClient(client: TurnClient): TurnMemory {
  const report = client.reportReply?.bind(client);
  return {
    context: (options) => client.context(options),
    ...(report ? { reportReply: (input: { userId: string; message: string; reply: string; recalledIds: readonly string[] }) => report(input) } : {}),
    async appendMessages({ messages }) {
      const sessions = new Map<string, typeof messages>();
      for (const m of messages) {
        const key = JSON.stringify([m.userId, m.sessionId]);
        sessions.set(key, [...(sessions.get(key) ?? []), m]);
      }
      for (const [key, group] of sessions) {
        const [userId, sessionId] = JSON.parse(key) as [string, string];
        await client.appendMessages({ userId, sessionId, messages: group.map(({ id, role, content }) => ({ id, role, content })) });
      }
    },
  };
}
