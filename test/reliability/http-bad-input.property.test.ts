import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteHandleOf } from '../../src/server/keys/sqlite-key-store.js';
import { testApp } from '../../src/server/test-app.js';

const SEGMENTS = ['u', '*', '%', '%25', '..', 'a%2F..%2Fb', '用户甲', '%F0%9F%99%82', "x'%20OR%20'1'%3D'1", 'mem-1', 'mem-404', 's', '', '%00', 'NaN', '-1'];
const QUERIES = ['', '?limit=NaN', '?limit=-1&offset=1e309', '?limit=0.5', '?kinds=mood', '?statuses=*', '?since=yesterday', '?q=%E7%8C%AB', '?limit=99999999999999999999'];
/** JSON bodies callers get wrong, and bodies that are not JSON at all. */
const body: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('', '{', 'null', '[]', '"text"', '{"content": "用户喜欢猫", "kind": "preference"}', '{"query": "cats", "limit": NaN}', '{"messages": [{"role": "user", "content": "我喜欢猫"}]}', '{"content": "\\ud800"}', '{"tokenBudget": -5, "query": "宠物"}'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.record({ content: fc.oneof(fc.string(), fc.integer()), kind: fc.constantFrom('fact', 'preference', 'mood', 1), importance: fc.oneof(fc.double(), fc.constant(2)), query: fc.string(), limit: fc.oneof(fc.integer(), fc.double()), messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'robot'), content: fc.string() }), { maxLength: 3 }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
);

function fingerprint(db: Database.Database): string {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_vec_%' AND name NOT LIKE '%_fts_%' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name);
  return tables.map((t) => `${t}=${(db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n}`).join(' ');
}

describe('bad input (property-based) over the HTTP API', () => {
  it('any route, method, path segment, query and body: never a 5xx, errors carry a code, a refused request writes nothing', async () => {
    const t = testApp();
    const db = sqliteHandleOf(t.memory.deps.store)!;
    await t.memory.add({ userId: 'u', kind: 'fact', content: 'The user likes cats / 用户喜欢猫' });
    await t.memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '我喜欢猫' }] });
    const doc = (await (await t.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    // /v1/events is a stream that stays open by design (its own tests are in src/server/serve.test.ts).
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path !== '/v1/events')
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })));
    const stats = { requests: 0, refused: 0, ok: 0, operations: operations.length };
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...operations), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 3, maxLength: 3 }), fc.constantFrom(...QUERIES), body, async (op, segments, query, payload) => {
          stats.requests++;
          let i = 0;
          const url = op.path.replace(/\{[^}]+\}/g, () => segments[i++ % segments.length]!) + query;
          await t.memory.idle();
          const before = fingerprint(db);
          const res = await t.app.request(url, { method: op.method, ...(payload === undefined || op.method === 'GET' ? {} : { body: payload, headers: { 'content-type': 'application/json' } }) });
          const text = await res.text();
          expect(res.status, `${op.method} ${url} ${payload ?? ''} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status < 400) return void stats.ok++;
          stats.refused++;
          expect(text, `${op.method} ${url}`).toMatch(/"code":"[A-Z_]+"/);
          await t.memory.idle();
          expect(fingerprint(db), `${op.method} ${url} ${payload ?? ''} was refused but wrote`).toBe(before);
        }),
        { numRuns: Number(process.env.ENGRAM_PROPERTY_RUNS ?? 80) * 3, seed: Number(process.env.ENGRAM_RELIABILITY_SEED ?? 20261124) },
      );
    } finally {
      await t.memory.close();
    }
    console.log(`bad-input: http ${JSON.stringify(stats)}`);
  });
});
