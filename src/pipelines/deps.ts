import type { Clock, IdGenerator, Logger } from '../deps.js';
import type { Embedder } from '../embedders/embedder.js';
import type { Store } from '../store/store.js';

/** The one bundle of services the pipelines take (STYLE habit 2). */
export interface MemoryDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}
