import type { Relation } from '../../domain/profile.js';

/** Typed links between two memories of one user. */
export interface RelationsPort {
  insertRelation(relation: Relation): Promise<void>;
  /** Removes one relation of this user; false when there was none with this id. */
  deleteRelation(userId: string, id: string): Promise<boolean>;
  /** Relations where the memory is the source or the target. */
  relationsOf(userId: string, memoryId: string): Promise<Relation[]>;
  /** Every relation of a user (for export). */
  relationsOfUser(userId: string): Promise<Relation[]>;
}
