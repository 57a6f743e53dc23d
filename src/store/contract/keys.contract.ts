import { describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import type { KeyStore } from '../ports/keys.js';
import { useStore, type StoreFactory } from './fixtures.js';

/** KeyStore (the server's port): create, list, find by secret, revoke, active keys, export/import. */
export function describeKeysContract(name: string, factory: StoreFactory): void {
  describe(`keys port: ${name}`, () => {
    const open = useStore(factory);
    const keysOf = (): KeyStore => {
      const { keys } = open();
      if (!keys) throw new Error('this factory gives no key store');
      return keys;
    };

    it('creates keys shown once, finds them by secret, lists per tenant, revokes idempotently', async () => {
      const keys = keysOf();
      expect(await keys.hasActiveKeys()).toBe(false);
      const a = await keys.create({ tenantId: 'acme', name: '网页 web page' });
      const b = await keys.create({ tenantId: 'beta', boundUserId: '用户-1' });
      expect(a.key).toMatch(/^ek_/);
      expect(await keys.find(a.key)).toEqual(a.record);
      expect(await keys.find('ek_wrong')).toBeNull();
      expect(await keys.hasActiveKeys()).toBe(true);
      expect((await keys.list('beta')).map((k) => k.boundUserId)).toEqual(['用户-1']);
      expect((await keys.list()).map((k) => k.id).sort()).toEqual([a.record.id, b.record.id].sort());
      await expect(keys.revoke(a.record.id, 'beta')).rejects.toSatisfy((e) => e instanceof EngramError && e.code === 'NOT_FOUND');
      const revoked = await keys.revoke(a.record.id, 'acme');
      expect(revoked.revokedAt).toBeInstanceOf(Date);
      expect(await keys.revoke(a.record.id)).toEqual(revoked);
      expect((await keys.find(a.key))!.revokedAt).toEqual(revoked.revokedAt);
      await keys.revoke(b.record.id);
      expect(await keys.hasActiveKeys()).toBe(false);
      await expect(keys.create({ tenantId: 'bad tenant!' })).rejects.toSatisfy((e) => e instanceof EngramError && e.code === 'INVALID_INPUT');
      await expect(keys.create({ tenantId: 'acme', extra: 1 } as never)).rejects.toSatisfy((e) => e instanceof EngramError && e.code === 'INVALID_INPUT');
      expect(JSON.stringify(await keys.exportKeys())).not.toContain(a.key.slice(3));
    });

    it('exports keys with their hashes and imports them as they were, once', async () => {
      const keys = keysOf();
      const a = await keys.create({ tenantId: 'acme', name: '后台 backend' });
      await keys.revoke(a.record.id);
      const exported = await keys.exportKeys();
      expect(exported).toEqual([{ ...(await keys.find(a.key))!, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      expect(await keys.importKeys(exported)).toBe(0);
      const other = { ...exported[0]!, id: 'key_imported', hash: 'a'.repeat(64), revokedAt: undefined };
      expect(await keys.importKeys([other])).toBe(1);
      expect((await keys.list('acme')).map((k) => k.id).sort()).toEqual([a.record.id, 'key_imported'].sort());
      expect(await keys.hasActiveKeys()).toBe(true);
      await expect(keys.importKeys([{ ...other, id: 'k2', hash: 'not a hash' }])).rejects.toSatisfy((e) => e instanceof EngramError && e.code === 'INVALID_INPUT');
    });
  });
}
