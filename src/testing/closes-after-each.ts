import { afterEach } from 'vitest';

/**
 * For tests: wraps `open` so that whatever it opens during a test is closed after that test,
 * in the order opened. `const make = closesAfterEach(testApp, (t) => t.memory.close())`.
 */
export function closesAfterEach<A extends unknown[], T>(open: (...args: A) => T, close: (opened: T) => Promise<void>): (...args: A) => T {
  let opened: T[] = [];
  afterEach(async () => {
    const closing = opened;
    opened = [];
    for (const item of closing) await close(item);
  });
  return (...args: A) => {
    const item = open(...args);
    opened.push(item);
    return item;
  };
}
