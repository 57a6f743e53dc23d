import type Database from 'better-sqlite3';
import { dataVersion } from './statements.js';
import { VectorIndex, type VectorMetric, type VectorSearchOptions } from './vector-index.js';

export const MEMORY_VEC = 'memory_vec';
export const MESSAGE_VEC = 'message_vec';

/** The embedder a store is bound to, with the vector indexes its vectors live in. */
export interface Binding {
  id: string;
  dimensions: number;
  metric: VectorMetric;
  memories: VectorIndex;
  messages: VectorIndex;
}

/**
 * The store's current binding as seen by this connection. Another process may bind a fresh file
 * or re-bind it (reindex) at any time, so the binding is re-read whenever another connection has
 * committed since the last look (PRAGMA data_version) and on every miss; a process that opened
 * the file before anyone bound it thus finds the binding as soon as it exists.
 */
export class BoundVectors {
  private cached: Binding | null = null;
  private version = -1;
  private readonly metaStmt: Database.Statement;
  private readonly dataVersion: () => number;

  constructor(
    private readonly db: Database.Database,
    private readonly search: VectorSearchOptions = {},
  ) {
    this.dataVersion = dataVersion(db);
    this.metaStmt = db.prepare("SELECT key, value FROM engram_meta WHERE key IN ('embedder_id', 'embedder_dimensions', 'vector_metric')");
  }

  current(): Binding | null {
    const version = this.dataVersion();
    if (this.cached !== null && version === this.version) return this.cached;
    this.version = version;
    const meta = new Map((this.metaStmt.all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]));
    const id = meta.get('embedder_id');
    const dimensions = Number(meta.get('embedder_dimensions'));
    const metric = (meta.get('vector_metric') ?? 'cosine') as VectorMetric;
    if (id === undefined || !Number.isInteger(dimensions) || dimensions <= 0) return (this.cached = null);
    const c = this.cached;
    if (c === null || c.id !== id || c.dimensions !== dimensions || c.metric !== metric) {
      this.cached = { id, dimensions, metric, memories: new VectorIndex(this.db, MEMORY_VEC, metric, this.search), messages: new VectorIndex(this.db, MESSAGE_VEC, metric, this.search) };
    }
    return this.cached;
  }

  /** Forces a re-read (after this connection re-bound the store itself: data_version only counts other connections). */
  invalidate(): void {
    this.cached = null;
  }
}
