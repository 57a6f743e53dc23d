import type { MemoryKind } from '../domain/memory.js';
import type { MemoryEngine } from '../memory-engine.js';
import { mentionsTopic } from '../text/mentions.js';

/** A memory forgetting a topic would erase. */
export interface ForgetPreviewItem {
  id: string;
  kind: MemoryKind;
  content: string;
}

/**
 * What forgetting a topic would erase, at least: the user's memories that mention it (recalled,
 * nothing recorded as used). The real run also erases close paraphrases (vector matches) and the
 * messages that mention it, and rewrites the profile without it.
 */
export async function previewForgetTopic(engine: Pick<MemoryEngine, 'recall'>, userId: string, topic: string): Promise<ForgetPreviewItem[]> {
  const found = await engine.recall({ userId, query: topic, limit: 50, touch: false });
  return found.filter((r) => mentionsTopic(r.memory.content, topic)).map((r) => ({ id: r.memory.id, kind: r.memory.kind, content: r.memory.content }));
}
