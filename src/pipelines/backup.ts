import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InvalidInputError, parseInput } from '../errors.js';
import type { Store } from '../store/store.js';

export const BackupOptions = z.object({
  /** Where the copy goes: a new file (or one to overwrite) in an existing folder. */
  path: z.string().trim().min(1).max(4096),
});
export type BackupOptions = z.input<typeof BackupOptions>;

/** An online, consistent copy of the store (SQLite's backup API), refused up front when it cannot be written. */
export async function backupStore(store: Pick<Store, 'backup'>, options: BackupOptions): Promise<{ path: string; pages: number }> {
  const o = parseInput(BackupOptions, options, 'backup options');
  const target = path.resolve(o.path);
  const folder = path.dirname(target);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new InvalidInputError(`Cannot back up to ${o.path}: folder ${folder} does not exist`, { details: { path: o.path } });
  if (existsSync(target) && statSync(target).isDirectory()) throw new InvalidInputError(`Cannot back up to ${o.path}: it is a folder`, { details: { path: o.path } });
  return store.backup(target);
}
