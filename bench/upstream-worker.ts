/**
 * The mock model server of the proxy benchmark, in a worker thread of its own: a model server is
 * never on its client's event loop, so a direct call crosses threads as the proxied one does
 * (with the upstream on the client's thread, the direct call never left one event loop and the
 * proxy's "added" time included two thread hops a deployment's direct call pays too).
 *
 * Messages in: { type: 'close' }; out: { type: 'ready', baseURL } and { type: 'closed' }.
 */
import { parentPort } from 'node:worker_threads';
import { completion, startMockUpstream } from '../src/proxy/mock-upstream.js';

export type UpstreamWorkerReply = { type: 'ready'; baseURL: string } | { type: 'closed' };

const port = parentPort;
if (!port) throw new Error('bench/upstream-worker.ts runs as a worker thread');
const upstream = await startMockUpstream((req) => ((req.body as { stream?: boolean }).stream ? { kind: 'stream', deltas: ['好的，', 'noted.'] } : { kind: 'json', body: completion('好的，noted.') }));
// Requests are not kept: the benchmark sends thousands and reads none back.
const keepNone = (): void => void upstream.requests.splice(0);
const sweep = setInterval(keepNone, 1000);
port.postMessage({ type: 'ready', baseURL: upstream.baseURL } satisfies UpstreamWorkerReply);
port.on('message', () => {
  clearInterval(sweep);
  void upstream.close().then(() => {
    port.postMessage({ type: 'closed' } satisfies UpstreamWorkerReply);
    port.close();
  });
});
