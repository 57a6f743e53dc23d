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
  private pending = new Map<string, Pending>();

  get size(): number {
    return this.pending.size;
  }

  add(userId: string, ids: readonly string[], at: Date): void {
    for (const id of ids) {
      const key = `${userId}\u0000${id}`;
      const p = this.pending.get(key);
      if (p) {
        p.count++;
        p.at = at;
      } else this.pending.set(key, { userId, id, count: 1, at });
    }
  }

  /** Forgets the pending accesses of one memory, or of all a user's memories (they are being erased). */
  drop(userId: string, id?: string): void {
    if (id !== undefined) this.pending.delete(`${userId}\u0000${id}`);
    else for (const [key, p] of this.pending) if (p.userId === userId) this.pending.delete(key);
  }

  /** The memory as it reads once the pending accesses are written. */
  overlay<M extends Pick<Memory, 'userId' | 'id' | 'accessCount' | 'lastAccessedAt'>>(memory: M): M {
    if (this.pending.size === 0) return memory;
    const p = this.pending.get(`${memory.userId}\u0000${memory.id}`);
    return p ? { ...memory, accessCount: memory.accessCount + p.count, lastAccessedAt: p.at } : memory;
  }

  /**
   * Hands the pending accesses to `write` (which must write them all or throw) and forgets them
   * only once it returned: a failed write keeps them for the next attempt.
   */
  flush(write: (accesses: readonly Pending[]) => void): void {
    if (this.pending.size === 0) return;
    write([...this.pending.values()]);
    this.pending = new Map();
  }
}
