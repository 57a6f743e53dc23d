import { NewMemoryInput, type Memory } from '../domain/memory.js';
import type { ChangeContext } from '../domain/history.js';
import { parseInput } from '../errors.js';
import { detectLanguage } from '../text/language.js';
import type { MemoryDeps } from './deps.js';

/** Adds a memory by hand (no LLM): validated, embedded, stored with a 'create' history event. */
export async function addMemory(deps: MemoryDeps, input: NewMemoryInput, change: ChangeContext = { actor: 'user' }): Promise<Memory> {
  const data = parseInput(NewMemoryInput, input, 'memory');
  const now = deps.clock.now();
  const [vector] = await deps.embedder.embed([data.content]);
  const memory: Memory = {
    id: deps.ids.next(),
    userId: data.userId,
    agentId: data.agentId,
    sessionId: data.sessionId,
    kind: data.kind,
    content: data.content,
    structuredData: data.structuredData,
    importance: data.importance,
    confidence: data.confidence,
    source: data.source,
    verified: data.verified ?? (data.source === 'user' || data.source === 'manual'),
    core: data.core,
    status: 'active',
    provenance: data.provenance ?? { messageIds: [] },
    language: detectLanguage(data.content),
    createdAt: data.createdAt ?? now,
    updatedAt: data.createdAt ?? now,
    accessCount: 0,
    expiresAt: data.expiresAt,
    happenedAt: data.happenedAt,
    embedderId: deps.embedder.id,
  };
  await deps.store.insertMemory(memory, vector ?? null, change);
  return memory;
}
