import { Profile, Relation } from '../../domain/profile.js';
import type { Store } from '../store.js';
import type { PgContext, Row } from './pg-db.js';

const toRelation = (r: Row): Relation =>
  Relation.parse({ id: r.id, userId: r.user_id, sourceId: r.source_id, targetId: r.target_id, type: r.type, strength: r.strength, reason: r.reason ?? undefined, createdAt: new Date(Number(r.created_at)) });

const toProfile = (r: Row): Profile =>
  Profile.parse({
    userId: r.user_id, version: r.version, narrative: r.narrative, basicInfo: JSON.parse(String(r.basic_info)),
    changes: r.changes ?? undefined, producedBy: r.produced_by ?? undefined, episodeCount: r.episode_count, createdAt: new Date(Number(r.created_at)),
  });

/** Relations between memories and the versions of the core profile. */
export function profileRole(ctx: PgContext): Pick<Store, 'insertRelation' | 'deleteRelation' | 'relationsOf' | 'relationsOfUser' | 'latestProfile' | 'profileVersions' | 'insertProfile' | 'deleteProfileVersions'> {
  return {
    insertRelation: async (r) => {
      await ctx.run('INSERT INTO memory_relations (id, user_id, source_id, target_id, type, strength, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [r.id, r.userId, r.sourceId, r.targetId, r.type, r.strength, r.reason ?? null, r.createdAt.getTime()]);
    },
    deleteRelation: async (userId, id) => (await ctx.run('DELETE FROM memory_relations WHERE user_id = $1 AND id = $2', [userId, id])) > 0,
    relationsOf: async (userId, memoryId) => (await ctx.rows('SELECT * FROM memory_relations WHERE user_id = $1 AND (source_id = $2 OR target_id = $2) ORDER BY created_at, rid', [userId, memoryId])).map(toRelation),
    relationsOfUser: async (userId) => (await ctx.rows('SELECT * FROM memory_relations WHERE user_id = $1 ORDER BY created_at, rid', [userId])).map(toRelation),
    latestProfile: async (userId) => {
      const [row] = await ctx.rows('SELECT * FROM profiles WHERE user_id = $1 ORDER BY version DESC LIMIT 1', [userId]);
      return row ? toProfile(row) : null;
    },
    profileVersions: async (userId) => (await ctx.rows('SELECT * FROM profiles WHERE user_id = $1 ORDER BY version', [userId])).map(toProfile),
    insertProfile: async (p) => {
      await ctx.run('INSERT INTO profiles (user_id, version, narrative, basic_info, changes, produced_by, episode_count, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
        p.userId, p.version, p.narrative, JSON.stringify(p.basicInfo), p.changes ?? null, p.producedBy ?? null, p.episodeCount, p.createdAt.getTime(),
      ]);
    },
    deleteProfileVersions: async (userId, versions) => {
      if (versions.length > 0) await ctx.run('DELETE FROM profiles WHERE user_id = $1 AND version = ANY($2::int[])', [userId, [...versions]]);
    },
  };
}
