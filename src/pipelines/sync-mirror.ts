import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { contentTextProblem, quoted } from '../domain/content-text.js';
import { InvalidInputError } from '../errors.js';
import type { Memory } from '../domain/memory.js';
import { diffMirror, type MirrorChange, type MirrorConflict } from '../mirror/diff-mirror.js';
import { atomicWrite, BASE_FILE, baseEntries, hashText, MIRROR_FILES, readBase, readMirrorFile, serialised, type MirrorBase } from '../mirror/mirror-files.js';
import { sameSteps, toLine, type MirrorFile } from '../mirror/mirror-format.js';
import { parseMarkdown } from '../mirror/parse-markdown.js';
import { mirrorEntries, renderMarkdown, stepsOf } from '../mirror/render-markdown.js';
import { detectLanguage, type Language } from '../text/language.js';
import { addMemory } from './add-memory.js';
import type { MemoryDeps } from './deps.js';
import { deleteMemory, updateMemory } from './edit-memory.js';

const inFile = (file: MirrorFile, m: Memory): boolean => (file === 'learnings' ? m.kind === 'skill' : m.kind !== 'skill' && m.kind !== 'episode');

/** One folder per user under the workspace; the id is hashed so any user id is a safe folder name. */
export function userFolder(workspace: string, userId: string): string {
  const safe = userId.replace(/[^\w.-]+/g, '_').slice(0, 40);
  return join(workspace, `${safe}-${createHash('sha256').update(userId).digest('hex').slice(0, 8)}`);
}

export interface SyncReport {
  added: number;
  updated: number;
  deleted: number;
  conflicts: MirrorConflict[];
}

/**
 * Rewrites the user's memory.md and learnings.md from the database. A file that changed since
 * Engram last wrote it (its hash differs) holds a hand edit not yet synced: it is merged into the
 * database first, so no write ever loses an edit (seed 004: the files are the source of truth).
 * Writes for one user take turns. Returns what the merge did (all zero when nothing was edited).
 */
export function writeMirror(deps: MemoryDeps, workspace: string, userId: string): Promise<SyncReport> {
  const folder = userFolder(workspace, userId);
  return serialised(folder, async () => {
    const report = await mergeEdits(deps, folder, userId, { onlyEdited: true });
    await render(deps, folder, userId);
    return report;
  });
}

/**
 * Reads the user's files back: lines a person added, changed or removed become add/update/delete
 * with actor "file", with history. Edits on both sides are merged three-way against what Engram
 * last wrote (mirror/diff-mirror.ts: a conflict keeps the database version and adds the file's
 * version as a new memory). Then rewrites the files.
 */
export function syncMirror(deps: MemoryDeps, workspace: string, userId: string): Promise<SyncReport> {
  const folder = userFolder(workspace, userId);
  return serialised(folder, async () => {
    const report = await mergeEdits(deps, folder, userId, { onlyEdited: false });
    await render(deps, folder, userId);
    return report;
  });
}

/** Whether a file differs from what Engram last wrote to it: an edit `syncMirror` has not read yet. */
export async function hasUnsyncedEdits(workspace: string, userId: string): Promise<boolean> {
  const folder = userFolder(workspace, userId);
  const base = await readBase(folder);
  for (const file of ['memory', 'learnings'] as const) {
    const text = await readMirrorFile(folder, file);
    if (text !== undefined && base.hashes[file] !== hashText(text)) return true;
  }
  return false;
}

async function mergeEdits(deps: MemoryDeps, folder: string, userId: string, options: { onlyEdited: boolean }): Promise<SyncReport> {
  const report: SyncReport = { added: 0, updated: 0, deleted: 0, conflicts: [] };
  const base = await readBase(folder);
  const change = { actor: 'file' as const, reason: 'edited in the mirror file' };
  for (const file of ['memory', 'learnings'] as const) {
    const text = await readMirrorFile(folder, file);
    if (text === undefined || (options.onlyEdited && base.hashes[file] === hashText(text))) continue;
    const memories = await deps.store.listMemories({ userId, order: 'asc' });
    const diff = diffMirror({ base: baseEntries(base, file), file: parseMarkdown(text, { file }), db: mirrorEntries({ file, memories: memories.filter((m) => inFile(file, m)) }) });
    report.conflicts.push(...diff.conflicts);
    assertStorable(file, diff.toDb);
    for (const c of diff.toDb) {
      if (c.op === 'add') {
        await addMemory(deps, { userId, kind: c.kind, content: c.content, source: 'user', ...(c.steps ? { structuredData: { steps: c.steps } } : {}) }, change);
        report.added++;
      } else if (c.op === 'update' && c.id) {
        const before = memories.find((m) => m.id === c.id);
        const data = c.steps && before ? { structuredData: { ...(before.structuredData ?? {}), steps: c.steps } } : {};
        await updateMemory(deps, userId, c.id, { kind: c.kind, content: before ? contentAfter(before, c) : c.content, ...data }, change);
        report.updated++;
      } else if (c.op === 'delete' && c.id) {
        await deleteMemory(deps, userId, c.id, change);
        report.deleted++;
      }
    }
  }
  return report;
}

/**
 * The file's edits are held to the words every other door takes (ContentText), all of them before
 * any is applied: a line with a control character refuses the file's edits, naming the file, the
 * line and the character, and the file waits to be fixed (nothing of it half merged).
 */
function assertStorable(file: 'memory' | 'learnings', changes: readonly MirrorChange[]): void {
  for (const c of changes) {
    if (c.op === 'delete') continue;
    for (const text of [c.content, ...(c.steps ?? [])]) {
      const problem = contentTextProblem(text);
      if (problem) throw new InvalidInputError(`${file}.md: ${quoted(text)} ${problem}; fix the line and save again`, { details: { file: `${file}.md`, field: 'content' } });
    }
  }
}

/**
 * A learning's content line spells its steps ("生成周报：拉数据 → 写摘要"): when only the steps were
 * edited, the same steps in the line are rewritten too, so recall and the context see the edit.
 */
function contentAfter(before: Memory, c: MirrorChange): string {
  const oldSteps = stepsOf(before.structuredData);
  if (!c.steps || sameSteps(c.steps, oldSteps) || toLine(c.content) !== toLine(before.content) || oldSteps.length === 0) return c.content;
  const spelled = oldSteps.join(' → ');
  return before.content.includes(spelled) ? before.content.replace(spelled, c.steps.join(' → ')) : c.content;
}

async function render(deps: MemoryDeps, folder: string, userId: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const memories = await deps.store.listMemories({ userId, order: 'asc' });
  const language = userLanguage(memories);
  const base: MirrorBase = { userId, hashes: {}, memory: [], learnings: [] };
  for (const file of ['memory', 'learnings'] as const) {
    const mine = memories.filter((m) => inFile(file, m));
    const text = renderMarkdown({ file, memories: mine, language });
    await atomicWrite(join(folder, MIRROR_FILES[file]), text);
    base.hashes[file] = hashText(text);
    base[file] = mirrorEntries({ file, memories: mine });
  }
  await atomicWrite(join(folder, BASE_FILE), JSON.stringify(base));
}

/** Headings of both files follow the language most of the user's memories are in (episodes and skills included). */
function userLanguage(memories: readonly Memory[]): Language {
  const zh = memories.filter((m) => detectLanguage(m.content) === 'zh').length;
  return zh * 2 > memories.length ? 'zh' : 'en';
}
