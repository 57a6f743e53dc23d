import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { MemoryKind } from '../domain/memory.js';
import { EngramError } from '../errors.js';
import type { MirrorEntry, MirrorFile } from './mirror-format.js';

export const MIRROR_FILES: Record<MirrorFile, string> = { memory: 'memory.md', learnings: 'learnings.md' };
export const BASE_FILE = '.engram-base.json';

const Entry = z.object({ id: z.string().optional(), kind: MemoryKind, content: z.string(), steps: z.array(z.string()).optional() });

/**
 * What Engram last wrote to a user's folder: the entries (the three-way merge base), the SHA-256
 * of each file's exact text (an edit not yet synced is a file whose hash differs), and the user id
 * (so a watcher on the workspace knows whose folder changed). Files from before hashes existed
 * parse too: without a hash a file is always merged before it is rewritten.
 */
export const MirrorBase = z.object({
  userId: z.string().optional(),
  hashes: z.object({ memory: z.string().optional(), learnings: z.string().optional() }).default({}),
  memory: z.array(Entry).default([]),
  learnings: z.array(Entry).default([]),
});
export type MirrorBase = z.infer<typeof MirrorBase>;

export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export async function readBase(folder: string): Promise<MirrorBase> {
  const path = join(folder, BASE_FILE);
  if (!existsSync(path)) return MirrorBase.parse({});
  const text = await readFile(path, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new EngramError('MIRROR_FAILED', `The mirror's merge base ${path} is not valid JSON; delete it to take the files as they are`, { cause: error });
  }
  const parsed = MirrorBase.safeParse(raw);
  if (!parsed.success) throw new EngramError('MIRROR_FAILED', `The mirror's merge base ${path} has an unknown shape; delete it to take the files as they are`, { cause: parsed.error });
  return parsed.data;
}

export function baseEntries(base: MirrorBase, file: MirrorFile): MirrorEntry[] {
  return base[file].map((e) => ({ ...(e.id !== undefined ? { id: e.id } : {}), kind: e.kind, content: e.content, ...(e.steps ? { steps: e.steps } : {}) }));
}

/** The file's text, or undefined when it does not exist. */
export async function readMirrorFile(folder: string, file: MirrorFile): Promise<string | undefined> {
  const path = join(folder, MIRROR_FILES[file]);
  return existsSync(path) ? readFile(path, 'utf8') : undefined;
}

/**
 * Writes through a temp file with a name of its own (process id and a random part), then renames:
 * readers see the old or the new file, never half of one, and concurrent writers never share
 * a temp file (one shared `.tmp` name made 49 of 50 concurrent adds fail with ENOENT).
 */
export async function atomicWrite(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

// Keyed by folder path, process-wide on purpose: two engines of one process on one workspace must
// take turns too. Other processes are not serialised; the merge before every write and the
// unique temp names keep them from losing an edit or failing.
const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call for the same key has settled; calls for other keys run freely. */
export function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const settled = next.then(() => undefined, () => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}
