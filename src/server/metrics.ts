import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MemoryEngine } from '../memory-engine.js';
import type { AppEnv } from './auth.js';
import { storeGaugesOf } from './store-gauges.js';

/** Prometheus metrics of one server (seed 004 §7); a registry of its own, so tests and apps never share. */
export interface ServerMetrics {
  registry: Registry;
  middleware: MiddlewareHandler<AppEnv>;
}

const RECALL_ROUTES = new Set(['/v1/users/:userId/search', '/v1/users/:userId/context', '/api/v1/memories']);

export function createMetrics(memory: MemoryEngine): ServerMetrics {
  const registry = new Registry();
  const requests = new Counter({ name: 'engram_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({ name: 'engram_http_request_duration_seconds', help: 'HTTP request latency by route', labelNames: ['route'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10], registers: [registry] });
  const recall = new Histogram({ name: 'engram_recall_duration_seconds', help: 'Recall (search and context) latency; p50/p99 via histogram_quantile', buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1], registers: [registry] });
  // Read at every scrape from the store itself (SQLite or PostgreSQL): the same figures in every process.
  const store = storeGaugesOf(memory.deps.store);
  new Gauge({
    name: 'engram_memories', help: 'Memories by kind and status', labelNames: ['kind', 'status'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of (await store?.memoryCounts()) ?? []) this.set({ kind: r.kind, status: r.status }, r.n);
    },
  });
  new Gauge({
    name: 'engram_memory_importance_average', help: 'Average importance of active memories', registers: [registry],
    async collect() {
      this.set((await store?.averageImportance()) ?? 0);
    },
  });
  new Gauge({
    name: 'engram_extraction_runs', help: 'Extraction runs recorded, by outcome', labelNames: ['outcome'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of (await store?.extractionRuns()) ?? []) this.set({ outcome: r.outcome }, r.n);
    },
  });
  new Gauge({
    name: 'engram_model_calls', help: 'Model calls of this process, by prompt', labelNames: ['prompt'], registers: [registry],
    collect() {
      this.reset();
      for (const [prompt, u] of Object.entries(memory.stats().usage?.byPrompt ?? {})) this.set({ prompt }, u.calls);
    },
  });
  new Gauge({
    name: 'engram_model_tokens', help: 'Model tokens of this process, by prompt and direction', labelNames: ['prompt', 'direction'], registers: [registry],
    collect() {
      this.reset();
      for (const [prompt, u] of Object.entries(memory.stats().usage?.byPrompt ?? {})) {
        this.set({ prompt, direction: 'input' }, u.inputTokens);
        this.set({ prompt, direction: 'output' }, u.outputTokens);
      }
    },
  });

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routePath(c, -1) || 'unmatched';
      const seconds = (performance.now() - started) / 1000;
      requests.inc({ method: c.req.method, route, status: String(c.res.status) });
      duration.observe({ route }, seconds);
      if (RECALL_ROUTES.has(route) && c.res.status < 400) recall.observe(seconds);
    }
  };
  return { registry, middleware };
}
