import type { JsonObject, Memory } from '../domain/memory.js';

/** Bookkeeping of how the data was read; alone they say nothing about the content. */
const BOOKKEEPING = new Set(['extractor', 'slot']);

/**
 * The structured data a memory keeps after its content was rewritten by hand (an edit, PATCH, the
 * mirror file) without new structured data. Nobody read the new text, so a field read from the old
 * wording is kept only while the new content spells it exactly as the old did: the same times, each
 * with the same character before and after it. "用户对花生过敏" → "用户对花生和芒果过敏" still
 * contains 花生, but `value: 花生` is no longer the whole value, so it goes; a fix elsewhere in the
 * text keeps it. A slot's `value` the old content did not spell is a reading of it too and goes.
 * Other data (steps, topics, numbers) was not read from one phrase and stays. History keeps what
 * was dropped. Returns undefined when nothing changes, null when nothing but bookkeeping is left.
 */
export function structuredDataAfterEdit(before: Pick<Memory, 'content' | 'structuredData'>, content: string): JsonObject | null | undefined {
  const old = before.structuredData;
  if (!old || content === before.content) return undefined;
  const kept = Object.fromEntries(Object.entries(old).filter(([key, value]) => !readFromOldWording(key, value, before.content, content)));
  if (Object.keys(kept).length === Object.keys(old).length) return undefined;
  return Object.keys(kept).some((k) => !BOOKKEEPING.has(k)) ? kept : null;
}

function readFromOldWording(key: string, value: unknown, oldText: string, newText: string): boolean {
  if (typeof value !== 'string' || value.trim() === '') return false;
  if (!oldText.includes(value)) return key === 'value';
  return settings(oldText, value).join('\u0000') !== settings(newText, value).join('\u0000');
}

/** Where a text spells `value`: each place as the character before, the value and the character after (the text's edges count). */
function settings(text: string, value: string): string[] {
  const framed = `\u0002${text}\u0003`;
  const out: string[] = [];
  for (let i = framed.indexOf(value); i !== -1; i = framed.indexOf(value, i + 1)) out.push(framed.slice(i - 1, i + value.length + 1));
  return out.sort();
}
