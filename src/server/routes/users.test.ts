import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { testApp } from '../test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());

describe('user resources', () => {
  it('lists users, one user, settings as overrides (GET/PUT)', async () => {
    const t = make();
    await t.json('/v1/users/li-ming/memories', { body: { content: '用户住在北京', kind: 'identity' } });
    await t.json('/v1/users/alice/memories', { body: { content: 'The user lives in Boston', kind: 'identity' } });
    expect((await t.json('/v1/users')).body.items).toEqual([{ userId: 'alice' }, { userId: 'li-ming' }]);
    expect((await t.json('/v1/users/li-ming')).body).toMatchObject({ userId: 'li-ming', memories: 1 });
    const put = await t.json('/v1/users/li-ming/settings', { method: 'PUT', body: { extractionEnabled: false, timeZone: 'Asia/Shanghai' } });
    expect(put.body).toMatchObject({ extractionEnabled: false, timeZone: 'Asia/Shanghai', silentMinutes: 2 });
    await t.memory.setSettings('*', { silentMinutes: 9 });
    expect((await t.json('/v1/users/li-ming/settings')).body).toMatchObject({ extractionEnabled: false, silentMinutes: 9 });
    expect((await t.json('/v1/users/li-ming/settings', { method: 'PUT', body: { timeZone: 'Mars/Base' } })).status).toBe(400);
  });

  it('todos: create with a due time read from the text in the user\'s zone, list, complete, delete', async () => {
    const t = make();
    await t.memory.setSettings('li-ming', { timeZone: 'Asia/Shanghai' });
    const zh = await t.json('/v1/users/li-ming/todos', { body: { content: '明天下午三点给妈妈打电话' } });
    expect(zh.status).toBe(201);
    // 2026-01-01T00:00Z is 08:00 in Shanghai; tomorrow 15:00 local = 2026-01-02T07:00Z
    expect(zh.body).toMatchObject({ content: '明天下午三点给妈妈打电话', dueAt: '2026-01-02T07:00:00.000Z', remindAt: '2026-01-02T06:00:00.000Z', completed: false });
    const en = await t.json('/v1/users/li-ming/todos', { body: { content: 'Renew the passport', dueAt: '2026-02-01T09:00:00Z' } });
    expect((await t.json('/v1/users/li-ming/todos')).body.items).toHaveLength(2);
    expect((await t.json(`/v1/users/li-ming/todos/${String(zh.body.id)}/complete`, { method: 'POST' })).body.completed).toBe(true);
    expect((await t.json('/v1/users/li-ming/todos')).body.items).toHaveLength(1);
    expect((await t.json('/v1/users/li-ming/todos?completed=true')).body.items).toHaveLength(1);
    expect((await t.json(`/v1/users/li-ming/todos/${String(en.body.id)}`, { method: 'DELETE' })).body).toEqual({ id: en.body.id, deleted: true });
    expect((await t.json(`/v1/users/alice/todos/${String(zh.body.id)}/complete`, { method: 'POST' })).status).toBe(404);
    expect((await t.json('/v1/users/li-ming/todos', { body: { content: 'x', dueAt: '2026-02-01T09:00:00Z', remindAt: '2026-02-02T09:00:00Z' } })).status).toBe(400);
  });

  it('repeating todos: a repeat read from the text or given, shown in the list; complete moves it on, ?series=true ends it (zh, en)', async () => {
    const t = make();
    await t.memory.setSettings('li-ming', { timeZone: 'Asia/Shanghai' });
    // 2026-01-01T00:00Z is Thursday 08:00 in Shanghai: the next 08:00 is Friday's.
    const zh = await t.json('/v1/users/li-ming/todos', { body: { content: '每天早上八点吃药' } });
    expect(zh.status).toBe(201);
    expect(zh.body).toMatchObject({ dueAt: '2026-01-02T00:00:00.000Z', repeat: { every: 'day', interval: 1, timeZone: 'Asia/Shanghai' } });
    const en = await t.json('/v1/users/li-ming/todos', { body: { content: 'Team standup', dueAt: '2026-01-05T01:00:00Z', repeat: { every: 'week', weekdays: [1, 2, 3, 4, 5] } } });
    expect(en.body).toMatchObject({ dueAt: '2026-01-05T01:00:00.000Z', repeat: { every: 'week', weekdays: [1, 2, 3, 4, 5], timeZone: 'Asia/Shanghai' } });
    const listed = (await t.json('/v1/users/li-ming/todos')).body.items as Array<{ id: string; repeat?: unknown }>;
    expect(listed.map((x) => x.repeat !== undefined)).toEqual([true, true]);
    // Friday 04:00: the coming 08:00 is done early, so the todo moves to Saturday's.
    t.memory.clock.advance(20 * 3_600_000);
    const once = await t.json(`/v1/users/li-ming/todos/${String(zh.body.id)}/complete`, { method: 'POST' });
    expect(once.body).toMatchObject({ completed: false, dueAt: '2026-01-03T00:00:00.000Z' });
    const ended = await t.json(`/v1/users/li-ming/todos/${String(zh.body.id)}/complete?series=true`, { method: 'POST' });
    expect(ended.body.completed).toBe(true);
    expect((await t.json('/v1/users/li-ming/todos', { body: { content: 'x', repeat: { every: 'hourly' } } })).status).toBe(400);
    expect((await t.json('/v1/users/li-ming/todos', { body: { content: 'x', repeat: { every: 'week', interval: 2, weekdays: [1] } } })).status).toBe(400);
  });

  it('moving a todo: PATCH with the time as said or given outright; its memory follows; bad changes are 400 with nothing changed (zh, en)', async () => {
    const t = make();
    await t.memory.setSettings('li-ming', { timeZone: 'Asia/Shanghai' });
    const zh = await t.json('/v1/users/li-ming/todos', { body: { content: '明天下午三点开会' } });
    const en = await t.json('/v1/users/li-ming/todos', { body: { content: 'call the dentist tomorrow at 3pm' } });
    const patch = (id: unknown, body: unknown, user = 'li-ming') => t.json(`/v1/users/${user}/todos/${String(id)}`, { method: 'PATCH', body });
    // 2026-01-01T00:00Z is 08:00 in Shanghai: "明天下午三点" is 2026-01-02T07:00Z; 16:00 the same day is 08:00Z.
    const moved = await patch(zh.body.id, { when: '下午四点' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ content: '2026年1月2日16:00开会', dueAt: '2026-01-02T08:00:00.000Z', remindAt: '2026-01-02T07:00:00.000Z', reminded: false });
    const memory = await t.json(`/v1/users/li-ming/memories/${String(zh.body.memoryId)}`);
    expect(memory.body).toMatchObject({ content: '2026年1月2日16:00开会', happenedAt: '2026-01-02T08:00:00.000Z' });
    expect((await patch(en.body.id, { when: 'Monday at 10am' })).body).toMatchObject({ content: 'call the dentist on 2026-01-05 at 10:00', dueAt: '2026-01-05T02:00:00.000Z' });
    expect((await patch(en.body.id, { dueAt: '2026-01-06T01:00:00Z', remindAt: null })).body).toMatchObject({ dueAt: '2026-01-06T01:00:00.000Z' });
    const items = (await t.json('/v1/users/li-ming/todos')).body.items as Array<{ id: string; remindAt?: string }>;
    expect(items.find((x) => x.id === en.body.id)!.remindAt).toBeUndefined();
    expect((await patch(en.body.id, { repeat: { every: 'week', weekdays: [2] } })).body).toMatchObject({ repeat: { every: 'week', weekdays: [2], timeZone: 'Asia/Shanghai' } });
    // A series with its last day, given outright or said; one that is no date is refused.
    const pills = await t.json('/v1/users/li-ming/todos', { body: { content: 'take the pills at 8am', repeat: { every: 'day', until: '2026-01-05' } } });
    expect(pills.status).toBe(201);
    expect(pills.body).toMatchObject({ repeat: { every: 'day', until: '2026-01-05' } });
    expect((await t.json('/v1/users/li-ming/todos', { body: { content: '每天早上八点吃药，到周六为止' } })).body).toMatchObject({ repeat: { every: 'day', until: '2026-01-03' } });
    expect((await t.json('/v1/users/li-ming/todos', { body: { content: 'pills', repeat: { every: 'day', until: 'Friday' } } })).status).toBe(400);
    expect((await patch(pills.body.id, { when: 'until Saturday' })).body).toMatchObject({ repeat: { every: 'day', until: '2026-01-03' } });
    // The reminder's lead as said: the time and the words stay.
    expect((await patch(zh.body.id, { remind: '提前半小时' })).body).toMatchObject({ content: '2026年1月2日16:00开会', dueAt: '2026-01-02T08:00:00.000Z', remindAt: '2026-01-02T07:30:00.000Z' });
    expect((await patch(zh.body.id, { remind: 'the night before' })).body).toMatchObject({ dueAt: '2026-01-02T08:00:00.000Z', remindAt: '2026-01-01T12:00:00.000Z' });
    const before = (await t.json('/v1/users/li-ming/todos')).body.items;
    for (const bad of [{ when: '会议室B' }, {}, { when: 'Monday', dueAt: '2026-01-06T01:00:00Z' }, { dueAt: 'tomorrow' }, { remindAt: '2026-02-01T00:00:00Z' }, { colour: 'red' }, { remind: '尽快' }, { remind: '提前一天', remindAt: '2026-01-01T09:00:00Z' }, { remind: '' }]) {
      expect((await patch(zh.body.id, bad)).status).toBe(400);
    }
    expect((await patch(zh.body.id, { when: '下午五点' }, 'alice')).status).toBe(404);
    expect((await t.json('/v1/users/li-ming/todos')).body.items).toEqual(before);
  });

  it('forget one memory, a topic, everything', async () => {
    const t = make();
    const cat = await t.json('/v1/users/u/memories', { body: { content: '用户喜欢猫', kind: 'preference' } });
    await t.json('/v1/users/u/memories', { body: { content: 'The user plays tennis every Sunday', kind: 'pattern' } });
    await t.json('/v1/users/u/memories', { body: { content: 'The user drinks green tea', kind: 'preference' } });
    expect((await t.json('/v1/users/u/forget', { body: { memoryId: cat.body.id } })).body).toMatchObject({ scope: 'memory' });
    const topic = await t.json('/v1/users/u/forget', { body: { topic: 'tennis' } });
    expect(topic.body.scope).toBe('topic');
    expect((await t.memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(['The user drinks green tea']);
    expect((await t.json('/v1/users/u/forget', { body: { all: true } })).body.scope).toBe('user');
    expect(await t.memory.list({ userId: 'u' })).toEqual([]);
    expect((await t.json('/v1/users/u/forget', { body: { all: false } })).status).toBe(400);
    expect((await t.json('/v1/users/u/forget', { body: { topic: 'a', memoryId: 'b' } })).status).toBe(400);
  });

  it.each([
    { lang: 'zh', said: '我前女友叫小美', about: '用户的前女友叫小美', request: '忘掉我前女友的事' },
    { lang: 'en', said: 'My ex is named Sarah', about: "The user's ex is named Sarah", request: 'forget what I told you about my ex' },
  ])('$lang: what a request in conversation forgot is listed, undone, or erased at once; not by another user', async ({ said, about, request }) => {
    const t = make();
    await t.json('/v1/users/u/memories', { body: { content: about } });
    await t.json('/v1/users/u/sessions/s1/messages', { body: { messages: [{ role: 'user', content: said }] } });
    const asked = await t.json('/v1/users/u/sessions/s1/messages', { body: { messages: [{ role: 'user', content: request }] } });
    const id = String((asked.body.appended as Array<{ id: string }>)[0]!.id);
    const listed = await t.json('/v1/users/u/forgotten');
    expect(listed.body.items).toEqual([{ id, at: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-08T00:00:00.000Z', topic: expect.any(String), request, memories: 1, messages: 2, todos: 0 }]);
    expect((await t.json('/v1/users/v/forgotten')).body.items).toEqual([]);
    expect((await t.json(`/v1/users/v/forgotten/${id}/undo`, { method: 'POST' })).status).toBe(404);

    const undone = await t.json(`/v1/users/u/forgotten/${id}/undo`, { method: 'POST' });

    expect([undone.status, undone.body]).toEqual([200, expect.objectContaining({ id, memories: 1, messages: 2 })]);
    expect(((await t.json('/v1/users/u/sessions/s1/messages')).body.items as Array<{ content: string }>).map((m) => m.content)).toEqual([said, request]);
    expect((await t.json(`/v1/users/u/forgotten/${id}/undo`, { method: 'POST' })).body.error?.code).toBe('CONFLICT');
    // Asked again and erased at once this time: nothing left to undo.
    const again = await t.json('/v1/users/u/sessions/s1/messages', { body: { messages: [{ role: 'user', content: request }] } });
    const second = String((again.body.appended as Array<{ id: string }>)[0]!.id);
    expect((await t.json(`/v1/users/u/forgotten/${second}`, { method: 'DELETE' })).body).toEqual({ id: second, memories: 1, messages: 3 });
    expect((await t.json(`/v1/users/u/forgotten/${second}/undo`, { method: 'POST' })).body.error?.code).toBe('NOT_FOUND');
    expect(await t.memory.list({ userId: 'u', statuses: ['active', 'deleted'] })).toEqual([]);
  });

  it('a body /forget does not take is refused naming the bodies it takes, and nothing is forgotten (zh/en)', async () => {
    const t = make();
    for (const content of ['用户在考虑跳槽', 'The user likes cats']) await t.json('/v1/users/u/memories', { body: { content } });
    for (const body of [{ all: true, topic: '跳槽' }, { all: false }, { topic: 'cats', memoryId: 'm-1' }, { topic: '跳槽', dryRun: 'yes' }, {}, ['all']]) {
      const r = await t.json('/v1/users/u/forget', { body });
      expect([body, r.status, r.body.error?.code]).toEqual([body, 400, 'INVALID_INPUT']);
      for (const shape of ['{"all": true}', '{"topic": "…", "dryRun"?: true | false}', '{"memoryId": "…"}']) expect(r.body.error?.message).toContain(shape);
      expect(r.body.error?.message).not.toContain('Invalid input');
    }
    // A body of the right shape with a bad value still names the field.
    expect((await t.json('/v1/users/u/forget', { body: { topic: ' ' } })).body.error?.message).toMatch(/topic: /);
    expect((await t.memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual(['The user likes cats', '用户在考虑跳槽']);
  });

  it('export then import into another user (and tenant-safe: records are re-owned)', async () => {
    const t = make();
    await t.json('/v1/users/src/memories', { body: { content: '用户喜欢猫', kind: 'preference' } });
    await t.json('/v1/users/src/sessions/s1/messages', { body: { messages: [{ role: 'user', content: 'I moved to Berlin' }] } });
    const exported = await t.json('/v1/users/src/export');
    expect(exported.body).toMatchObject({ format: 'engram-export', userId: 'src' });
    // Into the same database: the ids already taken are re-issued, every row becomes dst's.
    const same = await t.json('/v1/users/dst/import', { body: exported.body });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ memories: 1, messages: 1 });
    expect((await t.memory.list({ userId: 'dst' })).map((m) => [m.content, m.userId])).toEqual([['用户喜欢猫', 'dst']]);
    expect((await t.memory.list({ userId: 'src' })).map((m) => m.content)).toEqual(['用户喜欢猫']);
    const other = make();
    const imported = await other.json('/v1/users/dst/import', { body: exported.body });
    expect(imported.body).toMatchObject({ memories: 1, messages: 1 });
    expect((await other.memory.list({ userId: 'dst' })).map((m) => [m.content, m.userId])).toEqual([['用户喜欢猫', 'dst']]);
  });

  it('learnings, profile, episodes, and the memory.md mirror', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-mirror-'));
    const t = make({ workspace: dir, engine: { workspace: dir } });
    const l = await t.json('/v1/users/u/learnings', { body: { task: '生成周报', steps: ['导出本周提交', '按项目分组', '写摘要'] } });
    expect(l.body).toMatchObject({ kind: 'skill' });
    const found = await t.json(`/v1/users/u/learnings?task=${encodeURIComponent('写周报')}`);
    expect((found.body.items as unknown[]).length).toBe(1);
    expect((await t.json('/v1/users/u/profile')).body).toEqual({ profile: null });
    expect((await t.json('/v1/users/u/profile/versions')).body).toEqual({ items: [] });
    expect((await t.json('/v1/users/u/episodes')).body).toEqual({ items: [] });
    await t.json('/v1/users/u/memories', { body: { content: 'The user likes jazz', kind: 'preference' } });
    const md = await t.app.request('/v1/users/u/mirror');
    expect(md.headers.get('content-type')).toContain('text/markdown');
    expect(await md.text()).toContain('The user likes jazz');
    expect(await (await t.app.request('/v1/users/u/mirror?file=learnings')).text()).toContain('生成周报');
  });

  it('mirror without a workspace is a clear 409', async () => {
    const t = make();
    const r = await t.json('/v1/users/u/mirror');
    expect(r.status).toBe(409);
    expect(r.body.error?.code).toBe('CONFIG_INVALID');
  });
});

describe('forgetting a topic, dry run first', () => {
  it.each([
    ['zh', ['我在考虑跳槽去一家创业公司', '用户喜欢猫'], '跳槽'],
    ['en', ['The user is thinking of quitting to join a startup', 'The user likes cats'], 'startup'],
  ])('%s: dryRun lists the memories that mention it and erases nothing; then forgetting erases them', async (_, contents, topic) => {
    const t = make();
    for (const content of contents) await t.json('/v1/users/u/memories', { body: { content } });
    const dry = await t.json('/v1/users/u/forget', { body: { topic, dryRun: true } });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ scope: 'topic', dryRun: true, topic, wouldErase: [expect.objectContaining({ content: contents[0] })] });
    expect((dry.body.wouldErase as unknown[]).length).toBe(1);
    expect(((await t.json('/v1/users/u/memories')).body.items as unknown[]).length).toBe(2);
    expect((await t.json('/v1/users/u/forget', { body: { topic } })).body).toMatchObject({ scope: 'topic', forgotten: [expect.any(String)] });
    expect(((await t.json('/v1/users/u/memories')).body.items as Array<{ content: string }>).map((m) => m.content)).toEqual([contents[1]]);
  });

  it.each([
    ['zh', '刘强', ['用户的同事叫刘强', '刘强喜欢打篮球'], ['用户在读刘强东的自传', '刘强东创办了京东']],
    ['en', 'Sam', ["The user's coworker is named Sam", 'Sam plays basketball'], ["The user is reading Samantha Power's memoir", 'Samantha Power was a US ambassador']],
  ])('%s: a name lists and erases theirs, not those of someone whose name begins with it', async (_, name, theirs, others) => {
    const t = make();
    for (const content of [...theirs, ...others]) await t.json('/v1/users/u/memories', { body: { content } });
    const dry = await t.json('/v1/users/u/forget', { body: { topic: name, dryRun: true } });
    expect((dry.body.wouldErase as Array<{ content: string }>).map((m) => m.content).sort()).toEqual([...theirs].sort());
    expect((await t.json('/v1/users/u/forget', { body: { topic: name } })).body.forgotten).toHaveLength(theirs.length);
    expect(((await t.json('/v1/users/u/memories')).body.items as Array<{ content: string }>).map((m) => m.content).sort()).toEqual([...others].sort());
  });
});
