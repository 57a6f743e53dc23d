/** Extraction worker settings: configuration, the same in every process over one store. */
export interface ExtractionOptions {
  /** How long one worker may hold a session before another may take over. @default 300000 */
  leaseMs: number;
  /** Failures of one batch before the session is marked failed. @default 5 */
  maxFailures: number;
  /** First retry delay; doubles per failure, capped at one hour. @default 30000 */
  retryBaseMs: number;
  /** Most new messages sent in one model call. @default 60 */
  maxBatch: number;
  /** How often a held lease is extended while the model call runs. @default leaseMs / 3 */
  renewEveryMs?: number;
}

export const DEFAULT_EXTRACTION_OPTIONS: ExtractionOptions = { leaseMs: 300_000, maxFailures: 5, retryBaseMs: 30_000, maxBatch: 60 };
