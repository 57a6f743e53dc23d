import { describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { EMBEDDER, mem, msg, user, useStore, vec, type StoreFactory } from './fixtures.js';

/** VectorsPort: binding, status, pending rows and setVectors. */
export function describeVectorsContract(name: string, factory: StoreFactory): void {
  describe(`vectors port: ${name}`, () => {
    const open = useStore(factory);
    const mismatch = (e: unknown) => e instanceof EngramError && e.code === 'EMBEDDER_MISMATCH';

    it('reports the bound embedder; rebinding the same one is a no-op, another one refuses', async () => {
      const { store } = open();
      expect(await store.embedderInfo()).toEqual(EMBEDDER);
      await store.insertMemory(mem('m', 'u', '我爱吃辣'), vec(1), user);
      await store.bindEmbedder(EMBEDDER);
      expect((await store.vectorsOf('u', ['m'])).size).toBe(1);
      await expect(store.bindEmbedder({ id: 'other@8', dimensions: 8 })).rejects.toSatisfy(mismatch);
    });

    it('counts pending rows per collection and completes them with setVectors', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', 'loves spicy food 爱吃辣'), null, user);
      await store.appendMessages('u', 's', [{ ...msg('x', '今天吃火锅', 0), vector: null }]);
      expect(await store.vectorStatus()).toEqual({ embedder: EMBEDDER, total: { memories: 1, messages: 1 }, pending: { memories: 1, messages: 1 }, complete: false });
      expect(await store.pendingVectors('memories', 10)).toEqual([{ userId: 'u', id: 'm', content: 'loves spicy food 爱吃辣' }]);
      expect(await store.pendingVectors('messages', 10)).toEqual([{ userId: 'u', id: 'x', content: '今天吃火锅' }]);
      await store.setVectors('memories', [{ userId: 'u', id: 'm', vector: vec(1) }, { userId: 'u', id: 'missing', vector: vec(1) }], EMBEDDER.id);
      await store.setVectors('messages', [{ userId: 'u', id: 'x', vector: vec(0, 1) }], EMBEDDER.id);
      expect(await store.vectorStatus()).toMatchObject({ pending: { memories: 0, messages: 0 }, complete: true });
      expect((await store.searchVector({ userId: 'u', vector: vec(1), k: 1 })).map((h) => h.id)).toEqual(['m']);
      expect((await store.searchMessageVector({ userId: 'u', vector: vec(0, 1), k: 1 })).map((h) => h.id)).toEqual(['x']);
      await expect(store.setVectors('memories', [{ userId: 'u', id: 'm', vector: vec(1) }], 'other@4')).rejects.toSatisfy(mismatch);
    });

    it('replacing the embedder drops every vector until reindexed', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', 'x'), vec(1), user);
      await store.bindEmbedder({ id: 'other@8', dimensions: 8 }, { replace: true });
      expect(await store.embedderInfo()).toEqual({ id: 'other@8', dimensions: 8 });
      expect(await store.vectorStatus()).toMatchObject({ pending: { memories: 1 }, complete: false });
      await expect(store.setVectors('memories', [{ userId: 'u', id: 'm', vector: vec(1) }], 'other@8')).rejects.toSatisfy(mismatch);
    });
  });
}
