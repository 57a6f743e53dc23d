import { compressMemoriesPrompt } from './compress-memories.js';
import { extractMemoriesPrompt } from './extract-memories.js';
import { judgeUsagePrompt } from './judge-usage.js';
import { reviewMemoryPrompt } from './review-memory.js';
import { summarizeEpisodePrompt } from './summarize-episode.js';
import { updateProfilePrompt } from './update-profile.js';

export * from './prompt.js';
export * from './extract-memories.js';
export * from './summarize-episode.js';
export * from './update-profile.js';
export * from './review-memory.js';
export * from './compress-memories.js';
export * from './judge-usage.js';

/** Every prompt module Engram ships, e.g. to list "id@version" in diagnostics. */
export const ALL_PROMPTS = [
  extractMemoriesPrompt,
  summarizeEpisodePrompt,
  updateProfilePrompt,
  reviewMemoryPrompt,
  compressMemoriesPrompt,
  judgeUsagePrompt,
] as const;
