import { MEMORY_KINDS, type MemoryKind } from '../domain/memory.js';
import { HEADINGS } from '../context/headings.js';
import type { Language } from '../text/language.js';

/**
 * The shared vocabulary of the two mirror files (seed 004: workspace/context/memory.md and
 * learnings.md, human-readable and editable).
 *
 * memory.md                                   learnings.md
 *   # 记忆                                       # 经验
 *   ## 偏好                                      ## 周报流程：先拉数据再写摘要 <!-- engram:m9 -->
 *   - 喜欢拉面 <!-- engram:m1 -->                 1. 拉取本周数据
 *                                                2. 写摘要
 * The marker ties a line to its memory, so the text may be edited freely.
 */
export type MirrorFile = 'memory' | 'learnings';

export interface MirrorEntry {
  /** Absent for a line a person added by hand. */
  id?: string;
  kind: MemoryKind;
  content: string;
  /** Learnings only: the numbered steps under the heading. */
  steps?: string[];
}

export const TITLES: Record<MirrorFile, Record<Language, string>> = {
  memory: { zh: '记忆', en: 'Memory' },
  learnings: { zh: '经验', en: 'Learnings' },
};

export const EDIT_NOTE: Record<Language, string> = {
  zh: '<!-- 由 Engram 维护。可以直接修改、增加或删除条目；请保留行尾的 engram 标记，它让 Engram 认出是哪条记忆。 -->',
  en: '<!-- Maintained by Engram. Edit, add or delete entries freely; keep the engram marker at the end of a line so Engram knows which memory it is. -->',
};

/** `<!-- engram:<id> -->` at the end of a line; ids never contain whitespace or '>'. */
export const MARKER_AT_END = /\s*<!--\s*engram:([^\s>]+)\s*-->\s*$/;

export function marker(id: string): string {
  return `<!-- engram:${id} -->`;
}

/** One line of text: what a Markdown line can hold. Render and diff both compare through this. */
export function toLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const KIND_BY_HEADING = new Map<string, MemoryKind>();
for (const kind of MEMORY_KINDS) {
  KIND_BY_HEADING.set(kind, kind);
  for (const lang of ['zh', 'en'] as const) KIND_BY_HEADING.set(HEADINGS[lang].kinds[kind].toLowerCase(), kind);
}

/** The kind a heading names, in either language or as the kind's id; undefined for a heading a person invented. */
export function kindOfHeading(heading: string): MemoryKind | undefined {
  return KIND_BY_HEADING.get(toLine(heading).toLowerCase());
}

export function kindHeading(kind: MemoryKind, language: Language): string {
  return HEADINGS[language].kinds[kind];
}

export function sameSteps(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = (a ?? []).map(toLine);
  const y = (b ?? []).map(toLine);
  return x.length === y.length && x.every((s, i) => s === y[i]);
}
