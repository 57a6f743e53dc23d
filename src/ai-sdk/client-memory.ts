import type { EngramClient } from '../client/client.js';
import type { TurnMemory } from '../proxy/memory-turn.js';

/** The two client methods a chat turn uses. */
export type TurnClient = Pick<EngramClient, 'context' | 'appendMessages'>;

/**
 * The HTTP client (`engram/client`) as a TurnMemory: context and messages go over the API.
 * The API has no reply-report route, so reinforcement by use does not happen this way.
 */
export function turnMemoryOfClient(client: TurnClient): TurnMemory {
  return {
    context: (options) => client.context(options),
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
