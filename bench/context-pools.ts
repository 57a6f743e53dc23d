/**
 * The three pools of the context benchmark (issue 17), for one LoCoMo conversation, each as its own
 * user in one store: every turn is appended session by session in the speakers' own words (speaker
 * A as the user, B as the other side), then
 *   offline      – each session extracted with the offline default (heuristic extractor);
 *   turns        – every turn also stored as a memory citing itself;
 *   observations – LoCoMo's own observations stored as memories citing their source turns.
 */
import { readFileSync } from 'node:fs';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory, type MemoryEngine } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../src/testing/clock.js';
import { locomoPath, type LocomoConversation, type LocomoTurn } from './locomo-data.js';

export const POOLS = ['offline', 'turns', 'observations'] as const;
export type PoolName = (typeof POOLS)[number];

export interface ContextPools {
  conversation: LocomoConversation;
  engine: MemoryEngine;
  userOf: Record<PoolName, string>;
  /** Memory id -> the turn ids it cites, per pool. */
  cites: Map<string, string[]>;
  /** Memories per pool. */
  memories: Record<PoolName, number>;
}

/** A turn in the speaker's own words: the "X said" frame removed, a shared image noted. */
export function ownWords(turn: LocomoTurn): string {
  const m = /^.*? said, "([\s\S]*)"(?: and shared ([\s\S]*))?$/.exec(turn.content);
  if (!m) return turn.content;
  return m[2] ? `${m[1]} [shares ${m[2]}]` : m[1]!;
}

/** LoCoMo's observations: per conversation, [speaker, fact, source turn ids]. */
export function loadObservations(): Array<Array<{ speaker: string; fact: string; turns: string[] }>> {
  const raw = JSON.parse(readFileSync(locomoPath(), 'utf8')) as Array<{ observation?: Record<string, Record<string, Array<[string, string | string[]]>>> }>;
  return raw.map((c) =>
    Object.values(c.observation ?? {}).flatMap((bySpeaker) =>
      Object.entries(bySpeaker).flatMap(([speaker, facts]) =>
        facts.map(([fact, ids]) => ({ speaker, fact, turns: (Array.isArray(ids) ? ids : [ids]).flatMap((s) => s.split(/[;,\s]+/)).filter(Boolean) })),
      ),
    ),
  );
}

export async function openContextPools(
  conversation: LocomoConversation,
  observations: ReadonlyArray<{ speaker: string; fact: string; turns: string[] }>,
  embedder: Embedder,
): Promise<ContextPools> {
  const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder, clock: fixedClock('2024-01-01T00:00:00Z') });
  const userOf = Object.fromEntries(POOLS.map((p) => [p, `${conversation.sampleId}-${p}`])) as Record<PoolName, string>;
  const [speakerA] = conversation.speakers;
  const sessions = [...new Set(conversation.turns.map((t) => t.sessionId))];
  const known = new Set(conversation.turns.map((t) => t.id));
  const cites = new Map<string, string[]>();
  for (const pool of POOLS) {
    const userId = userOf[pool];
    for (const sessionId of sessions) {
      const turns = conversation.turns.filter((t) => t.sessionId === sessionId);
      await engine.appendMessages({
        messages: turns.map((t) => ({ id: t.id, userId, sessionId, role: t.speaker === speakerA ? ('user' as const) : ('assistant' as const), content: ownWords(t), createdAt: t.createdAt })),
        retentionDays: 365 * 1000,
      });
      if (pool === 'offline') {
        for (let i = 0; i < 20 && (await engine.extract(userId, sessionId)).status !== 'nothing'; i++);
      }
      if (pool === 'turns') {
        for (const t of turns) {
          const m = await engine.add({ userId, content: ownWords(t), kind: 'fact', source: 'import', createdAt: t.createdAt, happenedAt: t.createdAt, provenance: { sessionId, messageIds: [t.id] } });
          cites.set(m.id, [t.id]);
        }
      }
    }
    if (pool === 'observations') {
      for (const o of observations) {
        const ids = o.turns.filter((id) => known.has(id));
        const first = conversation.turns.find((t) => t.id === ids[0]);
        const m = await engine.add({
          userId,
          content: o.fact,
          kind: 'fact',
          source: 'import',
          ...(first ? { createdAt: first.createdAt, happenedAt: first.createdAt } : {}),
          provenance: { messageIds: ids },
        });
        cites.set(m.id, ids);
      }
    }
  }
  for (const m of await engine.list({ userId: userOf.offline, limit: 100_000 })) cites.set(m.id, m.provenance.messageIds);
  const memories = Object.fromEntries(await Promise.all(POOLS.map(async (p) => [p, (await engine.list({ userId: userOf[p], limit: 100_000 })).length] as const))) as Record<PoolName, number>;
  return { conversation, engine, userOf, cites, memories };
}
