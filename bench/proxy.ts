/**
 * The chat proxy's added latency (`npm run bench -- --only proxy`): the same requests go straight
 * to a mock OpenAI-compatible server on loopback and through Engram's proxy to it, interleaved, for
 * a user with 10,000 memories. Reported: p50 / p95 of the full non-streamed call, and of the time to
 * the first streamed chunk (what a chat user waits for), direct and proxied, and the difference.
 * The proxy runs in a process of its own (`proxy-server-worker.ts`, forked), as in deployment, so
 * recording a turn after the response costs this client nothing, as it would cost a client on
 * another machine nothing; everything before the response is timed. The mock upstream has a
 * process of its own too (`upstream-process.ts`): in the client's process a direct call would skip
 * the process wake-ups every real call to a model server has (ENGRAM_BENCH_UPSTREAM=inline puts
 * it back there, for the comparison in the results). Between calls the bench waits
 * until the turn is recorded and the idle moment's housekeeping is done, as a chat user's pause
 * between turns allows. Settings: the proxy alone without memories and at 10,000 (query vectors
 * random, so the embedder costs nothing), the same through the whole server as `npm start` serves
 * it (key auth and the other middleware), the same over the Responses API, and with the bundled
 * embedder. Before and after, a thread spins 3 s on the idle machine (`machine-stalls.ts`): how
 * often the machine itself takes the CPU away, which no proxy can take off a p95 measured on it.
 */
import { fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUpstreamFetch, type UpstreamFetch } from '../src/proxy/upstream-fetch.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { ProxyWorkerData, ProxyWorkerReply, ProxyWorkerRequest } from './proxy-server-worker.js';
import { quantile, table } from './report.js';
import { bulkInsert, queryText, rng } from './synthetic.js';
import { startMockUpstream } from '../src/proxy/mock-upstream.js';
import { benchReply } from './bench-upstream.js';
import { timeChatCall } from './time-chat-call.js';
import { startUpstreamProcess, type UpstreamProcess } from './upstream-process.js';
import { formatMachineStalls, measureMachineStalls, type MachineStalls } from './machine-stalls.js';

const DIMENSIONS = 512;
const STUB_ID = 'bench-random@512';
const TARGET = 'user-0';

interface Timing {
  p50: number;
  p95: number;
}
interface ModeResult {
  direct: Timing;
  proxy: Timing;
  added: Timing;
}
export interface ProxyResult {
  memories: number;
  requests: number;
  embedder: string;
  full: ModeResult;
  firstToken: ModeResult;
  /** Calls repeated after a transport error (fetch failed); their first attempt is not timed. */
  transportRetries: number;
  /** The context build inside the proxied requests, timed in the proxy's process. */
  context: Timing;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;
const timing = (xs: readonly number[]): Timing => ({ p50: r2(quantile(xs, 0.5)), p95: r2(quantile(xs, 0.95)) });
const mode = (direct: number[], proxy: number[]): ModeResult => {
  const d = timing(direct);
  const p = timing(proxy);
  return { direct: d, proxy: p, added: { p50: r2(p.p50 - d.p50), p95: r2(p.p95 - d.p95) } };
};

/** Transport errors retried (a reused keep-alive connection reset under a busy event loop), reported with the figures. */
let transportRetries = 0;

/** The client's transport, for direct and proxied calls alike: node:http keep-alive (lighter than undici's fetch). */
const client: UpstreamFetch = createUpstreamFetch();

/** Milliseconds until the whole body (stream false) or the first body chunk (stream true) arrived. */
async function timeCall(url: string, body: unknown, stream: boolean, headers: Record<string, string>, path: Wire): Promise<number> {
  try {
    return await timeChatCall(url, body, stream, client, headers, path);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    transportRetries++;
    return timeChatCall(url, body, stream, client, headers, path);
  }
}

/** The OpenAI protocol a setting speaks: Chat Completions, or the Responses API (memory in its instructions). */
type Wire = '/chat/completions' | '/responses';

interface Setting {
  label: string;
  userId: string;
  embedder: ProxyWorkerData['embedder'];
  surface?: ProxyWorkerData['surface'];
  /** @default '/chat/completions' */
  wire?: Wire;
}

type AskRequest = ProxyWorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

interface ProxyServer {
  url: string;
  /** What every call sends (the API key, through the whole server). */
  headers: Record<string, string>;
  ask(request: AskRequest): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** ENGRAM_BENCH_UPSTREAM=inline: the mock upstream in this process, as before session 15. */
const INLINE_UPSTREAM = process.env.ENGRAM_BENCH_UPSTREAM === 'inline';

/** ENGRAM_BENCH_IDLE_WORK=off: housekeeping (young GC, access writes) whenever it comes, not between requests; for the comparison in the results. */
const IDLE_WORK = process.env.ENGRAM_BENCH_IDLE_WORK !== 'off';

/** The proxy server in a process of its own (TypeScript through tsx, as the bench itself; its data the first message), and a call that waits for its answer. */
async function startProxyServer(data: ProxyWorkerData): Promise<ProxyServer> {
  const child = fork(fileURLToPath(new URL('./proxy-server-worker.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send(data);
  const waiting = new Map<number, (ms: number | undefined) => void>();
  let next = 0;
  const { url, headers } = await new Promise<{ url: string; headers: Record<string, string> }>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (reply: ProxyWorkerReply) => {
      if (reply.type === 'ready') resolve(reply);
      else {
        waiting.get(reply.id)?.(reply.ms);
        waiting.delete(reply.id);
      }
    });
  });
  const ask = (request: AskRequest): Promise<number | undefined> =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.send({ ...request, id });
    });
  const exited = new Promise<void>((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()) : resolve()));
  return { url, headers, ask, stop: async () => { await ask({ type: 'close' }); await exited; } };
}

