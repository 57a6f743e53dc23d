import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { EngramError } from '../../src/errors.js';
import { createMemory, type MemoryEngine } from '../../src/memory.js';
import { userFolder } from '../../src/pipelines/sync-mirror.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../../src/testing/clock.js';
import { tempDir } from './harness.js';

/** Crafted ids: wildcards, SQL LIKE and path tricks, case, Unicode, quotes, control characters. */
const USERS = ['alice', 'Alice', '*', '%', '_', 'a/../b', 'b', '用户甲', '🙂', "x' OR '1'='1", 'tenant:1/u', 'a\u0000b', ' alice '];
const marker = (i: number) => `QX${String.fromCharCode(65 + i)}QX`; // QXAQX, QXBQX, … never substrings of each other
const TEXTS = ['我喜欢猫', '我住在杭州', 'I love hiking', 'My sister is called Anna', '我明天要交报告', 'I have to call the dentist tomorrow'];

type Op =
  | { op: 'add'; user: number; text: number }
  | { op: 'append'; user: number; session: number; text: number }
  | { op: 'extract'; user: number; session: number }
  | { op: 'update' | 'delete'; user: number; text: number }
  | { op: 'forget'; user: number };

const user = fc.integer({ min: 0, max: USERS.length - 1 });
const text = fc.integer({ min: 0, max: TEXTS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), user, text }),
  fc.record({ op: fc.constant('append' as const), user, session: fc.integer({ min: 0, max: 1 }), text }),
  fc.record({ op: fc.constant('extract' as const), user, session: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ op: fc.constantFrom('update' as const, 'delete' as const), user, text }),
  fc.record({ op: fc.constant('forget' as const), user }),
);

const stats = { runs: 0, operations: 0, refused: 0, reads: 0 };

async function apply(e: MemoryEngine, o: Op): Promise<void> {
  const userId = USERS[o.user]!;
  const tag = (t: number) => `${TEXTS[t]} ${marker(o.user)}`;
  switch (o.op) {
    case 'add':
      await e.add({ userId, kind: 'fact', content: tag(o.text) });
      return;
    case 'append':
      await e.appendMessages({ messages: [{ userId, sessionId: `s${o.session}`, role: 'user', content: tag(o.text) }] });
      return;
    case 'extract':
      await e.extract(userId, `s${o.session}`);
      return;
    case 'update':
    case 'delete': {
      const [first] = await e.list({ userId, limit: 1 });
      if (!first) return;
      if (o.op === 'update') await e.update(userId, first.id, { content: tag(o.text) });
      else await e.delete(userId, first.id);
      return;
    }
    case 'forget':
      await e.forget({ userId });
  }
}

/** Everything a user can read about themselves, as text. */
async function everythingVisibleTo(e: MemoryEngine, userId: string, workspace: string): Promise<string[]> {
  const seen: string[] = [];
  const memories = await e.list({ userId, statuses: ['active', 'archived', 'deleted'] });
  seen.push(JSON.stringify(memories));
  for (const m of memories) seen.push(JSON.stringify(await e.history(userId, m.id)));
  for (const query of TEXTS) {
    seen.push(JSON.stringify(await e.recall({ userId, query })));
    seen.push((await e.context({ userId, query, tokenBudget: 600 })).text);
    seen.push(JSON.stringify(await e.searchMessages({ userId, query })));
  }
  seen.push(JSON.stringify(await e.exportUser(userId)));
  seen.push(JSON.stringify(await e.listTodos({ userId })));
  seen.push(JSON.stringify(await e.profile(userId)));
  await e.syncMirror(userId);
  const folder = userFolder(workspace, userId);
  if (existsSync(folder)) for (const f of readdirSync(folder)) seen.push(readFileSync(path.join(folder, f), 'utf8'));
  stats.reads += seen.length;
  return seen;
}

describe('isolation (property-based)', () => {
  it('random operations by users with crafted ids: no read, export, context, todo, history or mirror shows another user\'s data', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        stats.runs++;
        const workspace = tempDir('iso');
        const e = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder: createHashEmbedder({ dimensions: 32 }), clock: fixedClock('2026-03-01T09:00:00Z'), workspace });
        try {
          const accepted = new Set<number>();
          for (const o of ops) {
            stats.operations++;
            try {
              await apply(e, o);
              accepted.add(o.user);
            } catch (error) {
              // A crafted id may be refused, or an extract find no session: typed, never a raw error.
              if (!EngramError.isInstance(error) || !['INVALID_INPUT', 'NOT_FOUND'].includes(error.code)) throw error;
              stats.refused++;
            }
          }
          for (const i of accepted) {
            const others = USERS.map((_, j) => j).filter((j) => j !== i).map(marker);
            for (const text of await everythingVisibleTo(e, USERS[i]!, workspace)) {
              for (const other of others) expect(text.includes(other), `${JSON.stringify(USERS[i])} sees ${other} in ${text.slice(0, 200)}`).toBe(false);
            }
          }
        } finally {
          await e.close();
        }
      }),
      { numRuns: Number(process.env.ENGRAM_PROPERTY_RUNS ?? 25), seed: Number(process.env.ENGRAM_RELIABILITY_SEED ?? 20261124) },
    );
    console.log(`isolation: ${JSON.stringify(stats)}`);
  });
});
