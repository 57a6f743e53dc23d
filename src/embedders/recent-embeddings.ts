import type { Embedder } from './embedder.js';

export interface RecentEmbeddingsOptions {
  /** Texts kept per user; the least recently used goes first. @default 32 */
  perUser?: number;
  /** Users kept; the least recently active goes first, with all their texts. @default 128 */
  users?: number;
  /** Longer texts are embedded afresh each time (keys stay small; long texts seldom repeat). @default 4000 */
  maxChars?: number;
}

/** Vectors of one user's recent texts, kept apart from every other user's. */
export interface RecentEmbeddings {
  /** The embedder for one user's operations: it reuses only vectors embedded for that user. */
  forUser(userId: string): Embedder;
  /** Forgets every text kept for the user (after a forget, nothing of theirs stays here). */
  dropUser(userId: string): void;
}

/**
 * Keeps the vectors of the texts each user embedded last, across operations. One chat turn embeds
 * the same two texts twice: the user's message for its memory block and again when the turn is
 * recorded, the reply when it is recorded and again when its use of memories is judged. With the
 * bundled model each embedding is about 10 ms of a thread another user's request may wait
 * behind; with a remote model, a paid call.
 *
 * Kept per user, never shared: a hit answers about 10 ms sooner, so a cache shared between users
 * would tell one user, by timing, that another had just sent a given text. The embedder's vectors
 * for a text do not change (its `id` names the model and its settings), so a kept vector is the
 * one a new call would give. Failures are not kept. Each caller gets its own copy, so one that
 * writes to its vector cannot change another's.
 */
export function recentEmbeddings(inner: Embedder, options: RecentEmbeddingsOptions = {}): RecentEmbeddings {
  const perUser = options.perUser ?? 32;
  const maxUsers = options.users ?? 128;
  const maxChars = options.maxChars ?? 4000;
  const users = new Map<string, Map<string, Float32Array>>();
  // Raised by every dropUser: an embedding in flight while someone was forgotten keeps nothing
  // (counting forgets, not keeping a forgotten user's id, which would itself stay behind).
  let drops = 0;

  /** The user's texts, now the most recently active user's; created when `create`. */
  const textsOf = (userId: string, create: boolean): Map<string, Float32Array> | undefined => {
    let texts = users.get(userId);
    if (texts) users.delete(userId);
    else if (create) {
      texts = new Map();
      if (users.size >= maxUsers) users.delete(users.keys().next().value!);
    }
    if (texts) users.set(userId, texts);
    return texts;
  };

  const forUser = (userId: string): Embedder => {
    const recall = (texts: Map<string, Float32Array> | undefined, text: string): Float32Array | undefined => {
      const v = texts?.get(text);
      if (v === undefined) return undefined;
      // Used again: now the most recent.
      texts!.delete(text);
      texts!.set(text, v);
      return v.slice();
    };
    const embedder: Embedder = {
      id: inner.id,
      get dimensions() {
        return inner.dimensions;
      },
      ...(inner.bridge ? { bridge: (texts: readonly string[]) => inner.bridge!(texts) } : {}),
      async embed(texts) {
        const held = textsOf(userId, false);
        const out: Array<Float32Array | undefined> = texts.map((t) => recall(held, t));
        const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
        if (missing.length === 0) return out as Float32Array[];
        const dropsBefore = drops;
        const vectors = await inner.embed(missing);
        const fresh = new Map(missing.map((t, i) => [t, vectors[i]!]));
        const keep = perUser > 0 && maxUsers > 0 && drops === dropsBefore ? textsOf(userId, true)! : undefined;
        for (const [text, vector] of fresh) {
          if (!keep || text.length > maxChars) continue;
          keep.delete(text);
          if (keep.size >= perUser) keep.delete(keep.keys().next().value!);
          keep.set(text, vector.slice());
        }
        return texts.map((t, i) => out[i] ?? fresh.get(t)!.slice());
      },
    };
    return embedder;
  };

  return {
    forUser,
    dropUser: (userId) => {
      drops++;
      users.delete(userId);
    },
  };
}