async function measure(dbPath: string, upstream: UpstreamProcess, setting: Setting, requests: number): Promise<ProxyResult> {
  const proxy = await startProxyServer({ dbPath, upstreamBaseURL: upstream.baseURL, embedder: setting.embedder, embedderId: STUB_ID, dimensions: DIMENSIONS, userId: setting.userId, idleWork: IDLE_WORK, surface: setting.surface ?? 'proxy' });
  try {
    const r = rng(9);
    const queries = Array.from({ length: requests }, () => queryText(r));
    const wire = setting.wire ?? '/chat/completions';
    const body = (q: string, stream: boolean, i: number) =>
      wire === '/responses'
        ? { model: 'mock-model', user: setting.userId, stream, instructions: 'You are helpful.', input: `${q} #${i}` }
        : { model: 'mock-model', user: setting.userId, stream, messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: `${q} #${i}` }] };
    const times = { fullDirect: [] as number[], fullProxy: [] as number[], ttftDirect: [] as number[], ttftProxy: [] as number[], context: [] as number[] };
    // Warm-up: prepared statements, page cache and connections (the first search over 10,000 memories is slow).
    for (let i = 0; i < 15; i++) {
      await timeCall(upstream.baseURL, body(queries[i]!, false, -i), false, {}, wire);
      await timeCall(`${proxy.url}/v1`, body(queries[i]!, false, -i), false, proxy.headers, wire);
      await proxy.ask({ type: 'idle' });
    }
    for (let i = 0; i < requests; i++) {
      const q = queries[i]!;
      const stream = i % 2 === 1;
      const direct = () => timeCall(upstream.baseURL, body(q, stream, i), stream, {}, wire);
      const proxied = () => timeCall(`${proxy.url}/v1`, body(q, stream, i), stream, proxy.headers, wire);
      // The turn is recorded after the response; the proxy is let finish it before the next call,
      // the direct one included, so no call shares the machine with it. The answer carries the
      // request's context build, timed inside it.
      const proxiedThenIdle = async (): Promise<number> => {
        const ms = await proxied();
        const build = await proxy.ask({ type: 'idle' });
        if (build !== undefined) times.context.push(build);
        return ms;
      };
      // Alternate which goes first, so neither always meets a warmer machine.
      let d: number;
      let p: number;
      if (i % 4 < 2) {
        d = await direct();
        p = await proxiedThenIdle();
      } else {
        p = await proxiedThenIdle();
        d = await direct();
      }
      (stream ? times.ttftDirect : times.fullDirect).push(d);
      (stream ? times.ttftProxy : times.fullProxy).push(p);
    }
    const retries = transportRetries;
    transportRetries = 0;
    return { memories: setting.userId === TARGET ? 10_000 : 0, requests, embedder: setting.label, transportRetries: retries, full: mode(times.fullDirect, times.fullProxy), firstToken: mode(times.ttftDirect, times.ttftProxy), context: timing(times.context) };
  } finally {
    await proxy.stop();
  }
}

