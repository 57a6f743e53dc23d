import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../deps.js';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { EngramError } from '../../errors.js';
import type { EngramEvent } from '../../events.js';
import { createMemory } from '../../memory.js';
import type { MemoryEngine } from '../../memory-engine.js';
import { createApp } from '../../server/app.js';
import { createEventHub } from '../../server/event-hub.js';
import { keyStoreOf } from '../../server/keys/key-store-of.js';
import { startPgEventRelay, type EventRelay } from '../../server/pg-event-relay.js';
import { memoryFixture } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { openPostgresStore, postgresHandleOf } from './postgres-store.js';
import { testDatabaseUrl } from './test-postgres.js';

const run = promisify(execFile);
const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scripts/pg-cluster.sh');

/** The test restarts a cluster of its own (never the suite's shared one), so it needs the server binaries. */
const hasServerBinaries = (): boolean => {
  if ((process.env.PATH ?? '').split(':').some((d) => existsSync(join(d, 'initdb')))) return true;
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, 'bin', 'initdb')));
};

const cluster = (command: 'halt' | 'resume' | 'stop', dir: string) => run(SCRIPT, [command, dir]);

const TEXTS = {
  zh: ['我最近在学做饭', '今天做了红烧肉', '下周想试试包饺子'],
  en: ['I started learning to cook', 'Today I made braised pork', 'Next week I want to try dumplings'],
} as const;

interface Outcome {
  kind: 'messages' | 'memory';
  tag: string;
  session: string;
  status: number;
  code?: string;
}

