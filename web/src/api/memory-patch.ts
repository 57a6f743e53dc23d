import type { Memory } from './schemas';

/** What the editor's fields hold: importance as typed, so an empty field is not read as 0. */
export interface MemoryDraft { content: string; kind: string; importance: string }
export type DraftField = keyof MemoryDraft;
export const DRAFT_FIELDS: readonly DraftField[] = ['content', 'kind', 'importance'];

export const draftOf = (m: Pick<Memory, 'content' | 'kind' | 'importance'>): MemoryDraft => ({ content: m.content, kind: m.kind, importance: String(m.importance) });

/**
 * Importance as typed: undefined when the field is empty (the default when adding, unchanged when
 * editing: `Number('')` is 0, which saved 0.00), a number from 0 to 1, or 'invalid'.
 */
export function readImportance(text: string): number | undefined | 'invalid' {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : 'invalid';
}

/** Whether two drafts say the same in one field (content as the server trims it, importance as a number; empty = unchanged). */
function same(field: DraftField, a: MemoryDraft, b: MemoryDraft): boolean {
  if (field === 'content') return a.content.trim() === b.content.trim();
  if (field === 'kind') return a.kind === b.kind;
  const x = readImportance(a.importance);
  const y = readImportance(b.importance);
  return x === undefined || y === undefined || x === y;
}

/**
 * The PATCH body of an edit: only the fields the user changed from the memory as it was opened, so
 * a change someone else made meanwhile to another field is never sent back over.
 */
export function patchOf(base: Memory, draft: MemoryDraft): { patch: Partial<Record<DraftField, string | number>>; invalid?: 'importance' } {
  const importance = readImportance(draft.importance);
  if (importance === 'invalid') return { patch: {}, invalid: 'importance' };
  const was = draftOf(base);
  const patch: Partial<Record<DraftField, string | number>> = {};
  if (!same('content', draft, was)) patch.content = draft.content;
  if (!same('kind', draft, was)) patch.kind = draft.kind;
  if (importance !== undefined && importance !== base.importance) patch.importance = importance;
  return { patch };
}

/** The fields in which `after` differs from `before` (what someone else changed). */
export const changedFields = (before: Memory, after: Memory): DraftField[] => DRAFT_FIELDS.filter((f) => !same(f, draftOf(before), draftOf(after)));

/**
 * After a conflict: the current memory with the user's own edits on top. A field only the other
 * side changed takes its new value; a field the user changed keeps what they typed, and when the
 * other side changed it too (differently) it is a clash the editor shows, never a silent choice.
 */
export function rebase(opened: Memory, current: Memory, draft: MemoryDraft): { draft: MemoryDraft; clashes: DraftField[] } {
  const was = draftOf(opened);
  const now = draftOf(current);
  const next = { ...now };
  const clashes: DraftField[] = [];
  for (const f of DRAFT_FIELDS) {
    if (same(f, draft, was)) continue;
    next[f] = draft[f];
    if (!same(f, now, was) && !same(f, draft, now)) clashes.push(f);
  }
  return { draft: next, clashes };
}
