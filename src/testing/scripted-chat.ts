import type { CreateMemoryOptions } from '../memory.js';
import { scriptedModel, type ScriptFunction } from './scripted-model.js';
import { testMemory } from './test-memory.js';

/**
 * For extraction tests: an engine whose model answers by `script`, its clock set to `at`, and
 * `say`, which appends turns to a session for the user 'u' (ids msg-1, msg-2, …, a second apart).
 * The caller closes `memory`.
 */
export function scriptedChat(script: ScriptFunction, options: { at: number; extraction?: CreateMemoryOptions['extraction'] }) {
  const model = scriptedModel(script);
  const memory = testMemory({ model, ...(options.extraction ? { extraction: options.extraction } : {}) });
  memory.clock.set(new Date(options.at));
  let n = 0;
  const say = (sessionId: string, ...turns: Array<[role: 'user' | 'assistant', content: string]>) =>
    memory.appendMessages({
      messages: turns.map(([role, content]) => ({ id: `msg-${++n}`, userId: 'u', sessionId, role, content, createdAt: new Date(memory.clock.now().getTime() + n * 1000) })),
    });
  return { model, memory, say };
}
