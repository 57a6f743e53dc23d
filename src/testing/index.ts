/** Helpers for testing code that uses Engram: a real store in memory, a deterministic embedder, a scripted model, a manual clock. */
export { testMemory } from './test-memory.js';
export { scriptedModel, type ScriptedModel, type Script, type ScriptedCall } from './scripted-model.js';
export { fixedClock, sequentialIds, type ManualClock } from './clock.js';
export { createHashEmbedder } from '../embedders/hash-embedder.js';
