import type { Embedder } from '../embedders/embedder.js';
import type { SearchHit } from '../store/store.js';
import { indexTerms } from '../text/segment.js';
import type { MethodScores } from './fusion.js';
import type { RecallConfig } from './recall-config.js';

export interface Candidates {
  /** The query's vector, when the config uses vector search. */
  queryVector: Float32Array | undefined;
  vectorScores: MethodScores;
  keywordScores: MethodScores;
  /** Keyword coverage of each keyword hit (comparable across queries). */
  coverage: MethodScores;
  /** Every id either method returned. */
  ids: string[];
}

/**
 * The first step every recall source shares: embed the query and segment it (each only if the
 * config uses that method), then run both searches at once.
 */
export async function findCandidates(input: {
  query: string;
  config: RecallConfig;
  embedder: Embedder;
  searchVector: (vector: Float32Array) => Promise<SearchHit[]>;
  searchKeyword: (terms: string[]) => Promise<SearchHit[]>;
}): Promise<Candidates> {
  const { config } = input;
  // The keyword search does not wait for the query's vector: with an embedder in a worker thread
  // or behind an endpoint, the store is read while the query is embedded.
  const embedding = config.methods.includes('vector') ? input.embedder.embed([input.query]).then((vs) => vs[0]) : Promise.resolve(undefined);
  const terms = config.methods.includes('keyword') ? indexTerms(input.query) : [];
  const [queryVector, vectorHits, keywordHits] = await Promise.all([
    embedding,
    embedding.then((vector) => (vector ? input.searchVector(vector) : [])),
    terms.length > 0 ? input.searchKeyword(terms) : [],
  ]);
  const vectorScores: MethodScores = new Map(vectorHits.map((h) => [h.id, h.score]));
  const keywordScores: MethodScores = new Map(keywordHits.map((h) => [h.id, h.score]));
  const coverage: MethodScores = new Map(keywordHits.map((h) => [h.id, h.coverage ?? 0]));
  return { queryVector, vectorScores, keywordScores, coverage, ids: [...new Set([...vectorScores.keys(), ...keywordScores.keys()])] };
}
