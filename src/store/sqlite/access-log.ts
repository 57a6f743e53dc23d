import type { Memory } from '../../domain/memory.js';

interface Pending {
  userId: string;
  id: string;
  /** Accesses not yet written. */
  count: number;
  /** The last recorded access time (what the write sets last_accessed_at to, as one write per access would). */
  at: Date;
}

/**
 * Accesses recorded by recall and context, held in this process until one transaction writes
 * them all: with `synchronous = FULL` every write transaction costs an fsync, which was most of
 * a recall's time. Memories read from this connection meanwhile show the pending accesses, so
 * the process sees exactly what one write per recall would have shown; other processes see
 * them after the flush (the store flushes after a short delay, before a backup and on close).
 */
export class AccessLog {
  /** By user, then memory id: a lookup per row read needs no key built. */
  private pending = new Map<string, Map<string, Pending>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(userId: string, ids: readonly string[], at: Date): void {
    let mine = this.pending.get(userId);
    if (!mine) this.pending.set(userId, (mine = new Map()));
    for (const id of ids) {
      const p = mine.get(id);
      if (p) {
        p.count++;
        p.at = at;
      } else {
        mine.set(id, { userId, id, count: 1, at });
        this.count++;
      }
    }
  }

  /** Forgets the pending accesses of one memory, or of all a user's memories (they are being erased). */
  drop(userId: string, id?: string): void {
    const mine = this.pending.get(userId);
    if (!mine) return;
    if (id === undefined) {
      this.count -= mine.size;
      this.pending.delete(userId);
      return;
    }
    if (mine.delete(id)) this.count--;
    if (mine.size === 0) this.pending.delete(userId);
  }

  /** The memory as it reads once the pending accesses are written. */
  overlay<M extends Pick<Memory, 'userId' | 'id' | 'accessCount' | 'lastAccessedAt'>>(memory: M): M {
    if (this.count === 0) return memory;
    const p = this.pending.get(memory.userId)?.get(memory.id);
    return p ? { ...memory, accessCount: memory.accessCount + p.count, lastAccessedAt: p.at } : memory;
  }

  /**
   * Hands up to `limit` pending accesses to `write` (which must write them all or throw) and
   * forgets them only once it returned: a failed write keeps them for the next attempt. Returns
   * how many are still pending.
   */
  flush(write: (accesses: readonly Pending[]) => void, limit = Infinity): number {
    if (this.count === 0) return 0;
    const batch: Pending[] = [];
    outer: for (const mine of this.pending.values()) {
      for (const p of mine.values()) {
        if (batch.length >= limit) break outer;
        batch.push(p);
      }
    }
    write(batch);
    for (const p of batch) this.drop(p.userId, p.id);
    return this.count;
  }
}
