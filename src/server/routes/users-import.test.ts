import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { testApp } from '../test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
const ADMIN = 'admin-secret-0123456789';
type Rows = Array<Record<string, unknown>>;

describe('POST /v1/users/{userId}/import', () => {
  it('409 for a user who has data names the user as the caller does, never the tenant-scoped id (zh/en)', async () => {
    const { json } = make({ adminKey: ADMIN });
    const key = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'globex' } })).body.key);
    for (const [user, content] of [['alice', 'The user likes cats'], ['李明', '用户喜欢猫']] as const) {
      const path = `/v1/users/${encodeURIComponent(user)}`;
      await json(`${path}/memories`, { key, body: { content, kind: 'preference' } });
      const exported = await json(`${path}/export`, { key });
      const again = await json(`${path}/import`, { key, body: exported.body });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'CONFLICT', message: `User ${user} already has memories here; import into an empty user or forget the user first`, details: { userId: user } });
      expect(JSON.stringify(again.body)).not.toContain('t:globex');
    }
  });

  it('400 naming the field for a memory or a message longer than its limit, and nothing imported (zh/en)', async () => {
    const t = make();
    await t.json('/v1/users/src/memories', { body: { content: '用户喜欢猫', kind: 'preference' } });
    await t.json('/v1/users/src/sessions/s1/messages', { body: { messages: [{ role: 'user', content: 'I like cats' }] } });
    const file = (await t.json('/v1/users/src/export')).body as { memories: Rows; messages: Rows };
    for (const [memory, message] of [['猫'.repeat(10_000), '话'.repeat(200_000)], ['c'.repeat(10_000), 'w'.repeat(200_000)]]) {
      const longMemory = await t.json('/v1/users/dst/import', { body: { ...file, memories: [{ ...file.memories[0], content: memory }] } });
      expect(longMemory.status).toBe(400);
      expect(longMemory.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('memories.0.content') });
      const longMessage = await t.json('/v1/users/dst/import', { body: { ...file, messages: [{ ...file.messages[0], content: message }] } });
      expect(longMessage.status).toBe(400);
      expect(longMessage.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('messages.0.content') });
    }
    expect((await t.json('/v1/users/dst/export')).body).toMatchObject({ memories: [], messages: [] });
  });

  it('400 INVALID_INPUT naming the copies for a memories array given three times or a profile version twice; nothing written (zh/en)', async () => {
    const t = make();
    await t.json('/v1/users/src/memories', { body: { content: '用户喜欢猫 The user likes cats', kind: 'preference' } });
    const file = (await t.json('/v1/users/src/export')).body as { memories: Rows };
    const id = file.memories[0]!.id;
    const thrice = await t.json('/v1/users/dst/import', { body: { ...file, memories: [...file.memories, ...file.memories, ...file.memories] } });
    expect(thrice.status).toBe(400);
    expect(thrice.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(`memories.1: id ${id} is also memories.0's; memories.2: id ${id} is also memories.0's`) });
    const profile = { userId: 'src', version: 1, narrative: '用户喜欢猫。', basicInfo: {}, episodeCount: 0, createdAt: '2026-01-01T00:00:00.000Z' };
    const twoV1 = await t.json('/v1/users/dst/import', { body: { ...file, profiles: [profile, { ...profile, narrative: 'The user likes cats.' }] } });
    expect(twoV1.status).toBe(400);
    expect(twoV1.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining("profiles.1: version 1 is also profiles.0's") });
    expect((await t.json('/v1/users/dst/memories')).body.items).toEqual([]);
    expect((await t.json('/v1/users/dst/import', { body: file })).body).toMatchObject({ memories: 1 });
  });

  it('400 "Unrecognized key" for a key an export does not write, at the top level or in a memory (zh/en)', async () => {
    const t = make();
    await t.json('/v1/users/src/memories', { body: { content: '用户喜欢猫', kind: 'preference' } });
    await t.json('/v1/users/src/memories', { body: { content: 'The user likes dogs', kind: 'preference' } });
    const file = (await t.json('/v1/users/src/export')).body as { memories: Rows };
    const top = await t.json('/v1/users/dst/import', { body: { ...file, note: '备份' } });
    expect(top.status).toBe(400);
    expect(top.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/\(root\): Unrecognized key: "note"/) });
    const inMemory = await t.json('/v1/users/dst/import', { body: { ...file, memories: [file.memories[0], { ...file.memories[1], tags: ['pets'] }] } });
    expect(inMemory.status).toBe(400);
    expect(inMemory.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/memories\.1: Unrecognized key: "tags"/) });
    expect((await t.json('/v1/users/dst/memories')).body.items).toEqual([]);
    // The export as written goes back in.
    expect((await t.json('/v1/users/dst/import', { body: file })).body).toMatchObject({ memories: 2 });
  });
});
