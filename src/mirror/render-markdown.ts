import { MEMORY_KINDS, SEMANTIC_KINDS, type Memory, type MemoryKind } from '../domain/memory.js';
import { detectLanguage, type Language } from '../text/language.js';
import { EDIT_NOTE, TITLES, kindHeading, marker, toLine, type MirrorEntry, type MirrorFile } from './mirror-format.js';

export type MirrorMemory = Pick<Memory, 'id' | 'kind' | 'content'> & Partial<Pick<Memory, 'structuredData'>>;

export interface RenderMarkdownOptions {
  /** 'memory' renders the semantic kinds grouped by kind; 'learnings' renders kind 'skill' with steps. */
  file: MirrorFile;
  /** Memories of other kinds than the file holds are skipped. Order within a kind is kept. */
  memories: readonly MirrorMemory[];
  /** Heading language. @default Chinese when most memories are Chinese, English otherwise */
  language?: Language;
}

/** Renders memory.md or learnings.md (seed 004), one marker per memory so edits can be traced back. */
export function renderMarkdown(options: RenderMarkdownOptions): string {
  const memories = inFileOrder(options.file, options.memories);
  const language = options.language ?? dominantLanguage(memories);
  const out = [`# ${TITLES[options.file][language]}`, '', EDIT_NOTE[language]];

  if (options.file === 'learnings') {
    for (const m of memories) {
      out.push('', `## ${toLine(m.content)} ${marker(m.id)}`);
      const steps = stepsOf(m.structuredData);
      if (steps.length > 0) out.push('', ...steps.map((s, i) => `${i + 1}. ${s}`));
    }
  } else {
    let section: MemoryKind | undefined;
    for (const m of memories) {
      if (m.kind !== section) out.push('', `## ${kindHeading(m.kind, language)}`, '');
      section = m.kind;
      out.push(`- ${toLine(m.content)} ${marker(m.id)}`);
    }
  }
  return out.join('\n') + '\n';
}

/** The same entries the rendered text parses back to: what to keep as the merge base. */
export function mirrorEntries(options: Omit<RenderMarkdownOptions, 'language'>): MirrorEntry[] {
  return inFileOrder(options.file, options.memories).map((m) => {
    const entry: MirrorEntry = { id: m.id, kind: m.kind, content: toLine(m.content) };
    if (options.file === 'learnings') entry.steps = stepsOf(m.structuredData);
    return entry;
  });
}

/** The memories a file holds, in the order it lists them: memory.md by kind (MEMORY_KINDS order), learnings.md as given. */
function inFileOrder(file: MirrorFile, all: readonly MirrorMemory[]): MirrorMemory[] {
  const memories = all.filter((m) => toLine(m.content) !== '');
  if (file === 'learnings') return memories.filter((m) => m.kind === 'skill');
  return MEMORY_KINDS.filter((k) => SEMANTIC_KINDS.includes(k)).flatMap((k) => memories.filter((m) => m.kind === k));
}

/**
 * Steps from `structuredData.steps` (seed 004's `workflow` accepted too): strings as they are,
 * objects by their text, description, action or tool.
 */
export function stepsOf(data: Record<string, unknown> | undefined): string[] {
  const raw = data?.['steps'] ?? data?.['workflow'];
  if (!Array.isArray(raw)) return [];
  return raw.map(stepText).filter((s) => s.length > 0);
}

function stepText(step: unknown): string {
  if (typeof step === 'string') return toLine(step);
  if (typeof step === 'object' && step !== null) {
    const o = step as Record<string, unknown>;
    for (const key of ['text', 'description', 'action', 'tool']) if (typeof o[key] === 'string') return toLine(o[key]);
  }
  return step === null || step === undefined ? '' : toLine(JSON.stringify(step));
}

function dominantLanguage(memories: readonly MirrorMemory[]): Language {
  const zh = memories.filter((m) => detectLanguage(m.content) === 'zh').length;
  return zh * 2 > memories.length ? 'zh' : 'en';
}
