/** `engram/ai-sdk`: long-term memory as Vercel AI SDK middleware. */
export { engramMemory, type EngramMemoryOptions, type EngramMiddleware } from './engram-memory.js';
export type { TurnMemory } from '../proxy/memory-turn.js';
