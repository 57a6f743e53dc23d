/**
 * A FIFO async lock per key (a user): calls under one key run one after another, calls under
 * different keys at once. A key's entry is dropped when its last call ends, so a process that
 * serves many users does not keep one per user.
 */
export class KeyedLock {
  private readonly tails = new Map<string, { tail: Promise<void>; waiting: number }>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.tails.get(key) ?? { tail: Promise.resolve(), waiting: 0 };
    this.tails.set(key, entry);
    const previous = entry.tail;
    let release!: () => void;
    entry.tail = new Promise<void>((resolve) => (release = resolve));
    entry.waiting += 1;
    await previous;
    try {
      return await fn();
    } finally {
      entry.waiting -= 1;
      if (entry.waiting === 0) this.tails.delete(key);
      release();
    }
  }

  /** Keys with a call running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