describe.skipIf(!testDatabaseUrl() || !hasServerBinaries())('PostgreSQL restarting under load (a cluster of its own)', () => {
  let dir = '';
  let url = '';
  const stores: Store[] = [];
  const engines: MemoryEngine[] = [];
  const relays: EventRelay[] = [];

  beforeAll(async () => {
    const { stdout } = await run(SCRIPT, ['start']);
    url = /ENGRAM_TEST_DATABASE_URL=(\S+)/.exec(stdout)![1]!;
    dir = /ENGRAM_PG_CLUSTER=(\S+)/.exec(stdout)![1]!;
  });
  afterAll(async () => {
    for (const r of relays) await r.stop();
    for (const e of engines) await e.close();
    for (const s of stores) await s.close();
    if (dir) await cluster('stop', dir);
  });

  it('keeps every acknowledged write exactly once, applies nothing by half, retries what is safe, and recovers (zh, en)', async () => {
    // Process A rides out a restart (its calls wait for the server); process B gives up at once.
    const a = openPostgresStore({ url, schema: 'restart', maxConnections: 6, reconnectMs: 60_000 });
    const b = openPostgresStore({ url, schema: 'restart', maxConnections: 2, reconnectMs: 0 });
    stores.push(a, b);
    const app = (store: Store) => {
      const events = createEventHub();
      const memory = createMemory({ store, embedder: createHashEmbedder({ dimensions: 64 }), events });
      engines.push(memory);
      return { memory, app: createApp({ memory, keys: keyStoreOf(store), events, allowOpen: true }) };
    };
    const A = app(a);
    const B = app(b);
    const post = async (target: typeof A, path: string, body: unknown) => {
      const res = await target.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.json()) as { error?: { code: string } };
      return { status: res.status, code: json.error?.code };
    };
    const seenByB: EngramEvent[] = [];
    relays.push(await startPgEventRelay(postgresHandleOf(a)!, { emit: () => undefined }, silentLogger));
    relays.push(await startPgEventRelay(postgresHandleOf(b)!, { emit: (e) => seenByB.push(e) }, silentLogger));

    // Writers: each appends batches of three messages to its own session and adds a memory, in zh or en.
    const outcomes: Outcome[] = [];
    let done = false;
    const acked = () => outcomes.filter((o) => o.status < 300).length;
    const waiters: Array<{ n: number; resolve: () => void }> = [];
    const record = (o: Outcome) => {
      outcomes.push(o);
      for (const w of waiters.splice(0)) (acked() >= w.n ? w.resolve : () => waiters.push(w))();
    };
    let writing: Promise<unknown> = Promise.resolve();
    // Resolves once n writes were acknowledged; fails at once when a writer died (a raw error, a crash).
    const untilAcked = (n: number) =>
      Promise.race([new Promise<void>((resolve) => (acked() >= n ? resolve() : waiters.push({ n, resolve }))), writing.then(() => Promise.reject(new Error('the writers stopped')))]);
    const messagesOf = (tag: string, lang: 'zh' | 'en') => TEXTS[lang].map((content, i) => ({ id: `${tag}-${i}`, role: 'user' as const, content }));
    const writer = async (w: number) => {
      const lang = w % 2 === 0 ? 'zh' : 'en';
      const session = `s${w}`;
      for (let i = 0; !done; i++) {
        // Writes that fail at once must not spin the event loop; many failures end the writer (the test then fails).
        await new Promise((r) => setImmediate(r));
        if (outcomes.filter((o) => o.status >= 300).length > 20) throw new Error(`writes keep failing: ${JSON.stringify(outcomes.at(-1))}`);
        const tag = `w${w}b${i}`;
        const m = await post(A, `/v1/users/u${w}/sessions/${session}/messages`, { messages: messagesOf(tag, lang) });
        record({ kind: 'messages', tag, session, ...m });
        const content = lang === 'zh' ? `用户的第${tag}条记忆：喜欢做饭` : `Memory ${tag}: the user likes cooking`;
        record({ kind: 'memory', tag: content, session, ...(await post(A, `/v1/users/u${w}/memories`, { content, kind: 'preference' })) });
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    writing = Promise.all(writers);

    await untilAcked(20);
    // A transaction left open across the restart: its connection dies under it, so it runs again whole.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const open = a.transaction(async (tx): Promise<string> => {
      runs++;
      await tx.insertMemory(memoryFixture({ id: 'tx-1', userId: 'u0', content: '用户养了一只猫' }), null, { actor: 'user' });
      await gate;
      await tx.insertMemory(memoryFixture({ id: 'tx-2', userId: 'u0', content: 'The user has a cat named Mimi' }), null, { actor: 'user' });
      return 'committed';
    }).then((r) => r, (error: unknown) => error);

    await cluster('halt', dir);
    // While the server is down: a store that does not wait fails typed, and its HTTP app answers 503.
    const refused = await b.listMemories({ userId: 'u0' }).then(() => null, (error: unknown) => error);
    expect(EngramError.isInstance(refused) && refused.code).toBe('STORE_BUSY');
    expect(await post(B, '/v1/users/u9/memories', { content: '服务器重启中 / the server is restarting', kind: 'preference' })).toEqual({ status: 503, code: 'STORE_BUSY' });
    const readAcross = a.listMemories({ userId: 'u1' });
    release();
    const before = acked();
    await cluster('resume', dir);

    expect(await open).toBe('committed');
    expect(runs).toBe(2);
    expect(await readAcross).toEqual(expect.any(Array));
    await untilAcked(before + 20);
    done = true;
    await Promise.all(writers);
    await A.memory.idle();

    console.log("STATS", outcomes.length, JSON.stringify(outcomes.filter((x) => x.status >= 300)), before);
    // Failed calls (a COMMIT cut off may leave it unknown) were typed and retryable, never raw.
    for (const o of outcomes.filter((x) => x.status >= 300)) expect(o).toMatchObject({ status: 503, code: 'STORE_BUSY' });

    // Every acknowledged write exactly once; every batch all or nothing; seq without gaps.
    for (const w of [0, 1, 2, 3]) {
      const messages = await b.listMessages({ userId: `u${w}`, sessionId: `s${w}` });
      expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i));
      const ids = new Set(messages.map((m) => m.id));
      expect(ids.size).toBe(messages.length);
      for (const o of outcomes.filter((x) => x.kind === 'messages' && x.session === `s${w}`)) {
        const present = [0, 1, 2].filter((i) => ids.has(`${o.tag}-${i}`)).length;
        expect([0, 3]).toContain(present);
        if (o.status < 300) expect(present).toBe(3);
      }
      const memories = await b.listMemories({ userId: `u${w}`, kinds: ['preference'] });
      for (const o of outcomes.filter((x) => x.kind === 'memory' && x.session === `s${w}`)) {
        const copies = memories.filter((m) => m.content === o.tag).length;
        expect(copies).toBeLessThanOrEqual(1);
        if (o.status < 300) expect(copies).toBe(1);
      }
    }
    expect((await b.listMemories({ userId: 'u0' })).filter((m) => m.id.startsWith('tx-')).map((m) => m.content).sort()).toEqual(['The user has a cat named Mimi', '用户养了一只猫']);

    // Sending a failed batch again (messages are idempotent by id) completes it, still once each.
    for (const o of outcomes.filter((x) => x.kind === 'messages' && x.status >= 300)) {
      const w = Number(o.session.slice(1));
      expect((await post(A, `/v1/users/u${w}/sessions/${o.session}/messages`, { messages: messagesOf(o.tag, w % 2 === 0 ? 'zh' : 'en') })).status).toBe(200);
    }
    const batches = outcomes.filter((x) => x.kind === 'messages').length;
    const total = (await Promise.all([0, 1, 2, 3].map((w) => b.listMessages({ userId: `u${w}`, sessionId: `s${w}` })))).flat().length;
    expect(total).toBe(batches * 3);

    // The pool of the store that gave up recovers, and events cross processes again.
    expect(await post(B, '/v1/users/u9/memories', { content: '重启之后 / after the restart', kind: 'preference' })).toEqual({ status: 201, code: undefined });
    // NOTIFY keeps nothing for a listener still reconnecting: A announces until B hears it.
    const at = new Date('2026-03-02T10:00:00Z');
    const heard = () => {
      relays[0]!.emit({ type: 'memory.changed', userId: '李明', at });
      return seenByB.some((e) => e.type === 'memory.changed' && e.userId === '李明');
    };
    await expect.poll(heard, { timeout: 15_000, interval: 100 }).toBe(true);
  });
});
