import { completion, responseObject, type RecordedRequest, type MockReply } from '../src/proxy/mock-upstream.js';

/**
 * What the proxy benchmarks' mock model answers: two content deltas when streamed, the same text
 * as one completion otherwise (a response object on the Responses API's path).
 */
export const benchReply = (req: RecordedRequest): MockReply => {
  if ((req.body as { stream?: boolean }).stream) return { kind: 'stream', deltas: ['好的，', 'noted.'] };
  return { kind: 'json', body: req.path === '/v1/responses' ? responseObject('好的，noted.') : completion('好的，noted.') };
};
