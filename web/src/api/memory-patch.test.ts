import { describe, expect, it } from 'vitest';
import { changedFields, draftOf, patchOf, readImportance, rebase } from './memory-patch';
import type { Memory } from './schemas';

const memory = (over: Partial<Memory>): Memory => ({
  id: 'm', userId: 'u', kind: 'pattern', content: '用户每天早上喝咖啡', importance: 0.3, status: 'active', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', version: 'v0', ...over,
});

describe('the editor sends only what the user changed', () => {
  it.each([
    ['zh', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'],
    ['en', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning'],
  ])('%s: only the content, when only the content was edited', (_, content, edited) => {
    const opened = memory({ content });
    expect(patchOf(opened, { ...draftOf(opened), content: edited })).toEqual({ patch: { content: edited } });
  });

  it('an empty importance is unchanged, never 0; "0.30" is the same as 0.3; 0 typed is 0; out of range is invalid', () => {
    const opened = memory({});
    expect(patchOf(opened, { ...draftOf(opened), importance: '' })).toEqual({ patch: {} });
    expect(patchOf(opened, { ...draftOf(opened), importance: '  ' })).toEqual({ patch: {} });
    expect(patchOf(opened, { ...draftOf(opened), importance: '0.30' })).toEqual({ patch: {} });
    expect(patchOf(opened, { ...draftOf(opened), importance: '0' })).toEqual({ patch: { importance: 0 } });
    expect(patchOf(opened, { ...draftOf(opened), importance: '1.5' })).toEqual({ patch: {}, invalid: 'importance' });
    expect(readImportance('abc')).toBe('invalid');
    expect(readImportance('')).toBeUndefined();
  });

  it('content differing only in surrounding spaces (the server trims) is unchanged', () => {
    const opened = memory({});
    expect(patchOf(opened, { ...draftOf(opened), content: ` ${opened.content}\n` })).toEqual({ patch: {} });
  });
});

describe('after a conflict: rebase onto the current memory', () => {
  const opened = memory({});
  const current = memory({ importance: 0.9, kind: 'preference', version: 'v1' });

  it('keeps the user\'s edit and takes the other side\'s changes to other fields', () => {
    const draft = { ...draftOf(opened), content: '用户每天早上喝两杯咖啡' };
    expect(changedFields(opened, current)).toEqual(['kind', 'importance']);
    expect(rebase(opened, current, draft)).toEqual({ draft: { content: '用户每天早上喝两杯咖啡', kind: 'preference', importance: '0.9' }, clashes: [] });
    expect(patchOf(current, rebase(opened, current, draft).draft)).toEqual({ patch: { content: '用户每天早上喝两杯咖啡' } });
  });

  it('a field both changed, differently, keeps what the user typed and is named as a clash', () => {
    const draft = { ...draftOf(opened), importance: '0.5' };
    expect(rebase(opened, current, draft)).toEqual({ draft: { ...draftOf(current), importance: '0.5' }, clashes: ['importance'] });
    expect(rebase(opened, current, { ...draftOf(opened), importance: '0.9' }).clashes).toEqual([]);
  });
});
