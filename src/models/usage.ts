/** Counters for one prompt id (or for all of them, in `total`). */
export interface PromptUsage {
  /** generate() calls, successful or not. */
  calls: number;
  /** generate() calls that ended in an error. */
  failures: number;
  /** HTTP requests made, including retries; always >= calls that reached the model. */
  attempts: number;
  inputTokens: number;
  outputTokens: number;
}

/** A plain, JSON-serialisable copy of the meter. */
export interface UsageSnapshot {
  total: PromptUsage;
  byPrompt: Record<string, PromptUsage>;
}

/** One finished generate() call, as the model reports it to the meter. */
export interface UsageRecord {
  promptId: string;
  ok: boolean;
  attempts: number;
  /** Tokens summed over every attempt that got an answer, including rejected ones: they were paid for. */
  inputTokens: number;
  outputTokens: number;
}

/**
 * Accounts model calls, failures and tokens per prompt id. Share one meter between models to get
 * a single bill; read it with `snapshot()`.
 */
export interface UsageMeter {
  record(entry: UsageRecord): void;
  snapshot(): UsageSnapshot;
  reset(): void;
}

function empty(): PromptUsage {
  return { calls: 0, failures: 0, attempts: 0, inputTokens: 0, outputTokens: 0 };
}

function add(target: PromptUsage, entry: UsageRecord): void {
  target.calls += 1;
  if (!entry.ok) target.failures += 1;
  target.attempts += entry.attempts;
  target.inputTokens += entry.inputTokens;
  target.outputTokens += entry.outputTokens;
}

/** Creates an in-memory usage meter. */
export function createUsageMeter(): UsageMeter {
  let total = empty();
  let byPrompt = new Map<string, PromptUsage>();
  return {
    record(entry) {
      let perPrompt = byPrompt.get(entry.promptId);
      if (!perPrompt) {
        perPrompt = empty();
        byPrompt.set(entry.promptId, perPrompt);
      }
      add(perPrompt, entry);
      add(total, entry);
    },
    snapshot() {
      const copy: Record<string, PromptUsage> = {};
      for (const [id, u] of byPrompt) copy[id] = { ...u };
      return { total: { ...total }, byPrompt: copy };
    },
    reset() {
      total = empty();
      byPrompt = new Map();
    },
  };
}
