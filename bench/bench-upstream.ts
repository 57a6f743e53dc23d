import { completion, type RecordedRequest, type MockReply } from '../src/proxy/mock-upstream.js';

/** What the proxy benchmarks' mock model answers: two content deltas when streamed, the same text as one completion otherwise. */
export const benchReply = (req: RecordedRequest): MockReply =>
  (req.body as { stream?: boolean }).stream ? { kind: 'stream', deltas: ['好的，', 'noted.'] } : { kind: 'json', body: completion('好的，noted.') };
