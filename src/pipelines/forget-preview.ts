import type { MemoryKind } from '../domain/memory.js';
import type { MemoryDeps } from './deps.js';
import { topicFootprint } from './forget.js';

/** A memory forgetting a topic would erase. */
export interface ForgetPreviewItem {
  id: string;
  kind: MemoryKind;
  content: string;
}

/**
 * What forgetting a topic would erase, by the same selection the real run makes
 * (`topicFootprint`): the memories and episodes about it, deleted ones included, and those drawn
 * only from its messages that speak of someone unnamed. Nothing is recorded as used. The real
 * run also erases the messages and rewrites the profile without the topic.
 */
export async function previewForgetTopic(deps: MemoryDeps, userId: string, topic: string): Promise<ForgetPreviewItem[]> {
  const { memories } = await topicFootprint(deps, userId, topic);
  return memories.map((m) => ({ id: m.id, kind: m.kind, content: m.content }));
}
