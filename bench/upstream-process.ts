/**
 * The proxy benchmarks' mock model server in a process of its own, as a real model server is never
 * in its client's process. In the client's process a direct call costs one event loop and no
 * process wake-up, which no deployment has: the direct figure came out lower than any real call
 * to a model server, and the proxy's "added" figure higher by the difference.
 *
 * Run as a forked child, this file starts the mock (answering `benchReply`) and sends its base URL.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMockUpstream } from '../src/proxy/mock-upstream.js';
import { benchReply } from './bench-upstream.js';

export interface UpstreamProcess {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  close(): Promise<void>;
}

interface Ready {
  baseURL: string;
}

/** Forks the mock model server and resolves once it listens. */
export async function startUpstreamProcess(): Promise<UpstreamProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ENGRAM_BENCH_UPSTREAM_CHILD: '1' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { baseURL } = await new Promise<Ready>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the mock upstream exited (code ${code}) before listening`)));
    child.once('message', (message: Ready) => resolve(message));
  });
  return {
    baseURL,
    close: async () => {
      child.kill();
      await exited;
    },
  };
}

if (process.env.ENGRAM_BENCH_UPSTREAM_CHILD === '1' && process.send) {
  const upstream = await startMockUpstream(benchReply, { keepRequests: false });
  process.send({ baseURL: upstream.baseURL } satisfies Ready);
  process.once('SIGTERM', () => void upstream.close().then(() => process.exit(0)));
}
