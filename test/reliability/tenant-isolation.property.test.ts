import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestResponse } from '../../src/server/test-app.js';

/**
 * Tenant isolation over the HTTP app (issue 14, isolation property): random operations by users
 * of two tenants whose ids are crafted to collide once scoped (the same id in both tenants, ids
 * holding ':' and 't:', a tenant name that prefixes the other's), then every read a tenant key can
 * make (memories, history, relations, search, context, messages, window, todos, export, profile,
 * settings, the user list and the event stream) is checked for the other pairs' markers.
 */
const ADMIN = 'admin-secret-for-tenant-isolation';
const TENANTS = ['acme', 'ac'] as const;
const USERS = ['alice', 'Alice', 'me:alice', 'acme:alice', 't:acme:alice', 't:ac:me:alice', '用户甲', 'a:b:c'];
const TEXTS = ['我喜欢猫', '我住在杭州', 'I love hiking', 'My sister is called Anna', '明天下午三点开会', 'Call the dentist next Friday at 5pm'];
/** QX<tenant><user>QX: never a substring of another pair's marker. */
const marker = (t: number, u: number) => `QX${t}${String.fromCharCode(65 + u)}QX`;

type Op =
  | { op: 'add' | 'append' | 'todo'; t: number; u: number; text: number }
  | { op: 'extract' | 'forget' | 'settings'; t: number; u: number }
  | { op: 'poke'; t: number; u: number; victim: number; action: 'get' | 'patch' | 'delete' | 'purge' | 'history' | 'relations' | 'complete' }
  | { op: 'forgetTopic'; t: number; u: number; text: number };

const t = fc.integer({ min: 0, max: TENANTS.length - 1 });
const u = fc.integer({ min: 0, max: USERS.length - 1 });
const text = fc.integer({ min: 0, max: TEXTS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constantFrom('add' as const, 'append' as const, 'todo' as const), t, u, text }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constantFrom('extract' as const, 'forget' as const, 'settings' as const), t, u }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('poke' as const), t, u, victim: fc.nat(), action: fc.constantFrom('get' as const, 'patch' as const, 'delete' as const, 'purge' as const, 'history' as const, 'relations' as const, 'complete' as const) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('forgetTopic' as const), t, u, text }), weight: 1 },
);

const stats = { runs: 0, operations: 0, crossAttempts: 0, reads: 0, events: 0 };

interface Made {
  id: string;
  t: number;
  u: number;
  type: 'memory' | 'todo';
}

function world(app: TestApp, keys: string[]) {
  const made: Made[] = [];
  const userPath = (ti: number, ui: number) => `/v1/users/${encodeURIComponent(USERS[ui]!)}`;
  const call = (ti: number, path: string, init: { method?: string; body?: unknown } = {}) => app.json(path, { ...init, key: keys[ti]! });
  const expectOk = (r: TestResponse, what: string) => expect(r.status, `${what}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(300);

  async function apply(o: Op): Promise<void> {
    const base = userPath(o.t, o.u);
    const tag = (i: number) => `${TEXTS[i]} ${marker(o.t, o.u)}`;
    switch (o.op) {
      case 'add': {
        const r = await call(o.t, `${base}/memories`, { body: { content: tag(o.text), kind: 'fact' } });
        expectOk(r, 'add');
        made.push({ id: String(r.body.id), t: o.t, u: o.u, type: 'memory' });
        return;
      }
      case 'append':
        expectOk(await call(o.t, `${base}/sessions/s/messages`, { body: { messages: [{ role: 'user', content: tag(o.text) }] } }), 'append');
        return;
      case 'todo': {
        const r = await call(o.t, `${base}/todos`, { body: { content: tag(o.text), dueAt: '2026-03-05T09:00:00Z' } });
        expectOk(r, 'todo');
        made.push({ id: String(r.body.id), t: o.t, u: o.u, type: 'todo' });
        return;
      }
      case 'extract': {
        const r = await call(o.t, `${base}/sessions/s/extract`, { method: 'POST' });
        // No session yet for this user is a 404, never another tenant's session.
        expect([200, 404]).toContain(r.status);
        return;
      }
      case 'forget':
        expectOk(await call(o.t, `${base}/forget`, { body: { all: true } }), 'forget');
        return;
      case 'forgetTopic':
        expectOk(await call(o.t, `${base}/forget`, { body: { topic: TEXTS[o.text]!.slice(0, 4) } }), 'forget topic');
        return;
      case 'settings':
        expectOk(await call(o.t, `${base}/settings`, { method: 'PUT', body: { silentMinutes: 7 + o.u } }), 'settings');
        return;
      case 'poke': {
        if (made.length === 0) return;
        const victim = made[o.victim % made.length]!;
        const own = victim.t === o.t && victim.u === o.u;
        if (!own) stats.crossAttempts++;
        const m = `${base}/memories/${encodeURIComponent(victim.id)}`;
        const todo = `${base}/todos/${encodeURIComponent(victim.id)}`;
        const r =
          o.action === 'get' ? await call(o.t, m)
          : o.action === 'patch' ? await call(o.t, m, { method: 'PATCH', body: { content: `hijacked ${marker(o.t, o.u)}` } })
          : o.action === 'delete' ? await call(o.t, m, { method: 'DELETE' })
          : o.action === 'purge' ? await call(o.t, `${m}/purge`, { method: 'POST' })
          : o.action === 'history' ? await call(o.t, `${m}/history`)
          : o.action === 'relations' ? await call(o.t, `${m}/relations`)
          : await call(o.t, `${todo}/complete`, { method: 'POST' });
        // Another tenant's (or user's) id is simply not found; one's own may be gone already.
        if (!own) expect(r.status, `${o.action} of another's ${victim.type} answered ${r.status}`).toBe(404);
        else expect(r.status).toBeLessThan(500);
      }
    }
  }

  /** Everything one tenant user can read, as text. */
  async function readsOf(ti: number, ui: number): Promise<string[]> {
    const base = userPath(ti, ui);
    const seen: TestResponse[] = [];
    const list = await call(ti, `${base}/memories?status=active,archived,deleted&limit=200`);
    seen.push(list);
    for (const mem of (list.body.items as Array<{ id: string }> | undefined) ?? []) {
      seen.push(await call(ti, `${base}/memories/${encodeURIComponent(mem.id)}/history`));
      seen.push(await call(ti, `${base}/memories/${encodeURIComponent(mem.id)}/relations`));
    }
    for (const query of TEXTS) {
      seen.push(await call(ti, `${base}/search`, { body: { query } }));
      seen.push(await call(ti, `${base}/context`, { body: { query, tokenBudget: 600 } }));
    }
    for (const path of ['/sessions', '/sessions/s/messages', '/sessions/s/window', '/todos?completed=false', '/todos?completed=true', '/export', '/profile', '/profile/versions', '/episodes', '/settings', '']) {
      seen.push(await call(ti, `${base}${path}`));
    }
    for (const r of seen) expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBeLessThan(500);
    stats.reads += seen.length;
    return seen.map((r) => JSON.stringify(r.body));
  }

  return { made, apply, readsOf, call };
}