export async function runProxy(options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<{ result: { settings: ProxyResult[]; stalls: MachineStalls[] }; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  // 600: each p95 is the 15th slowest of 300 streamed (or unstreamed) calls; with 150, one of eight,
  // and the machine's own stalls (3–8 per 3 s here) moved it by several ms from run to run.
  const requests = options.quick ? 100 : 600;
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-proxy-'));
  const upstream = INLINE_UPSTREAM ? await startMockUpstream(benchReply, { keepRequests: false }) : await startUpstreamProcess();
  const dbPath = join(dir, 'proxy.db');
  try {
    const store = openSqliteStore({ path: dbPath });
    await store.bindEmbedder({ id: STUB_ID, dimensions: DIMENSIONS });
    log('  proxy: loading 10,000 memories for one user among 20');
    await bulkInsert(store, { users: Array.from({ length: 19 }, (_, i) => `user-${i + 1}`), perUser: 50, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 3 });
    await bulkInsert(store, { users: [TARGET], perUser: 10_000, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 4 });
    await store.close();
    const settings: Setting[] = [
      { label: 'no memories: the proxy itself', userId: 'user-new', embedder: 'random' },
      { label: '10,000 memories, random query vector', userId: TARGET, embedder: 'random' },
      { label: '10,000 memories, random query vector, through the whole server (key auth, middleware)', userId: TARGET, embedder: 'random', surface: 'server' },
      { label: '10,000 memories, random query vector, the Responses API (memory in its instructions)', userId: TARGET, embedder: 'random', wire: '/responses' },
      { label: '10,000 memories, bundled embedder', userId: TARGET, embedder: 'bundled' },
    ];
    const results: ProxyResult[] = [];
    // The machine's own stalls, before and after: what no proxy can take off its tail.
    const stalls = [measureMachineStalls()];
    for (const [i, setting] of settings.entries()) {
      log(`  proxy: ${setting.label}`);
      // Each setting on a fresh copy: the turns one records would lengthen the next one's message
      // history (until session 15 the server row searched about 600 more messages than the proxy's).
      const copy = join(dir, `setting-${i}.db`);
      copyFileSync(dbPath, copy);
      results.push(await measure(copy, upstream, setting, requests));
      rmSync(copy, { force: true });
    }
    stalls.push(measureMachineStalls());
    return { result: { settings: results, stalls }, text: formatProxy(results, stalls) };
  } finally {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatProxy(results: readonly ProxyResult[], stalls: readonly MachineStalls[] = []): string {
  const ms = (t: Timing): string => `${t.p50} / ${t.p95}`;
  const rows = results.flatMap((x) => [
    [x.embedder, 'full call (stream: false)', ms(x.full.direct), ms(x.full.proxy), ms(x.full.added)],
    [x.embedder, 'first chunk (stream: true)', ms(x.firstToken.direct), ms(x.firstToken.proxy), ms(x.firstToken.added)],
  ]);
  // What the proxy adds is the context build plus forwarding; the build's share says which to work on.
  const share = (x: ProxyResult): string => (x.firstToken.added.p50 > 0 ? `${Math.round((x.context.p50 / x.firstToken.added.p50) * 100)} %` : 'n/a');
  const side = results.map(
    (x) =>
      `${x.embedder}: the context build inside the proxied requests ${ms(x.context)} ms, ${share(x)} of the added p50 before the first chunk; forwarding and the rest ≈ ${r2(x.firstToken.added.p50 - x.context.p50)} ms p50; transport retries ${x.transportRetries}`,
  );
  return [
    `Chat proxy over loopback against a mock upstream, ${INLINE_UPSTREAM ? "the proxy in a process of its own, the upstream in the client's" : 'the client, the proxy and the upstream each in a process of its own'}${IDLE_WORK ? '' : ' (housekeeping not held for idle moments)'}, ${results[0]?.requests ?? 0} requests per setting (half streamed), direct and proxied interleaved; ms p50 / p95:`,
    '',
    table(['setting', 'measure', 'direct', 'through proxy', 'added'], rows),
    '',
    ...side,
    ...stalls.map((x, i) => `${i === 0 ? 'before' : 'after'} the settings, ${formatMachineStalls(x)}`),
  ].join('\n');
}
