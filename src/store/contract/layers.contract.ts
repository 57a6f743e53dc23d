import { describe, expect, it } from 'vitest';
import type { Profile, Relation } from '../../domain/profile.js';
import { at, mem, user, useStore, vec, type StoreFactory } from './fixtures.js';

export const profile = (userId: string, version: number, narrative: string): Profile => ({
  userId, version, narrative, basicInfo: { city: '杭州', job: 'teacher' }, changes: `v${version}`, producedBy: 'update-profile@2', episodeCount: version, createdAt: at(version),
});

export const relation = (id: string, userId: string, sourceId: string, targetId: string): Relation => ({
  id, userId, sourceId, targetId, type: 'supersedes', strength: 0.7, reason: '新的取代旧的 newer wins', createdAt: at(1),
});

/** ProfilesPort: versions, the latest, deleting versions. */
export function describeProfilesContract(name: string, factory: StoreFactory): void {
  describe(`profiles port: ${name}`, () => {
    const open = useStore(factory);

    it('keeps every version, returns the latest, deletes chosen versions', async () => {
      const { store } = open();
      expect(await store.latestProfile('u')).toBeNull();
      await store.insertProfile(profile('u', 1, '住在杭州的老师'));
      await store.insertProfile(profile('u', 2, 'A teacher in Hangzhou who runs'));
      await store.insertProfile(profile('u', 3, '住在杭州、爱跑步的老师'));
      expect(await store.latestProfile('u')).toEqual(profile('u', 3, '住在杭州、爱跑步的老师'));
      expect((await store.profileVersions('u')).map((p) => p.version).sort()).toEqual([1, 2, 3]);
      expect((await store.profileVersions('u')).find((p) => p.version === 2)).toEqual(profile('u', 2, 'A teacher in Hangzhou who runs'));
      await store.deleteProfileVersions('u', [2, 3, 9]);
      expect((await store.profileVersions('u')).map((p) => p.version)).toEqual([1]);
      expect((await store.latestProfile('u'))!.version).toBe(1);
    });
  });
}

/** RelationsPort: insert, of a memory, of a user, delete. */
export function describeRelationsContract(name: string, factory: StoreFactory): void {
  describe(`relations port: ${name}`, () => {
    const open = useStore(factory);

    it('links memories both ways, lists a user\'s relations, deletes one', async () => {
      const { store } = open();
      for (const [id, content] of [['a', '以前喜欢咖啡'], ['b', 'Now prefers tea'], ['c', '喝绿茶']]) await store.insertMemory(mem(id!, 'u', content!), vec(1), user);
      await store.insertRelation(relation('r1', 'u', 'b', 'a'));
      await store.insertRelation({ ...relation('r2', 'u', 'c', 'b'), type: 'refines', reason: undefined });
      expect((await store.relationsOf('u', 'b')).map((r) => r.id).sort()).toEqual(['r1', 'r2']);
      expect(await store.relationsOf('u', 'a')).toEqual([relation('r1', 'u', 'b', 'a')]);
      expect((await store.relationsOfUser('u')).map((r) => r.id).sort()).toEqual(['r1', 'r2']);
      expect(await store.deleteRelation('u', 'r1')).toBe(true);
      expect(await store.deleteRelation('u', 'r1')).toBe(false);
      expect((await store.relationsOfUser('u')).map((r) => r.id)).toEqual(['r2']);
    });
  });
}

/** SettingsPort: per user over the '*' defaults; own values apart. */
export function describeSettingsContract(name: string, factory: StoreFactory): void {
  describe(`settings port: ${name}`, () => {
    const open = useStore(factory);

    it('merges a user\'s values over the global defaults, and keeps own values apart', async () => {
      const { store } = open();
      expect(await store.getSettings('u')).toEqual({});
      await store.setSettings('*', { silentMinutes: 5, timeZone: 'UTC' });
      await store.setSettings('u', { timeZone: 'Asia/Shanghai', note: '中文备注' });
      await store.setSettings('u', { retentionDays: 7 });
      expect(await store.getSettings('u')).toEqual({ silentMinutes: 5, timeZone: 'Asia/Shanghai', note: '中文备注', retentionDays: 7 });
      expect(await store.ownSettings('u')).toEqual({ timeZone: 'Asia/Shanghai', note: '中文备注', retentionDays: 7 });
      expect(await store.ownSettings('*')).toEqual({ silentMinutes: 5, timeZone: 'UTC' });
      expect(await store.getSettings('v')).toEqual({ silentMinutes: 5, timeZone: 'UTC' });
      expect(await store.ownSettings('v')).toEqual({});
    });
  });
}
