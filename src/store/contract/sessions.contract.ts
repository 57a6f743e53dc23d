import { describe, expect, it } from 'vitest';
import type { ExtractionRun } from '../store.js';
import { at, msg, useStore, type StoreFactory } from './fixtures.js';

/** SessionsPort: leases with fencing tokens, watermarks, failure state, episodes' watermark, runs. */
export function describeSessionsContract(name: string, factory: StoreFactory): void {
  describe(`sessions port: ${name}`, () => {
    const open = useStore(factory);

    it('leases: one holder at a time, fenced by token, renewable, released, taken over when expired or abandoned', async () => {
      const { store } = open();
      expect(await store.acquireSessionLease('u', 'none', 'w1', at(0), at(5))).toBeNull();
      await store.appendMessages('u', 's', [msg('a', '我想学吉他', 0)]);
      const t1 = await store.acquireSessionLease('u', 's', 'w1', at(0), at(5));
      expect(t1).toEqual(expect.any(Number));
      expect(await store.acquireSessionLease('u', 's', 'w2', at(1), at(6))).toBeNull();
      expect(await store.holdsSessionLease('u', 's', 'w1', t1!)).toBe(true);
      expect(await store.renewSessionLease('u', 's', 'w1', t1!, at(10))).toBe(true);
      expect(await store.acquireSessionLease('u', 's', 'w2', at(8), at(12))).toBeNull();
      const t2 = await store.acquireSessionLease('u', 's', 'w2', at(11), at(15));
      expect(t2).toBeGreaterThan(t1!);
      expect(await store.holdsSessionLease('u', 's', 'w1', t1!)).toBe(false);
      expect(await store.renewSessionLease('u', 's', 'w1', t1!, at(20))).toBe(false);
      await store.releaseSessionLease('u', 's', 'w1', t1!);
      expect(await store.holdsSessionLease('u', 's', 'w2', t2!)).toBe(true);
      const t3 = await store.acquireSessionLease('u', 's', 'w3', at(12), at(16), { isAbandoned: (owner) => owner === 'w2' });
      expect(t3).toBeGreaterThan(t2!);
      await store.releaseSessionLease('u', 's', 'w3');
      expect(await store.holdsSessionLease('u', 's', 'w3', t3!)).toBe(false);
      expect(await store.acquireSessionLease('u', 's', 'w1', at(13), at(17))).toEqual(expect.any(Number));
    });

    it('the summary lease is a lease of its own: independent of the extraction lease, fenced by its own token', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', '我想学吉他', 0), msg('b', 'I want to learn the guitar', 1)]);
      const extracting = await store.acquireSessionLease('u', 's', 'w1', at(0), at(5));
      const s1 = await store.acquireSessionLease('u', 's', 'w2', at(0), at(5), { task: 'summarize' });
      expect(s1).toEqual(expect.any(Number));
      expect(await store.acquireSessionLease('u', 's', 'w1', at(1), at(6), { task: 'summarize' })).toBeNull();
      expect(await store.holdsSessionLease('u', 's', 'w2', s1!, 'summarize')).toBe(true);
      expect(await store.holdsSessionLease('u', 's', 'w1', extracting!)).toBe(true);
      expect(await store.renewSessionLease('u', 's', 'w2', s1!, at(10), 'summarize')).toBe(true);
      expect(await store.acquireSessionLease('u', 's', 'w1', at(8), at(12), { task: 'summarize' })).toBeNull();
      // Releasing one task's lease leaves the other held.
      await store.releaseSessionLease('u', 's', 'w1', extracting!);
      expect(await store.holdsSessionLease('u', 's', 'w2', s1!, 'summarize')).toBe(true);
      const s2 = await store.acquireSessionLease('u', 's', 'w3', at(11), at(15), { task: 'summarize' });
      expect(s2).toBeGreaterThan(s1!);
      expect(await store.holdsSessionLease('u', 's', 'w2', s1!, 'summarize')).toBe(false);
      expect(await store.renewSessionLease('u', 's', 'w2', s1!, at(20), 'summarize')).toBe(false);
      await store.releaseSessionLease('u', 's', 'w3', s2!, 'summarize');
      expect(await store.acquireSessionLease('u', 's', 'w1', at(12), at(16), { task: 'summarize' })).toEqual(expect.any(Number));
    });

    it('backlog and watermark: markProcessed clears it and the failure state; failures are recorded', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', 'I moved to Chengdu', 0), msg('b', '搬到成都了', 1)]);
      expect((await store.sessionsWithBacklog(10)).map((b) => [b.session.id, b.unprocessed])).toEqual([['s', 2]]);
      await store.recordExtractionFailure('u', 's', { error: 'model timeout 超时', failures: 2, state: 'retrying', nextAttemptAt: at(9) });
      expect(await store.getSession('u', 's')).toMatchObject({ failures: 2, lastError: 'model timeout 超时', extractionState: 'retrying', nextAttemptAt: at(9) });
      await store.markProcessed('u', 's', 1, 'b', at(3));
      expect(await store.getSession('u', 's')).toMatchObject({ processedSeq: 1, lastProcessedMessageId: 'b', processedAt: at(3), failures: 0, extractionState: 'ok' });
      expect(await store.sessionsWithBacklog(10)).toEqual([]);
      await store.endSession('u', 's', at(4));
      expect((await store.getSession('u', 's'))!.endedAt).toEqual(at(4));
      expect(await store.getSession('u', 'other')).toBeNull();
    });

    it('episodes watermark: sessionsToSummarize until markSummarized, and a retry keeps it listed', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', 'Trip to Osaka', 0), msg('b', '大阪之行', 1)]);
      expect((await store.sessionsToSummarize(10)).map((x) => [x.session.id, x.unsummarized])).toEqual([['s', 2]]);
      await store.markSummarized('u', 's', 1, at(30), 1);
      expect(await store.getSession('u', 's')).toMatchObject({ summarizedSeq: 1, summaryRetryAt: at(30), summaryFailures: 1 });
      expect((await store.sessionsToSummarize(10)).map((x) => x.session.id)).toEqual(['s']);
      await store.markSummarized('u', 's', 1, null, 0);
      expect(await store.sessionsToSummarize(10)).toEqual([]);
    });

    it('records extraction runs per session, in order', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', '我对花生过敏', 0)]);
      const run = (id: string, min: number, over: Partial<ExtractionRun> = {}): ExtractionRun => ({
        id, userId: 'u', sessionId: 's', fromSeq: 0, throughSeq: 0, extractor: 'extract-memories@3', outcome: 'applied',
        counts: { added: 1 }, rejected: [{ op: 'update', target: 'm9', reason: '不存在 unknown alias' }], reason: '记住过敏', at: at(min), ...over,
      });
      await store.recordExtractionRun(run('r1', 1, { outcome: 'failed', error: 'timeout', counts: {}, rejected: [], reason: undefined }));
      await store.recordExtractionRun(run('r2', 2));
      const runs = await store.listExtractionRuns('u', 's');
      expect(runs.map((r) => r.id)).toEqual(['r1', 'r2']);
      expect(runs[1]).toEqual(run('r2', 2));
      expect(runs[0]).toMatchObject({ outcome: 'failed', error: 'timeout' });
      expect(await store.listExtractionRuns('u', 'other')).toEqual([]);
    });
  });
}
