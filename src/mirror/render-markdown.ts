import { MEMORY_KINDS, SEMANTIC_KINDS, type Memory } from '../domain/memory.js';
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
  const kinds = options.file === 'memory' ? SEMANTIC_KINDS : (['skill'] as const);
  const memories = options.memories.filter((m) => kinds.includes(m.kind));
  const language = options.language ?? dominantLanguage(memories);
  const out = [`# ${TITLES[options.file][language]}`, '', EDIT_NOTE[language]];

  if (options.file === 'learnings') {
    for (const m of memories) {
      out.push('', `## ${toLine(m.content)} ${marker(m.id)}`);
      const steps = stepsOf(m.structuredData);
      if (steps.length > 0) out.push('', ...steps.map((s, i) => `${i + 1}. ${s}`));
    }
  } else {
    for (const kind of MEMORY_KINDS) {
      const group = memories.filter((m) => m.kind === kind);
      if (group.length === 0) continue;
      out.push('', `## ${kindHeading(kind, language)}`, '', ...group.map((m) => `- ${toLine(m.content)} ${marker(m.id)}`));
    }
  }
  return out.join('\n') + '\n';
}

/** The same entries the rendered text parses back to: what to keep as the merge base. */
export function mirrorEntries(options: Omit<RenderMarkdownOptions, 'language'>): MirrorEntry[] {
  const kinds = options.file === 'memory' ? SEMANTIC_KINDS : (['skill'] as const);
  return options.memories
    .filter((m) => kinds.includes(m.kind))
    .map((m) => {
      const entry: MirrorEntry = { id: m.id, kind: m.kind, content: toLine(m.content) };
      if (options.file === 'learnings') entry.steps = stepsOf(m.structuredData);
      return entry;
    });
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
