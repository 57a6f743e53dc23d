import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Memory } from '../domain/memory.js';
import { diffMirror, type MirrorConflict } from '../mirror/diff-mirror.js';
import type { MirrorEntry, MirrorFile } from '../mirror/mirror-format.js';
import { parseMarkdown } from '../mirror/parse-markdown.js';
import { mirrorEntries, renderMarkdown } from '../mirror/render-markdown.js';
import { addMemory } from './add-memory.js';
import type { MemoryDeps } from './deps.js';
import { deleteMemory, updateMemory } from './edit-memory.js';

const FILES: Record<MirrorFile, string> = { memory: 'memory.md', learnings: 'learnings.md' };
const inFile = (file: MirrorFile, m: Memory): boolean => (file === 'learnings' ? m.kind === 'skill' : m.kind !== 'skill' && m.kind !== 'episode');

/** One folder per user under the workspace; the id is hashed so any user id is a safe folder name. */
export function userFolder(workspace: string, userId: string): string {
  const safe = userId.replace(/[^\w.-]+/g, '_').slice(0, 40);
  return join(workspace, `${safe}-${createHash('sha256').update(userId).digest('hex').slice(0, 8)}`);
}

async function atomicWrite(path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text, 'utf8');
  await rename(`${path}.tmp`, path);
}

/** Rewrites the user's memory.md and learnings.md from the database, and remembers what was written (the merge base). */
export async function writeMirror(deps: MemoryDeps, workspace: string, userId: string): Promise<void> {
  const folder = userFolder(workspace, userId);
  await mkdir(folder, { recursive: true });
  const memories = await deps.store.listMemories({ userId, order: 'asc' });
  const base: Record<string, MirrorEntry[]> = {};
  for (const file of ['memory', 'learnings'] as const) {
    const mine = memories.filter((m) => inFile(file, m));
    await atomicWrite(join(folder, FILES[file]), renderMarkdown({ file, memories: mine }));
    base[file] = mirrorEntries({ file, memories: mine });
  }
  await atomicWrite(join(folder, '.engram-base.json'), JSON.stringify(base));
}

export interface SyncReport {
  added: number;
  updated: number;
  deleted: number;
  conflicts: MirrorConflict[];
}

/**
 * Reads the user's files back (seed 004 "FileSystem as source of truth"): lines a person added,
 * changed or removed become add/update/delete with actor "file", with history. Edits on both
 * sides are merged three-way against what Engram last wrote (see mirror/diff-mirror.ts: a conflict
 * keeps the database version and adds the file's version as a new memory). Then rewrites the files.
 */
export async function syncMirror(deps: MemoryDeps, workspace: string, userId: string): Promise<SyncReport> {
  const folder = userFolder(workspace, userId);
  const report: SyncReport = { added: 0, updated: 0, deleted: 0, conflicts: [] };
  const basePath = join(folder, '.engram-base.json');
  const base = existsSync(basePath) ? (JSON.parse(await readFile(basePath, 'utf8')) as Record<MirrorFile, MirrorEntry[]>) : { memory: [], learnings: [] };
  const memories = await deps.store.listMemories({ userId, order: 'asc' });
  const change = { actor: 'file' as const, reason: 'edited in the mirror file' };
  for (const file of ['memory', 'learnings'] as const) {
    const path = join(folder, FILES[file]);
    if (!existsSync(path)) continue;
    const diff = diffMirror({ base: base[file] ?? [], file: parseMarkdown(await readFile(path, 'utf8'), { file }), db: mirrorEntries({ file, memories: memories.filter((m) => inFile(file, m)) }) });
    report.conflicts.push(...diff.conflicts);
    for (const c of diff.toDb) {
      const structuredData = c.steps ? { steps: c.steps } : undefined;
      if (c.op === 'add') {
        await addMemory(deps, { userId, kind: c.kind, content: c.content, source: 'user', ...(structuredData ? { structuredData } : {}) }, change);
        report.added++;
      } else if (c.op === 'update' && c.id) {
        const before = memories.find((m) => m.id === c.id);
        const merged = structuredData ? { structuredData: { ...(before?.structuredData ?? {}), ...structuredData } } : {};
        await updateMemory(deps, userId, c.id, { kind: c.kind, content: c.content, ...merged }, change);
        report.updated++;
      } else if (c.op === 'delete' && c.id) {
        await deleteMemory(deps, userId, c.id, change);
        report.deleted++;
      }
    }
  }
  await writeMirror(deps, workspace, userId);
  return report;
}
