import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { testApp } from '../test-app.js';

const make = closesAfterEach(() => testApp(), (t) => t.memory.close());
const base = '/v1/users/u/memories';

describe('PATCH /memories/{id} with If-Match (optimistic concurrency)', () => {
  it.each([
    ['zh', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'],
    ['en', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning'],
  ])('%s: the tester\'s lost update is a 412 that changes nothing; the current ETag applies only the edited field', async (_, content, edited) => {
    const t = make();
    const created = await t.json(base, { body: { content, kind: 'pattern', importance: 0.3 } });
    const id = created.body.id as string;
    // The page opens the editor: the memory's version, in the body and as the ETag.
    const opened = await t.json(`${base}/${id}`);
    expect(opened.headers.get('etag')).toBe(`"${opened.body.version as string}"`);
    expect(created.headers.get('etag')).toBe(opened.headers.get('etag'));
    const listed = await t.json(base);
    expect((listed.body.items as Array<{ id: string; version: string }>).find((m) => m.id === id)?.version).toBe(opened.body.version);

    // Another client, without a precondition: works as before, and gets the new ETag.
    const other = await t.json(`${base}/${id}`, { method: 'PATCH', body: { importance: 0.9, kind: 'preference' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(`"${other.body.version as string}"`);
    expect(other.body.version).not.toBe(opened.body.version);

    // The page saves what it read: refused.
    const save = await t.json(`${base}/${id}`, { method: 'PATCH', headers: { 'if-match': opened.headers.get('etag')! }, body: { content: edited } });
    expect(save.status).toBe(412);
    expect(save.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { id, current: other.body.version } });
    expect((await t.json(`${base}/${id}`)).body).toMatchObject({ content, kind: 'preference', importance: 0.9 });
    expect(((await t.json(`${base}/${id}/history`)).body.items as unknown[]).length).toBe(2);

    // Reloaded: the edit against the current ETag keeps the other client's change.
    const again = await t.json(`${base}/${id}`, { method: 'PATCH', headers: { 'if-match': other.headers.get('etag')! }, body: { content: edited } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ content: edited, kind: 'preference', importance: 0.9 });
    expect((await t.json(`${base}/${id}`)).headers.get('etag')).toBe(again.headers.get('etag'));
  });

  it('If-Match: * applies to the memory as it is; a malformed header is a 400 naming it and changes nothing', async () => {
    const t = make();
    const id = (await t.json(base, { body: { content: '用户喜欢猫', importance: 0.3 } })).body.id as string;
    expect((await t.json(`${base}/${id}`, { method: 'PATCH', headers: { 'if-match': '*' }, body: { importance: 0.4 } })).status).toBe(200);
    const bad = await t.json(`${base}/${id}`, { method: 'PATCH', headers: { 'if-match': 'not-quoted' }, body: { importance: 0.9 } });
    expect([bad.status, bad.body.error?.code, bad.body.error?.details?.field]).toEqual([400, 'INVALID_INPUT', 'If-Match']);
    const weak = await t.json(`${base}/${id}`, { method: 'PATCH', headers: { 'if-match': `W/"${(await t.json(`${base}/${id}`)).body.version as string}"` }, body: { importance: 0.9 } });
    expect(weak.status).toBe(412);
    expect((await t.json(`${base}/${id}`)).body.importance).toBe(0.4);
    expect((await t.json(`${base}/missing`, { method: 'PATCH', headers: { 'if-match': '"x"' }, body: { importance: 0.9 } })).status).toBe(404);
  });

  it.each([
    ['zh', '用户对花生过敏', '用户对花生和芒果过敏'],
    ['en', 'The user is allergic to peanuts', 'The user is allergic to peanuts and mangoes'],
  ])('%s: DELETE, restore and purge with a stale If-Match are 412 and change nothing; with the current ETag they apply', async (_, content, edited) => {
    const t = make();
    const read = await t.json(base, { body: { content } });
    const id = read.body.id as string;
    const stale = { 'if-match': read.headers.get('etag')! };
    const other = await t.json(`${base}/${id}`, { method: 'PATCH', body: { content: edited } });
    for (const [path, method] of [[`${base}/${id}`, 'DELETE'], [`${base}/${id}?purge=true`, 'DELETE'], [`${base}/${id}/purge`, 'POST']] as const) {
      const r = await t.json(path, { method, headers: stale });
      expect([path, method, r.status, r.body.error?.code, r.body.error?.details?.current]).toEqual([path, method, 412, 'PRECONDITION_FAILED', other.body.version]);
    }
    expect((await t.json(`${base}/${id}`)).body).toMatchObject({ content: edited, status: 'active' });

    const deleted = await t.json(`${base}/${id}`, { method: 'DELETE', headers: { 'if-match': other.headers.get('etag')! } });
    expect([deleted.status, deleted.body.status]).toEqual([200, 'deleted']);
    const deletedTag = deleted.headers.get('etag')!;
    expect(deletedTag).toBe(`"${(deleted.body.memory as { version: string }).version}"`);
    const restoreStale = await t.json(`${base}/${id}/restore`, { method: 'POST', headers: { 'if-match': other.headers.get('etag')! } });
    expect([restoreStale.status, restoreStale.body.error?.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await t.json(`${base}/${id}`)).body.status).toBe('deleted');
    const restored = await t.json(`${base}/${id}/restore`, { method: 'POST', headers: { 'if-match': deletedTag } });
    expect([restored.status, restored.body.status, restored.headers.get('etag')]).toEqual([200, 'active', `"${restored.body.version as string}"`]);
    const purged = await t.json(`${base}/${id}/purge`, { method: 'POST', headers: { 'if-match': restored.headers.get('etag')! } });
    expect([purged.status, purged.body.status]).toEqual([200, 'purged']);
    expect((await t.json(`${base}/${id}`)).status).toBe(404);
  });

  it('the OpenAPI document describes If-Match, the ETag and the 412', async () => {
    const t = make();
    const doc = (await t.json('/openapi.json')).body as { components: unknown; paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const op = doc.paths['/v1/users/{userId}/memories/{id}']!;
    expect(op.patch!.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'if-match', in: 'header' })]));
    expect(Object.keys(op.patch!.responses)).toEqual(expect.arrayContaining(['200', '412']));
    expect(op.get!.responses['200']!.headers).toHaveProperty('ETag');
    for (const [path, method] of [['/v1/users/{userId}/memories/{id}', 'delete'], ['/v1/users/{userId}/memories/{id}/restore', 'post'], ['/v1/users/{userId}/memories/{id}/purge', 'post']] as const) {
      const other = doc.paths[path]![method]!;
      expect(other.parameters, `${method} ${path}`).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'if-match', in: 'header' })]));
      expect(Object.keys(other.responses)).toContain('412');
    }
    expect(JSON.stringify(doc.components)).toContain('If-Match');
  });
});
