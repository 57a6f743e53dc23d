export { type Embedder, normalize, dot } from './embedder.js';
export {
  createBundledEmbedder,
  loadUseLite,
  BUNDLED_EMBEDDER_ID,
  type BundledEmbedderOptions,
  type SentenceEncoder,
} from './bundled-embedder.js';
export { createOpenAICompatibleEmbedder, type OpenAICompatibleEmbedderOptions } from './openai-compatible-embedder.js';
export { createHashEmbedder, type HashEmbedderOptions } from './hash-embedder.js';
export { createThreadedEmbedder, type ThreadedEmbedderSpec } from './embedder-thread.js';
export { recentEmbeddings, type RecentEmbeddings, type RecentEmbeddingsOptions } from './recent-embeddings.js';
export { createGlosser, type Glosser } from './chinese-gloss.js';
export { loadCedict, parseCedict, type GlossDictionary } from './cedict.js';
