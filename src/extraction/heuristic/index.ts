export { extractHeuristically, type HeuristicExtractionInput } from './heuristic-extractor.js';
export { isSmallTalk, isSmallTalkBatch } from './small-talk.js';
