import { describe, expect, it } from 'vitest';
import { workerEntry } from './worker-entry.js';

describe('workerEntry', () => {
  it('starts the compiled script beside a compiled module', () => {
    expect(workerEntry('file:///app/dist/store/sqlite/background-checkpoints.js', 'checkpoint-worker')).toEqual([new URL('file:///app/dist/store/sqlite/checkpoint-worker.js'), {}]);
  });

  it("loads the TypeScript script through tsx beside a source module, also when tsx's import added a query to its URL", () => {
    for (const own of ['file:///app/src/embedders/embedder-thread.ts', 'file:///app/src/embedders/embedder-thread.ts?tsx-namespace=1764190000000']) {
      const [code, options] = workerEntry(own, 'embedder-thread-worker');
      expect(options).toEqual({ eval: true });
      expect(code).toContain('tsImport("file:///app/src/embedders/embedder-thread-worker.ts"');
    }
  });
});
