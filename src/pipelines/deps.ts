import type { Clock, IdGenerator, Logger } from '../deps.js';
import type { Embedder } from '../embedders/embedder.js';
import type { ExtractionStats } from '../extraction/stats.js';
import type { LanguageModelPort } from '../models/language-model.js';
import type { Store } from '../store/store.js';
import type { ExtractionOptions } from './extraction-options.js';

/** The one bundle of services the pipelines take (STYLE habit 2). */
export interface MemoryDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

/**
 * The engine's services: what every process over the same store builds the same way (the
 * MemoryDeps bundle, the model, the extraction settings). Safe to share; holds no state of its own.
 */
export interface EngineServices extends MemoryDeps {
  /** The LLM; without one the heuristic extractor runs. */
  model?: LanguageModelPort;
  extraction: ExtractionOptions;
}

/** The named steps of one extraction, for the test hook (a child process is crashed at each). */
export type ExtractionStep = 'loaded' | 'extracted' | 'embedded' | 'applying' | 'committed';

/**
 * The mutable state of one process: a second process (or a second engine in this one) has its
 * own. Kept apart from the services so nothing mistakes it for something the store shares.
 */
export interface ProcessRuntime {
  /** Identifies this process's worker in session leases. */
  workerId: string;
  /** Counters of this process (the durable record is the store's extraction runs). */
  stats: ExtractionStats;
  /**
   * Work running in this process, by "<task>\u0000<user>\u0000<session>". The store's lease keeps
   * other processes out and lets a restarted worker reclaim its own lease at once; this set keeps
   * a second run in the same process (a background nudge and a scheduler pass) out.
   */
  running: Set<string>;
  /** Test hook: called at named steps (used to crash a child process at each). */
  onStep?: (step: ExtractionStep) => void | Promise<void>;
}

/** Services and runtime together: what the engine hands its pipelines (`memory.deps`). */
export type EngineDeps = EngineServices & ProcessRuntime;

/** The slice of pipelines that call the model: the services, the model, and the usage counters. */
export type ModelDeps = MemoryDeps & Pick<EngineDeps, 'model' | 'stats'>;
