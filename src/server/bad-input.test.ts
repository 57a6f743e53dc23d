import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testDatabaseUrl } from '../store/postgres/test-postgres.js';
import { testApp, type TestApp, type TestResponse } from './test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
const count = async (t: TestApp, userId = 'u') => (await t.memory.list({ userId, statuses: ['active', 'deleted', 'archived'] })).length;

describe('bad input: a clear 4xx with a code, never a 500, nothing half-written', () => {
  it('malformed JSON', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/memories', { body: '{"content": "用户喜欢猫",' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('INVALID_INPUT');
    expect(r.body.error?.message).toMatch(/Malformed JSON/);
    expect(await count(t)).toBe(0);
  });

  it('wrong types name the field', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/memories', { body: { content: 42, kind: 'preference' } });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('INVALID_INPUT');
    expect(JSON.stringify(r.body.error?.details)).toContain('content');
    const kind = await t.json('/v1/users/u/memories', { body: { content: 'I like tea', kind: 'mood' } });
    expect(JSON.stringify(kind.body.error?.details)).toContain('kind');
    expect(await count(t)).toBe(0);
  });

  it('unknown fields', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/memories', { body: { content: '我喜欢茶', colour: 'red' } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error?.details)).toContain('colour');
    expect((await t.json('/v1/users/u/search', { body: { query: 'tea', top_k: 3 } })).status).toBe(400);
    expect((await t.json('/v1/users/u/settings', { method: 'PUT', body: { silentMinutes: 3, nope: true } })).status).toBe(400);
    expect((await t.memory.getSettings('u')).silentMinutes).toBe(2);
    expect(await count(t)).toBe(0);
  });

  it('oversized bodies get 413', async () => {
    const t = make({ bodyLimitBytes: 2048 });
    const r = await t.json('/v1/users/u/memories', { body: { content: '猫'.repeat(3000) } });
    expect(r.status).toBe(413);
    expect(r.body.error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await count(t)).toBe(0);
  });

  it('an export larger than the body limit imports (the import route has a limit of its own), and past that limit gets 413 (zh/en)', async () => {
    const t = make({ bodyLimitBytes: 2048, importBodyLimitBytes: 64 * 1024 });
    for (let i = 0; i < 30; i++) await t.memory.add({ userId: 'src', content: i % 2 ? `用户喜欢第${i}种猫，尤其是橘猫和狸花猫` : `The user likes cat breed number ${i}, especially tabbies` });
    const exported = await t.json('/v1/users/src/export', { method: 'GET' });
    expect(JSON.stringify(exported.body).length).toBeGreaterThan(2048);
    // Any other route refuses a body that large.
    expect((await t.json('/v1/users/dst/memories', { body: { content: '猫'.repeat(3000) } })).status).toBe(413);
    const imported = await t.json('/v1/users/dst/import', { body: exported.body });
    expect(imported.status).toBe(200);
    expect(await count(t, 'dst')).toBe(30);
    // The import's own limit still holds, by the declared length and for a chunked body alike.
    const big = JSON.stringify({ ...(exported.body as object), padding: 'x'.repeat(70 * 1024) });
    const declared = await t.app.request('/v1/users/big/import', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) }, body: big });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { details: { limitBytes: number } } }).error.details.limitBytes).toBe(64 * 1024);
    const chunked = await t.app.request('/v1/users/big/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode(big)), c.close()) }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await count(t, 'big')).toBe(0);
  });

  it('runs one import at a time: a second while the first is being read gets 429 and writes nothing (zh/en)', async () => {
    const t = make();
    await t.memory.add({ userId: 'src', content: '用户喜欢猫' });
    await t.memory.add({ userId: 'src', content: 'The user likes cats' });
    const file = new TextEncoder().encode(JSON.stringify((await t.json('/v1/users/src/export')).body));
    // The first import's body arrives in two parts; the second import comes between them.
    let finish!: () => void;
    const slow = new ReadableStream<Uint8Array>({
      start: (c) => {
        c.enqueue(file.slice(0, 10));
        finish = () => (c.enqueue(file.slice(10)), c.close());
      },
    });
    const first = t.app.request('/v1/users/a/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: slow, duplex: 'half' } as RequestInit);
    await new Promise((r) => setTimeout(r, 20));
    const second = await t.json('/v1/users/b/import', { body: new TextDecoder().decode(file) });
    expect(second.status).toBe(429);
    expect(second.body.error?.code).toBe('RATE_LIMITED');
    expect(second.headers.get('retry-after')).toBe('5');
    finish();
    expect((await first).status).toBe(200);
    expect([await count(t, 'a'), await count(t, 'b')]).toEqual([2, 0]);
    // Once the first is done the next import runs.
    expect((await t.json('/v1/users/b/import', { body: new TextDecoder().decode(file) })).status).toBe(200);
  });

  it('413 by the declared length without reading the body, and by counting a chunked body, in Chinese and English', async () => {
    const t = make({ bodyLimitBytes: 2048 });
    const declared = await t.app.request('/v1/users/u/memories', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '4096' }, body: JSON.stringify({ content: 'I like tea' }) });
    expect(declared.status).toBe(413);
    // A stream has no length: the limit counts it as it arrives.
    const chunks = [`{"content": "${'猫'.repeat(500)}`, `${'cat '.repeat(500)}"}`];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const chunked = await t.app.request('/v1/users/u/memories', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as TestResponse['body']).error?.code).toBe('PAYLOAD_TOO_LARGE');
    const small = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(new TextEncoder().encode('{"content": "用户喜欢猫 and tea"}')); c.close(); } });
    expect((await t.app.request('/v1/users/u/memories', { method: 'POST', headers: { 'content-type': 'application/json' }, body: small, duplex: 'half' } as RequestInit)).status).toBe(201);
    const bad = await t.app.request('/v1/users/u/memories', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '12abc' }, body: '{}' });
    expect(bad.status).toBe(400);
    expect(await count(t)).toBe(1);
  });

  it('the default body limit is 1 MiB', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/sessions/s/messages', { body: { messages: [{ role: 'user', content: 'x'.repeat(1024 * 1024) }] } });
    expect(r.status).toBe(413);
    expect(await t.memory.workingWindow('u', 's')).toEqual([]);
  });

  it('CORS is off by default and answers only the configured origins', async () => {
    const off = make();
    const plain = await off.app.request('/health', { headers: { origin: 'https://app.example' } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const on = make({ corsOrigins: ['https://app.example'] });
    const ok = await on.app.request('/health', { headers: { origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await on.app.request('/health', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lone surrogates in the body or the query', async () => {
    const t = make();
    const raw = '{"content": "I like \\ud800 tea"}';
    const r = await t.json('/v1/users/u/memories', { body: raw });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toMatch(/surrogate/);
    const nested = await t.json('/v1/users/u/memories', { body: '{"content": "我喜欢茶", "structuredData": {"x": ["\\udc00"]}}' });
    expect(nested.status).toBe(400);
    expect(nested.body.error?.details?.path).toBe('structuredData.x.0');
    expect((await t.json('/v1/users/u/memories?q=%ED%A0%80')).status).toBeLessThan(500);
    expect(await count(t)).toBe(0);
  });

  it('control characters in a memory, todo or learning are refused naming the character and where it is (zh, en); tab, newline, CR and bidi marks are kept; chat messages keep theirs', async () => {
    const t = make();
    const refused = async (path: string, body: unknown, method = 'POST') => {
      const r = await t.json(path, { method, body });
      expect([r.status, r.body.error?.code]).toEqual([400, 'INVALID_INPUT']);
      return r.body.error?.message;
    };
    expect(await refused('/v1/users/u/memories', { content: 'nul \u0000 x' })).toBe('Invalid json: content: must not contain control characters: U+0000 at character 5 (tab, line feed and carriage return are kept)');
    expect(await refused('/v1/users/u/memories', { content: '用户\u0007喜欢猫' })).toMatch(/U\+0007 at character 3 /);
    // Characters as a person counts them: an emoji is one.
    expect(await refused('/v1/users/u/memories', { content: '😺\u001b[31m red' })).toMatch(/U\+001B at character 2 /);
    expect(await refused('/v1/users/u/memories', { content: 'DEL \u007f' })).toMatch(/U\+007F at character 5 /);
    expect(await count(t)).toBe(0);
    const kept = await t.json('/v1/users/u/memories', { body: { content: '第一行\n第二行\tThe user\r\nlikes tea \u202e反转' } });
    expect([kept.status, kept.body.content]).toEqual([201, '第一行\n第二行\tThe user\r\nlikes tea \u202e反转']);
    const id = String(kept.body.id);
    expect(await refused(`/v1/users/u/memories/${id}`, { content: 'x\u0000' }, 'PATCH')).toMatch(/content: .*U\+0000 at character 2 /);
    expect((await t.json(`/v1/users/u/memories/${id}`)).body.content).toBe(kept.body.content);
    expect(await refused('/v1/users/u/todos', { content: '明天\u0000下午三点开会' })).toMatch(/content: .*U\+0000 at character 3 /);
    const todo = await t.json('/v1/users/u/todos', { body: { content: 'Call mom tomorrow at 3pm' } });
    expect(await refused(`/v1/users/u/todos/${String(todo.body.id)}`, { content: 'Call \u0008mom' }, 'PATCH')).toMatch(/U\+0008 at character 6 /);
    expect(await refused('/v1/users/u/learnings', { task: 'deploy', steps: ['build', 'push\u0000'] })).toMatch(/steps\.1: .*U\+0000 at character 5 /);
    // The error and fix go into a learning's words too; a C1 control (CSI) is a control as well.
    expect(await refused('/v1/users/u/learnings', { task: '发布周报', steps: ['拉数据'], error: '超时', fix: '重试\u001b[2J' })).toMatch(/fix: .*U\+001B at character 3 /);
    expect(await refused('/v1/users/u/memories', { content: 'The user likes \u009b31m red' })).toMatch(/U\+009B at character 16 /);
    expect(await count(t)).toBe(2);
    // An import: the record (its place and id) and the field; nothing of the file is written.
    const at = '2026-01-01T00:00:00.000Z';
    const row = (id: string, content: string) => ({ id, userId: 'v', kind: 'fact', content, importance: 0.5, confidence: 1, source: 'manual', verified: true, core: false, status: 'active', provenance: { messageIds: [] }, language: 'zh', createdAt: at, updatedAt: at, accessCount: 0 });
    const exportOf = (memories: unknown[]) => ({ format: 'engram-export', version: 1, userId: 'v', exportedAt: at, memories, history: [], relations: [], profiles: [], todos: [], messages: [], settings: {} });
    expect(await refused('/v1/users/v/import', exportOf([row('v-1', 'The user likes cats'), row('v-2', '用户对\u0000花生过敏')]))).toMatch(/memories\.1\.content: must not contain control characters: U\+0000 at character 4 .*\(the record with id v-2\)/);
    expect(await refused('/v1/users/v/import', exportOf([row('v-3', 'The user likes \u0007cats')]))).toMatch(/memories\.0\.content: .*U\+0007 at character 16 .*\(the record with id v-3\)/);
    expect((await t.json('/v1/users/v/memories')).body.items).toEqual([]);
    // A chat records what was said, odd characters too (PostgreSQL text cannot hold NUL: its store keeps U+FFFD in its place, pg-db.ts).
    const said = await t.json('/v1/users/u/sessions/s1/messages', { body: { messages: [{ role: 'user', content: '我说了 \u0000 这个' }] } });
    expect(said.status).toBe(200);
    const stored = testDatabaseUrl() ? '我说了 \ufffd 这个' : '我说了 \u0000 这个';
    expect((await t.json('/v1/users/u/sessions/s1/messages')).body.items).toEqual([expect.objectContaining({ content: stored })]);
  });

  it('a body that is not UTF-8 is refused, never stored with U+FFFD in place of its bytes, whatever the content type (zh/en)', async () => {
    const t = make();
    const withBytes = (before: string, bytes: number[], after: string) => Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
    const bodies = [
      [withBytes('{"content":"bad ', [0xff, 0xfe], ' utf8"}'), 16],
      [withBytes('{"content":"用户喜欢', [0xe7, 0x8c], '"}'), 24], // 猫 cut short
      [withBytes('{"content":"The user likes ', [0xc0, 0xaf], ' cats"}'), 27], // an overlong "/"
      [withBytes('{"content":"用户', [0xed, 0xa0, 0x80], '喜欢猫"}'), 18], // a surrogate, encoded
    ] as const;
    for (const [body, at] of bodies) {
      for (const type of ['application/json', 'text/plain', 'application/json; charset=utf-8']) {
        const res = await t.app.request('/v1/users/u/memories', { method: 'POST', headers: { 'content-type': type }, body });
        const error = ((await res.json()) as TestResponse['body']).error;
        expect([type, res.status, error?.code]).toEqual([type, 400, 'INVALID_INPUT']);
        expect(error?.message).toContain('not valid UTF-8');
        expect(error?.details?.byteOffset).toBe(at);
      }
    }
    const put = await t.app.request('/v1/users/u/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: withBytes('{"timeZone":"Asia/', [0x80], 'Shanghai"}') });
    expect(put.status).toBe(400);
    expect(await count(t)).toBe(0);
    // Well-formed UTF-8 (with a BOM too) is read as before, and a U+FFFD the client really sent is kept.
    for (const content of ['用户喜欢猫', 'The user likes cats \ufffd']) {
      const ok = await t.app.request('/v1/users/u/memories', { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ content }))]) });
      expect(ok.status).toBe(201);
      expect(((await ok.json()) as { content: string }).content).toBe(content);
    }
    expect(await count(t)).toBe(2);
  });

  it('FTS syntax in queries is just text (Chinese and English)', async () => {
    const t = make();
    await t.json('/v1/users/u/memories', { body: { content: '用户喜欢猫 "cats" AND dogs' } });
    for (const q of ['"', 'NEAR(a b)', 'cats AND', '*', '（猫', 'col:cats', '-', '^']) {
      const s = await t.json('/v1/users/u/search', { body: { query: q } });
      expect(s.status, q).toBe(200);
      const l = await t.json(`/v1/users/u/memories?q=${encodeURIComponent(q)}`);
      expect(l.status, q).toBe(200);
    }
  });

  it('huge limits and bad cursors', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/memories?limit=1000000');
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error?.details)).toContain('limit');
    expect((await t.json('/v1/users/u/search', { body: { query: 'x', limit: 100000 } })).status).toBe(400);
    expect((await t.json('/v1/users/u/context', { body: { query: 'x', tokenBudget: 10_000_000 } })).status).toBe(400);
    expect((await t.json('/v1/users/u/memories?cursor=not-a-cursor')).body.error?.code).toBe('INVALID_INPUT');
    expect((await t.json('/v1/users/u/memories?limit=-1')).status).toBe(400);
  });

  it('unknown user ids, memory ids, sessions and routes', async () => {
    const t = make();
    const u = await t.json('/v1/users/nobody');
    expect(u.status).toBe(404);
    expect(u.body.error?.code).toBe('NOT_FOUND');
    expect((await t.json('/v1/users/nobody/memories/m-1')).status).toBe(404);
    expect((await t.json('/v1/users/nobody/memories/m-1', { method: 'PATCH', body: { content: '新内容' } })).status).toBe(404);
    expect((await t.json('/v1/users/nobody/sessions/s-1')).status).toBe(404);
    expect((await t.json('/v1/users/nobody/todos/t-1/complete', { method: 'POST' })).status).toBe(404);
    expect((await t.json('/v1/nothing-here')).body.error?.code).toBe('NOT_FOUND');
    // the default tenant cannot reach scoped users
    expect((await t.json('/v1/users/t:acme:bob/memories')).status).toBe(400);
  });

  it('a failed extraction-free import leaves nothing behind', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/import', { body: { format: 'engram-export', version: 1, memories: 'nope' } });
    expect(r.status).toBe(400);
    expect(await count(t)).toBe(0);
  });
});
