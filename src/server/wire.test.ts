import { describe, expect, it } from 'vitest';
import { present } from './wire.js';

const acme = { tenantId: 'acme', keyId: 'k1', admin: false };

describe('present: an engine result as the caller receives it', () => {
  it('turns dates into ISO strings and scoped user ids back into the tenant\'s own, at any depth (zh, en)', () => {
    const at = new Date('2026-11-24T08:00:00Z');
    const value = {
      items: [
        { memory: { id: 'm1', userId: 't:acme:李明', content: '用户喜欢猫', createdAt: at, tags: ['猫'] }, score: 0.9 },
        { memory: { id: 'm2', userId: 't:acme:alice', content: 'Alice works at a bakery', createdAt: at, expiresAt: undefined }, score: 0.5 },
      ],
      userId: 't:acme:李明',
    };
    expect(present(acme, value)).toEqual({
      items: [
        { memory: { id: 'm1', userId: '李明', content: '用户喜欢猫', createdAt: '2026-11-24T08:00:00.000Z', tags: ['猫'] }, score: 0.9 },
        { memory: { id: 'm2', userId: 'alice', content: 'Alice works at a bakery', createdAt: '2026-11-24T08:00:00.000Z' }, score: 0.5 },
      ],
      userId: '李明',
    });
  });

  it('gives what a JSON round trip gives for plain values, undefined fields and toJSON', () => {
    const open = { tenantId: 'default', keyId: null, admin: true };
    const value = { a: 1, b: 'text 文本', c: null, d: undefined, e: [1, undefined, 'x'], f: { toJSON: () => 'custom' }, g: true, nested: { when: new Date(0) } };
    expect(present(open, value)).toEqual(JSON.parse(JSON.stringify(value)));
    expect(JSON.stringify(present(open, value))).toBe(JSON.stringify(value));
    expect(present(open, null)).toBeNull();
    expect(present(open, [new Date(0)])).toEqual(['1970-01-01T00:00:00.000Z']);
  });

  it('leaves a userId of another tenant as it is rather than inventing one', () => {
    expect(present(acme, { userId: 't:other:bob' })).toEqual({ userId: 't:other:bob' });
  });
});

describe('present against the JSON round trip it replaces', () => {
  it('gives the same value for any mix of dates, numbers, strings, arrays and absent fields (zh, en)', async () => {
    const fc = (await import('fast-check')).default;
    const acme = { tenantId: 'acme', keyId: 'k1', admin: false };
    const reference = (value: unknown): unknown => {
      const text = JSON.stringify(value, (key, v: unknown) => (key === 'userId' && typeof v === 'string' && v.startsWith('t:acme:') ? v.slice('t:acme:'.length) : v));
      return text === undefined ? null : JSON.parse(text);
    };
    const leaf = fc.oneof(fc.date({ noInvalidDate: true }), fc.constantFrom('用户喜欢猫', 'The user likes cats', 't:acme:李明', 't:other:bob'), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.constantFrom('userId', 'id', 'createdAt', 'items', 'score'), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(present(acme, v)).toEqual(reference(v));
      }),
      { numRuns: 300 },
    );
  });
});