/** Reads a tenant's event stream in the background until stopped. */
function listen(app: TestApp, key: string) {
  const abort = new AbortController();
  let text = '';
  const reading = (async () => {
    const res = await app.app.request('/v1/events', { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read().catch((error: unknown) => {
        // Aborting the request ends the stream: the only way out of it here.
        if (abort.signal.aborted) return { done: true as const, value: undefined };
        throw error;
      });
      if (chunk.done) return;
      text += decoder.decode(chunk.value);
    }
  })();
  return {
    async stop(): Promise<string> {
      abort.abort();
      await Promise.race([reading, new Promise((r) => setTimeout(r, 200))]);
      return text;
    },
  };
}

describe('tenant isolation over HTTP (property-based)', () => {
  it("random operations by users of two tenants with colliding ids: no read, export, context, todo or event shows another tenant's data", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), async (ops) => {
        stats.runs++;
        const app = testApp({ adminKey: ADMIN, allowOpen: false, engine: {} });
        app.memory.clock.set('2026-03-01T09:00:00Z');
        try {
          const keys = await Promise.all(TENANTS.map(async (tenantId) => String((await app.json('/v1/keys', { key: ADMIN, body: { tenantId } })).body.key)));
          const streams = keys.map((k) => listen(app, k));
          const w = world(app, keys);
          const used = new Set<string>();
          for (const o of ops) {
            stats.operations++;
            await w.apply(o);
            used.add(`${o.t}/${o.u}`);
          }
          await app.memory.idle();
          for (const pair of used) {
            const [ti, ui] = pair.split('/').map(Number) as [number, number];
            const others = TENANTS.flatMap((_, tj) => USERS.map((__, uj) => [tj, uj] as const)).filter(([tj, uj]) => tj !== ti || uj !== ui).map(([tj, uj]) => marker(tj, uj));
            for (const seen of await w.readsOf(ti, ui)) {
              for (const other of others) expect(seen.includes(other), `${TENANTS[ti]}/${USERS[ui]} sees ${other} in ${seen.slice(0, 300)}`).toBe(false);
            }
          }
          // Tenant-wide reads: the user list names only the tenant's own users, the stream only its events.
          for (const [ti, tenant] of TENANTS.entries()) {
            const users = (await w.call(ti, '/v1/users')).body.items as Array<{ userId: string }>;
            const own = new Set([...used].filter((p) => p.startsWith(`${ti}/`)).map((p) => USERS[Number(p.split('/')[1])]!));
            for (const { userId } of users) expect(own.has(userId), `${tenant} lists ${userId}`).toBe(true);
          }
          const events = await Promise.all(streams.map((s) => s.stop()));
          for (const [ti, stream] of events.entries()) {
            stats.events += (stream.match(/^event:/gmu) ?? []).length;
            for (let uj = 0; uj < USERS.length; uj++) {
              const foreign = marker(1 - ti, uj);
              expect(stream.includes(foreign), `${TENANTS[ti]}'s stream shows ${foreign}`).toBe(false);
            }
          }
        } finally {
          await app.memory.close();
        }
      }),
      { numRuns: Number(process.env.ENGRAM_PROPERTY_RUNS ?? 20), seed: Number(process.env.ENGRAM_RELIABILITY_SEED ?? 20261124) },
    );
    console.log(`tenant isolation over HTTP: ${JSON.stringify(stats)}`);
  }, 300_000);
});
