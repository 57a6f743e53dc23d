/** Counters of the extraction pipeline in this process (the durable record is extraction_runs). */
export interface ExtractionStats {
  batches: number;
  modelCalls: number;
  heuristicRuns: number;
  smallTalkSkipped: number;
  failures: number;
  added: number;
  updated: number;
  deleted: number;
  reinforced: number;
  rejected: number;
}

export function emptyStats(): ExtractionStats {
  return { batches: 0, modelCalls: 0, heuristicRuns: 0, smallTalkSkipped: 0, failures: 0, added: 0, updated: 0, deleted: 0, reinforced: 0, rejected: 0 };
}
