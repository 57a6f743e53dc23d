/**
 * Three-way merge of a mirror file (memory.md / learnings.md) into the database.
 *
 *   base – what Engram last wrote to the file (keep `mirrorEntries(...)` of that write)
 *   file – what the file holds now (`parseMarkdown`)
 *   db   – what the database holds now
 *
 * Rules, per memory id and per field (kind, content, steps):
 * - Changed only in the file → goes to the database ('update'). A line without a marker → 'add'.
 *   A line removed from the file → 'delete'.
 * - Changed only in the database → nothing to do here; the caller rewrites the file afterwards.
 * - Different fields changed on each side (file moved it to another heading, db edited its text)
 *   → both changes are kept in one 'update'.
 * - CONFLICT: the same field changed on both sides to different values. Neither side is lost: the
 *   database version stays as it is, and the file's version is added as a NEW memory ('add',
 *   no id). The pair is reported in `conflicts` so a person can look at it.
 * - A deletion never beats an edit: a line deleted in the file whose memory changed in the database
 *   stays; a line edited in the file whose memory was deleted in the database comes back as new.
 * - A marker whose id is not in base (base lost, or first sync): the database is taken as its base,
 *   so the file's text wins (seed 004: the file is the source of truth). An id the database does
 *   not know either is added as new.
 * - Tolerance: a line whose marker was lost but whose text equals a memory that vanished from the
 *   file keeps that memory's id; a pasted duplicate of a marked line and a new line that repeats an
 *   existing memory word for word are not added twice.
 * Text is compared as one line with whitespace collapsed, exactly as the file can hold it.
 */
import type { MemoryKind } from '../domain/memory.js';
import { sameSteps, toLine, type MirrorEntry } from './mirror-format.js';

export interface MirrorChange {
  op: 'add' | 'update' | 'delete';
  /** Absent for 'add'. */
  id?: string;
  kind: MemoryKind;
  content: string;
  /** Learnings only. */
  steps?: string[];
}

export interface MirrorConflict {
  id: string;
  /** The file's text, added as a new memory. */
  file: string;
  /** The database's text, kept. */
  db: string;
}

export interface DiffMirrorInput {
  base: readonly MirrorEntry[];
  file: readonly MirrorEntry[];
  db: readonly MirrorEntry[];
}

export interface DiffMirrorResult {
  toDb: MirrorChange[];
  conflicts: MirrorConflict[];
}

export function diffMirror(input: DiffMirrorInput): DiffMirrorResult {
  const base = byId(input.base);
  const db = byId(input.db);
  const { marked, unmarked } = splitFile(input.file, base);
  const toDb: MirrorChange[] = [];
  const conflicts: MirrorConflict[] = [];
  const adds: MirrorEntry[] = [];

  for (const [id, b] of base) {
    const f = marked.get(id);
    const d = db.get(id);
    if (!f) {
      if (d && !differs(d, b)) toDb.push(change('delete', b, id));
      continue; // gone on both sides, or edited in the db: a deletion never beats an edit
    }
    if (!d) {
      if (differs(f, b)) adds.push(f); // edited in the file, deleted in the db
      continue;
    }
    merge(id, b, f, d);
  }
  for (const [id, f] of marked) {
    if (base.has(id)) continue;
    const d = db.get(id);
    if (d) merge(id, d, f, d);
    else adds.push(f);
  }
  adds.push(...unmarked);

  const seen = new Set(input.db.map(key));
  for (const e of adds) {
    if (seen.has(key(e))) continue;
    seen.add(key(e));
    toDb.push(change('add', e));
  }
  return { toDb, conflicts };

  function merge(id: string, b: MirrorEntry, f: MirrorEntry, d: MirrorEntry): void {
    const kind = field(b.kind, f.kind, d.kind, (x, y) => x === y);
    const content = field(toLine(b.content), toLine(f.content), toLine(d.content), (x, y) => x === y);
    const steps = field(b.steps, f.steps, d.steps, (x, y) => x === undefined || y === undefined || sameSteps(x, y));
    if (kind === CONFLICT || content === CONFLICT || steps === CONFLICT) {
      conflicts.push({ id, file: toLine(f.content), db: toLine(d.content) });
      adds.push(f);
      return;
    }
    if (!kind.fromFile && !content.fromFile && !steps.fromFile) return;
    const merged: MirrorEntry = { kind: kind.value, content: content.value };
    if (steps.value !== undefined) merged.steps = steps.value;
    toDb.push(change('update', merged, id));
  }
}

const CONFLICT = Symbol('conflict');

/** Three-way merge of one field: which value wins, and whether it came from the file. */
function field<T>(b: T, f: T, d: T, same: (x: T, y: T) => boolean): { value: T; fromFile: boolean } | typeof CONFLICT {
  const fileChanged = !same(f, b);
  const dbChanged = !same(d, b);
  if (fileChanged && dbChanged && !same(f, d)) return CONFLICT;
  if (fileChanged && !dbChanged) return { value: f ?? d, fromFile: true };
  return { value: d ?? f, fromFile: false };
}

function differs(x: MirrorEntry, b: MirrorEntry): boolean {
  return x.kind !== b.kind || toLine(x.content) !== toLine(b.content) || (x.steps !== undefined && b.steps !== undefined && !sameSteps(x.steps, b.steps));
}

/** Separates marked from unmarked lines, re-attaching lost markers and dropping pasted duplicates. */
function splitFile(file: readonly MirrorEntry[], base: Map<string, MirrorEntry>): { marked: Map<string, MirrorEntry>; unmarked: MirrorEntry[] } {
  const marked = new Map<string, MirrorEntry>();
  const unmarked: MirrorEntry[] = [];
  for (const e of file) {
    if (e.id === undefined) unmarked.push(e);
    else if (!marked.has(e.id)) marked.set(e.id, e);
    else if (toLine(marked.get(e.id)!.content) !== toLine(e.content)) unmarked.push(withoutId(e));
  }
  const vanished = new Map<string, string>();
  for (const [id, b] of base) if (!marked.has(id) && !vanished.has(toLine(b.content))) vanished.set(toLine(b.content), id);
  const stillUnmarked = unmarked.filter((e) => {
    const id = vanished.get(toLine(e.content));
    if (id === undefined) return true;
    vanished.delete(toLine(e.content));
    marked.set(id, { ...e, id });
    return false;
  });
  return { marked, unmarked: stillUnmarked };
}

function change(op: MirrorChange['op'], e: MirrorEntry, id?: string): MirrorChange {
  const c: MirrorChange = { op, kind: e.kind, content: toLine(e.content) };
  if (id !== undefined) c.id = id;
  if (e.steps !== undefined) c.steps = e.steps.map(toLine);
  return c;
}

function withoutId(e: MirrorEntry): MirrorEntry {
  const { id: _id, ...rest } = e;
  return rest;
}

function byId(entries: readonly MirrorEntry[]): Map<string, MirrorEntry> {
  const map = new Map<string, MirrorEntry>();
  for (const e of entries) if (e.id !== undefined && !map.has(e.id)) map.set(e.id, e);
  return map;
}

function key(e: MirrorEntry): string {
  return [e.kind, toLine(e.content), ...(e.steps ?? []).map(toLine)].join('\u0000');
}
