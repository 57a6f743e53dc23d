import type { Memory, MemoryKind } from '../domain/memory.js';
import { MAX_CONTENT_LENGTH, SEMANTIC_KINDS } from '../domain/memory.js';
import { compressMemoriesPrompt } from '../prompts/compress-memories.js';
import { promptRef } from '../prompts/prompt.js';
import { detectLanguage } from '../text/language.js';
import type { ModelDeps } from './deps.js';
import { takeForgetGuard } from './forget-guard.js';
import { resolveSettings } from './settings.js';
import { protectedTopic } from '../lifecycle/protected-facts.js';
import { DEFAULT_DECAY_POLICY } from '../lifecycle/decay-policy.js';

export interface CompressionPolicy {
  /** Only memories at least this old are merged. */
  minAgeDays: number;
  /** …and recalled at most this many times. */
  maxAccessCount: number;
  /** A kind needs at least this many such memories. */
  minGroup: number;
  /** At most this many go into one model call. */
  maxGroup: number;
}
/** Seed 004 §2.2: older than 90 days, fewer than 5 accesses (the settings compressAfterDays / compressBelowAccesses). */
export const DEFAULT_COMPRESSION: CompressionPolicy = { minAgeDays: 90, maxAccessCount: 4, minGroup: 3, maxGroup: 20 };

/** The policy a user's settings ask for. */
export async function compressionPolicyFor(deps: ModelDeps, userId: string): Promise<CompressionPolicy> {
  const settings = await resolveSettings(deps.store, userId);
  return { ...DEFAULT_COMPRESSION, minAgeDays: settings.compressAfterDays, maxAccessCount: settings.compressBelowAccesses - 1 };
}

export interface CompressionReport {
  kind: MemoryKind;
  archived: string[];
  created: string[];
}

/**
 * Seed 004 §2.2: old, rarely used memories of one kind are merged by a model call into 1–3
 * memories that keep the essential facts. The originals are archived (not lost) and linked to the
 * result with 'derived-from'. Needs a model; without one nothing is compressed.
 */
export async function compressMemories(deps: ModelDeps, userId: string, given?: CompressionPolicy): Promise<CompressionReport[]> {
  if (!deps.model) return [];
  const policy = given ?? (await compressionPolicyFor(deps, userId));
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - policy.minAgeDays * 86_400_000);
  const old = (await deps.store.listMemories({ userId, kinds: SEMANTIC_KINDS, createdTo: cutoff, order: 'asc' })).filter(
    // What never decays is never merged away either: health, safety, identity, family, the top of the scale.
    (m) => !m.core && m.accessCount <= policy.maxAccessCount && m.kind !== 'todo' && m.importance < DEFAULT_DECAY_POLICY.neverDecayAt && !protectedTopic(m),
  );
  const reports: CompressionReport[] = [];
  for (const kind of new Set(old.map((m) => m.kind))) {
    const group = old.filter((m) => m.kind === kind).slice(0, policy.maxGroup);
    if (group.length < policy.minGroup) continue;
    const aliases = new Map(group.map((m, i) => [String(i + 1), m]));
    const guard = await takeForgetGuard(deps.store, userId);
    deps.stats.modelCalls++;
    const { output } = await deps.model.generate(compressMemoriesPrompt, {
      kind,
      memories: [...aliases].map(([alias, m]) => ({ alias, content: m.content, date: (m.happenedAt ?? m.createdAt).toISOString().slice(0, 10) })),
    });
    const merged = output.memories.map((c) => ({ ...c, sources: c.sources.map((a) => aliases.get(a)).filter((m): m is Memory => m !== undefined) })).filter((c) => c.sources.length > 0);
    const covered = new Set(merged.flatMap((c) => c.sources.map((m) => m.id)));
    // Only memories the model accounted for are archived: nothing is dropped silently.
    const archived = group.filter((m) => covered.has(m.id));
    if (merged.length === 0 || archived.length < policy.minGroup) continue;
    // A merged memory past the length every memory keeps (an export could not be imported back): the group stays as it is.
    if (merged.some((c) => c.content.length > MAX_CONTENT_LENGTH)) {
      deps.logger.warn('a compressed memory came back longer than a memory may be: the group is kept as it was', { code: 'MODEL_OUTPUT_INVALID', userId, kind, length: Math.max(...merged.map((c) => c.content.length)) });
      continue;
    }
    const vectors = await deps.embedder.embed(merged.map((c) => c.content));
    const created: Memory[] = merged.map((c) => ({
      id: deps.ids.next(), userId, kind, content: c.content, importance: Math.max(c.importance, ...c.sources.map((m) => m.importance)), confidence: 0.8,
      source: 'system', verified: false, core: false, status: 'active',
      provenance: { messageIds: [...new Set(c.sources.flatMap((m) => m.provenance.messageIds))], producedBy: promptRef(compressMemoriesPrompt) },
      language: detectLanguage(c.content), createdAt: now, updatedAt: now, accessCount: 0, embedderId: deps.embedder.id,
    }));
    const change = { actor: 'lifecycle' as const, producedBy: promptRef(compressMemoriesPrompt), at: now };
    const written = await deps.store.transaction(async (tx) => {
      // A forget during the model call wins: the merged text may restate what was forgotten.
      if (!(await guard.holds(tx))) return false;
      for (const [i, m] of created.entries()) {
        await tx.insertMemory(m, vectors[i] ?? null, { ...change, reason: `merged ${merged[i]!.sources.length} memories` });
        for (const source of merged[i]!.sources) {
          await tx.insertRelation({ id: deps.ids.next(), userId, sourceId: m.id, targetId: source.id, type: 'derived-from', strength: 1, reason: 'compression', createdAt: now });
        }
      }
      for (const m of archived) await tx.updateMemory(userId, m.id, { status: 'archived', updatedAt: now }, undefined, { ...change, reason: 'compressed into a merged memory' });
      return true;
    });
    if (!written) {
      deps.logger.warn('compression dropped: the user forgot something while it ran', { userId, kind });
      break;
    }
    reports.push({ kind, archived: archived.map((m) => m.id), created: created.map((m) => m.id) });
  }
  return reports;
}
