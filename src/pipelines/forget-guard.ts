import type { Store } from '../store/store.js';

/** The reason work reports when a forget overtook it and its result was dropped. */
export const FORGOTTEN_MEANWHILE = 'dropped: something was forgotten while this ran';

export interface ForgetGuard {
  /** True while no forget (all, topic, purge, topic messages) of the user has committed since the guard was taken. Call it inside the commit transaction. */
  holds(tx: Store): Promise<boolean>;
}

/**
 * Forgetting wins over all work in flight (issue 14 item 2): take the guard before reading what a
 * slow model call will see, and check it in the transaction that writes the result. A forget in
 * between raises the user's forget generation, and the result is dropped rather than written back.
 */
export async function takeForgetGuard(store: Store, userId: string): Promise<ForgetGuard> {
  const generation = await store.forgetGeneration(userId);
  return { holds: async (tx) => (await tx.forgetGeneration(userId)) === generation };
}
