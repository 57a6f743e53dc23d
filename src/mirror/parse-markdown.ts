import type { MemoryKind } from '../domain/memory.js';
import { MARKER_AT_END, TITLES, kindOfHeading, toLine, type MirrorEntry, type MirrorFile } from './mirror-format.js';

export interface ParseMarkdownOptions {
  /** @default 'learnings' when the title is "# Learnings" / "# 经验", else 'memory' */
  file?: MirrorFile;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;

/**
 * Reads memory.md or learnings.md back, tolerant of what a person does to it: CRLF, blank lines,
 * `*` / `+` / `1.` bullets, HTML comments, stray prose, headings they added.
 *
 * memory.md: every list item is a memory; its kind is the nearest kind heading above it (either
 * language), so moving a line under another heading changes its kind. A heading that names no kind
 * (one a person added, like "## Travel") keeps the kind of the section it sits in; items before any
 * kind heading are facts. Prose lines that are not list items are ignored.
 * learnings.md: every heading below the title is a learning (kind 'skill'); list items under it
 * are its steps; prose is ignored.
 */
export function parseMarkdown(text: string, options: ParseMarkdownOptions = {}): MirrorEntry[] {
  const lines = stripComments(text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/));
  const file = options.file ?? detectFile(lines);
  return file === 'learnings' ? parseLearnings(lines) : parseMemory(lines);
}

function parseMemory(lines: string[]): MirrorEntry[] {
  const entries: MirrorEntry[] = [];
  let kind: MemoryKind = 'fact';
  for (const line of lines) {
    const heading = HEADING.exec(line);
    if (heading) {
      if (heading[1] !== '#') kind = kindOfHeading(heading[2] ?? '') ?? kind;
      continue;
    }
    const item = BULLET.exec(line);
    if (item) push(entries, item[1] ?? '', kind);
  }
  return entries;
}

function parseLearnings(lines: string[]): MirrorEntry[] {
  const entries: MirrorEntry[] = [];
  let current: MirrorEntry | undefined;
  for (const line of lines) {
    const heading = HEADING.exec(line);
    if (heading) {
      current = heading[1] === '#' ? undefined : push(entries, heading[2] ?? '', 'skill');
      if (current) current.steps = [];
      continue;
    }
    const item = BULLET.exec(line);
    if (item && current) {
      const step = toLine(item[1] ?? '');
      if (step) current.steps?.push(step);
    }
  }
  return entries;
}

function push(entries: MirrorEntry[], raw: string, kind: MemoryKind): MirrorEntry | undefined {
  const found = MARKER_AT_END.exec(raw);
  const content = toLine(found ? raw.slice(0, found.index) : raw);
  if (!content) return undefined; // an emptied line reads as a deletion
  const entry: MirrorEntry = found?.[1] ? { id: found[1], kind, content } : { kind, content };
  entries.push(entry);
  return entry;
}

/** Drops HTML comments that are not engram markers (the edit note, notes a person left). */
function stripComments(lines: string[]): string[] {
  const out: string[] = [];
  let inComment = false;
  for (const line of lines) {
    let rest = line;
    if (inComment) {
      const end = rest.indexOf('-->');
      if (end < 0) continue;
      rest = rest.slice(end + 3);
      inComment = false;
    }
    rest = rest.replace(/<!--(?!\s*engram:)[\s\S]*?-->/g, '');
    const open = rest.search(/<!--(?!\s*engram:)/);
    if (open >= 0) {
      rest = rest.slice(0, open);
      inComment = true;
    }
    out.push(rest);
  }
  return out;
}

function detectFile(lines: string[]): MirrorFile {
  for (const line of lines) {
    const h = HEADING.exec(line);
    if (!h || h[1] !== '#') continue;
    const title = toLine(h[2] ?? '').toLowerCase();
    return title === TITLES.learnings.en.toLowerCase() || title === TITLES.learnings.zh ? 'learnings' : 'memory';
  }
  return 'memory';
}
