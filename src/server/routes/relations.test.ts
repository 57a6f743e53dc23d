import { afterEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test-app.js';

let t: TestApp;
afterEach(() => t.memory.close());

const items = (body: Record<string, unknown>) => body.items as Array<{ id: string; type: string; sourceId: string; targetId: string; strength: number }>;

describe('relations over HTTP (issue 12 item 6)', () => {
  it.each([
    ['zh', '用户住在上海', '用户每天在上海坐地铁上班', '用户住在北京'],
    ['en', 'The user lives in Berlin', 'The user commutes by U-Bahn in Berlin every day', 'The user lives in Paris'],
  ])('%s: adds, lists and removes a relation of a memory', async (_, home, commute, old) => {
    t = testApp();
    const add = async (content: string) => String((await t.json('/v1/users/u/memories', { body: { content, kind: 'fact' } })).body.id);
    const [a, b, c] = [await add(home), await add(commute), await add(old)];
    const made = await t.json(`/v1/users/u/memories/${b}/relations`, { body: { targetId: a, type: 'supports', strength: 0.8, reason: commute } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ sourceId: b, targetId: a, type: 'supports', strength: 0.8, userId: 'u' });
    const contra = await t.json(`/v1/users/u/memories/${a}/relations`, { body: { targetId: c, type: 'contradicts' } });
    expect(contra.body).toMatchObject({ type: 'contradicts', strength: 1 });
    expect(items((await t.json(`/v1/users/u/memories/${a}/relations`)).body).map((r) => r.type).sort()).toEqual(['contradicts', 'supports']);

    // Removed through its own memory's path only.
    const wrongPath = await t.json(`/v1/users/u/memories/${c}/relations/${String(made.body.id)}`, { method: 'DELETE' });
    expect(wrongPath.status).toBe(404);
    const removed = await t.json(`/v1/users/u/memories/${a}/relations/${String(made.body.id)}`, { method: 'DELETE' });
    expect(removed).toMatchObject({ status: 200, body: { id: made.body.id, deleted: true } });
    expect(items((await t.json(`/v1/users/u/memories/${a}/relations`)).body).map((r) => r.type)).toEqual(['contradicts']);
    expect((await t.json(`/v1/users/u/memories/${a}/relations/${String(made.body.id)}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad relations with codes: unknown type, unknown target, self, duplicate, another user\'s memory', async () => {
    t = testApp();
    const add = async (userId: string, content: string) => String((await t.json(`/v1/users/${userId}/memories`, { body: { content } })).body.id);
    const a = await add('u', '用户喜欢猫');
    const b = await add('u', 'The user likes cats');
    const other = await add('v', 'The user likes dogs');
    const post = (id: string, body: unknown) => t.json(`/v1/users/u/memories/${id}/relations`, { body });
    expect((await post(a, { targetId: b, type: 'loves' })).body.error?.code).toBe('INVALID_INPUT');
    expect((await post(a, { targetId: b, type: 'refines', extra: 1 })).status).toBe(400);
    expect((await post(a, { targetId: 'nope', type: 'refines' })).body.error?.code).toBe('NOT_FOUND');
    expect((await post(a, { targetId: other, type: 'refines' })).status).toBe(404);
    expect((await post(a, { targetId: a, type: 'refines' })).status).toBe(400);
    expect((await post(a, { targetId: b, type: 'refines' })).status).toBe(201);
    expect((await post(a, { targetId: b, type: 'refines' })).status).toBe(400);
  });

  it('the routes are in the generated OpenAPI document', async () => {
    t = testApp();
    const doc = (await t.json('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/v1/users/{userId}/memories/{id}/relations'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/users/{userId}/memories/{id}/relations/{relationId}'] ?? {})).toEqual(['delete']);
    expect(Object.keys(doc.paths['/v1/users/{userId}/replies'] ?? {})).toEqual(['post']);
  });
});

describe('reinforcement by use over HTTP (issue 9): POST /v1/users/{userId}/replies', () => {
  it.each([
    ['zh', '用户喜欢猫', '用户住在杭州', '我该养什么宠物？', '你喜欢猫，可以养一只猫。'],
    ['en', 'The user loves hiking in the Alps', 'The user works as a nurse', 'What should I do this weekend?', 'Since you love hiking, try a hike in the Alps.'],
  ])('%s: the memory the reply used is reinforced, the other is not', async (_, used, unused, message, reply) => {
    t = testApp();
    const a = (await t.json('/v1/users/u/memories', { body: { content: used, kind: 'preference', importance: 0.5 } })).body;
    const b = (await t.json('/v1/users/u/memories', { body: { content: unused, kind: 'fact', importance: 0.5 } })).body;
    const r = await t.json('/v1/users/u/replies', { body: { message, reply, recalledIds: [a.id, b.id] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ used: [{ id: a.id }], ignored: [b.id] });
    expect((await t.json(`/v1/users/u/memories/${String(a.id)}`)).body.importance).toBeGreaterThan(0.5);
    expect((await t.json(`/v1/users/u/memories/${String(b.id)}`)).body.importance).toBe(0.5);
    // Another user's ids are not theirs to reinforce.
    const foreign = await t.json('/v1/users/v/replies', { body: { message, reply, recalledIds: [a.id] } });
    expect(foreign.body).toMatchObject({ used: [], ignored: [] });
    expect((await t.json('/v1/users/u/replies', { body: { message, reply } })).status).toBe(400);
  });
});
