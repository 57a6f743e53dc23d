import { describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import type { Memory } from './memory.js';
import type { HistoryEvent } from './history.js';
import { assertVersion, atVersion, memoryVersion } from './memory-version.js';

const at = new Date('2026-01-01T00:00:00Z');
const base: Memory = {
  id: 'm', userId: 'u', kind: 'pattern', content: '用户每天早上喝咖啡', importance: 0.3, confidence: 1, source: 'manual', verified: true, core: false, status: 'active',
  provenance: { messageIds: [] }, language: 'zh', createdAt: at, updatedAt: at, accessCount: 0, structuredData: { when: new Date('2026-01-02T00:00:00Z'), b: 1, a: [1, 'x'] },
};

describe('memoryVersion', () => {
  it('changes with anything a change can touch: content, kind, importance, status, structured data (zh, en)', () => {
    const v = memoryVersion(base);
    for (const changed of [{ content: '用户每天早上喝两杯咖啡' }, { content: 'The user drinks coffee' }, { kind: 'preference' as const }, { importance: 0.9 }, { status: 'deleted' as const }, { structuredData: { b: 2 } }, { expiresAt: new Date(0) }]) {
      expect(memoryVersion({ ...base, ...changed }), JSON.stringify(changed)).not.toBe(v);
    }
  });

  it('is the same for the same state: key order, a date read back as its ISO text, access marks and indexing bookkeeping', () => {
    const v = memoryVersion(base);
    expect(memoryVersion({ ...base, structuredData: { a: [1, 'x'], b: 1, when: '2026-01-02T00:00:00.000Z' } })).toBe(v);
    expect(memoryVersion({ ...base, accessCount: 9, lastAccessedAt: new Date(), embedderId: 'other@1', reviewedAt: new Date(), decayedAt: new Date(), updatedAt: new Date() })).toBe(v);
    expect(memoryVersion({ ...base, expiresAt: undefined })).toBe(v);
    expect(v).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('assertVersion: passes at one of the versions, throws PRECONDITION_FAILED with the current one otherwise', () => {
    expect(() => assertVersion(base, undefined)).not.toThrow();
    expect(() => assertVersion(base, ['x', memoryVersion(base)])).not.toThrow();
    expect(() => assertVersion(base, ['x'])).toThrow(expect.objectContaining({ code: 'PRECONDITION_FAILED', details: { id: 'm', expected: ['x'], current: memoryVersion(base) } }) as EngramError);
  });

  it('atVersion looks back through drift only: decay and reinforcement of importance, newest first', () => {
    const v0 = memoryVersion(base);
    const event = (action: HistoryEvent['action'], before: number, after: number, changed = ['importance']): HistoryEvent => ({
      id: action, memoryId: 'm', userId: 'u', action, changed, before: { importance: before }, after: { importance: after }, actor: action === 'update' ? 'user' : 'lifecycle', messageIds: [], at,
    });
    const now = { ...base, importance: 0.37 };
    const drift = [event('reinforce', 0.27, 0.37), event('decay', 0.3, 0.27, ['importance', 'decayedAt'])];
    expect(atVersion(now, [v0])).toBe(false);
    expect(atVersion(now, [v0], drift)).toBe(true);
    expect(() => assertVersion(now, [v0], drift)).not.toThrow();
    // A person's change of importance, or a drift that also changed something else, stops the look back.
    expect(atVersion(now, [v0], [event('update', 0.3, 0.37)])).toBe(false);
    expect(atVersion(now, [v0], [event('decay', 0.3, 0.37, ['importance', 'status'])])).toBe(false);
    expect(atVersion(now, [v0], [event('update', 0.27, 0.37), drift[1]!])).toBe(false);
  });
});
