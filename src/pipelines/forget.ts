import type { MemoryDeps } from './deps.js';

/**
 * Forgets everything about a user (seed 003 "用户要求遗忘"): memories, vectors, keyword rows,
 * messages, sessions, episodes, profile versions, todos, history, settings. Really erased.
 */
export async function forgetUser(deps: Pick<MemoryDeps, 'store' | 'logger'>, userId: string): Promise<Record<string, number>> {
  const counts = await deps.store.forgetUser(userId);
  deps.logger.info('forgot a user', { counts });
  return counts;
}
