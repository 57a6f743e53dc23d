import { describe, expect, it } from 'vitest';
import type { EngramEvent } from '../events.js';
import { testMemory } from '../testing/test-memory.js';

describe('background extraction tells the outside world (extraction.done)', () => {
  for (const [language, text] of [['zh', '我叫李明，我喜欢猫。'], ['en', 'My name is Sam and I love hiking.']] as const) {
    it(`a scheduler pass after silence emits extraction.done with its report (${language})`, async () => {
      const events: EngramEvent[] = [];
      const memory = testMemory({ events: { emit: (e) => void events.push(e) } });
      await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: text }] });
      memory.clock.advance(3 * 60_000);
      await memory.tick();
      const done = events.filter((e) => e.type === 'extraction.done');
      expect(done).toHaveLength(1);
      expect(done[0]).toMatchObject({ userId: 'u', sessionId: 's', report: { status: 'applied' } });
      await memory.close();
    });
  }
});
