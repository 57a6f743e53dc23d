/**
 * Server throughput with two real server processes (`engram serve --db postgres://…`) on one
 * PostgreSQL over loopback: a mixed load (append messages, search, context; Chinese and English)
 * spread over both processes for a fixed number of requests. Reports requests per second, latency
 * per operation, and errors (the target is 0), then checks every appended message was stored once.
 * PostgreSQL is ENGRAM_BENCH_DATABASE_URL, else a throwaway cluster (scripts/pg-cluster.sh).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { quantile, table } from './report.js';

const ROOT = join(import.meta.dirname, '..');
const USERS = 20;
const SEED_PER_USER = 10;
const CONCURRENCY = 8;
const OPS = ['append', 'search', 'context'] as const;
type Op = (typeof OPS)[number];

const ZH = ['我喜欢在周末爬山', '我在杭州做老师', '我对花生过敏', '下个月要去北京出差', '我养了一只叫咪咪的猫'];
const EN = ['I like hiking on weekends', 'I work as a nurse in Shanghai', 'I am allergic to peanuts', 'I am flying to Berlin next month', 'My cat is called Mimi'];
const QUERIES = ['周末做什么', '过敏', '出差', 'what does the user do for work', 'pets', 'travel plans'];

export interface PostgresServersResult {
  processes: number;
  requests: number;
  concurrency: number;
  seconds: number;
  perSecond: number;
  errors: number;
  errorSamples: string[];
  byOp: Array<{ op: Op; requests: number; p50: number; p95: number; errors: number }>;
  byProcess: number[];
  messagesSent: number;
  messagesStored: number;
}

function postgresUrl(): { url: string; stop: () => void } {
  const given = process.env.ENGRAM_BENCH_DATABASE_URL;
  if (given) return { url: given, stop: () => undefined };
  const script = join(ROOT, 'scripts', 'pg-cluster.sh');
  const out = execFileSync(script, ['start'], { encoding: 'utf8' });
  const url = /ENGRAM_TEST_DATABASE_URL=(\S+)/.exec(out)?.[1];
  const dir = /ENGRAM_PG_CLUSTER=(\S+)/.exec(out)?.[1];
  if (!url || !dir) throw new Error(`pg-cluster.sh start printed no URL: ${out}`);
  return { url, stop: () => execFileSync(script, ['stop', dir]) };
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

interface ServerProcess {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `engram serve` in a process of its own, resolved once it prints that it listens. */
async function startServer(db: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'engram.js'), 'serve', '--db', db, '--embedder', 'hash', '--host', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, ENGRAM_RATE_LIMIT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Engram is listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`engram serve exited (${code}) before listening:\n${output}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function runPostgresServersBench(options: { quick: boolean }): Promise<{ result: PostgresServersResult; text: string }> {
  const total = options.quick ? 600 : 3000;
  const pg = postgresUrl();
  const schema = `bench_servers_${randomBytes(4).toString('hex')}`;
  const db = `${pg.url}${pg.url.includes('?') ? '&' : '?'}schema=${schema}`;
  const servers: ServerProcess[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    // The schema is created once before the two processes open it (they would also migrate it safely together).
    const setup = openPostgresStore({ url: db });
    await setup.userIds();
    await setup.close();
    // Each process is its own extraction worker (`<host>:<pid>`), with its own scheduler.
    servers.push(await startServer(db), await startServer(db));
    const errorSamples: string[] = [];
    const post = (server: ServerProcess, path: string, body: unknown): Promise<boolean> =>
      new Promise((resolve) => {
        const data = Buffer.from(JSON.stringify(body));
        const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => {
            const ok = (res.statusCode ?? 500) < 300;
            if (!ok && errorSamples.length < 5) errorSamples.push(`HTTP ${res.statusCode} ${path}: ${text.slice(0, 200)}`);
            resolve(ok);
          });
        });
        req.on('error', (error) => {
          if (errorSamples.length < 5) errorSamples.push(`${path}: ${error.message}`);
          resolve(false);
        });
        req.end(data);
      });

    const user = (i: number) => (i % 2 === 0 ? `用户${i % USERS}` : `user-${i % USERS}`);
    // Seed (untimed): memories for every user, half through each process.
    for (let u = 0; u < USERS; u++) {
      for (let k = 0; k < SEED_PER_USER; k++) {
        const texts = u % 2 === 0 ? ZH : EN;
        if (!(await post(servers[k % 2]!, `/v1/users/${encodeURIComponent(user(u))}/memories`, { content: `${texts[k % texts.length]!} #${k}`, kind: 'preference' }))) {
          throw new Error(`seeding failed: ${errorSamples.join('; ')}`);
        }
      }
    }
    errorSamples.length = 0;

    let messagesSent = 0;
    const call = (i: number): { op: Op; run: () => Promise<boolean> } => {
      const op = OPS[i % OPS.length]!;
      const server = servers[i % servers.length]!;
      const u = encodeURIComponent(user(Math.floor(i / OPS.length)));
      if (op === 'append') {
        const texts = i % 2 === 0 ? ZH : EN;
        messagesSent += 2;
        return { op, run: () => post(server, `/v1/users/${u}/sessions/bench-${i % 7}/messages`, { messages: [{ id: `m${i}-a`, role: 'user', content: texts[i % texts.length]! }, { id: `m${i}-b`, role: 'assistant', content: i % 2 === 0 ? '好的，记下了' : 'Noted.' }] }) };
      }
      const query = QUERIES[i % QUERIES.length]!;
      return { op, run: () => post(server, `/v1/users/${u}/${op}`, op === 'search' ? { query, limit: 10 } : { query }) };
    };

    const ms: Record<Op, number[]> = { append: [], search: [], context: [] };
    const errors: Record<Op, number> = { append: 0, search: 0, context: 0 };
    const byProcess = servers.map(() => 0);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          const i = next++;
          const { op, run } = call(i);
          const t = performance.now();
          const ok = await run();
          ms[op].push(performance.now() - t);
          byProcess[i % servers.length]!++;
          if (!ok) errors[op]++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    // Every appended message stored exactly once (ids are unique; a duplicate would be refused, a loss shows here).
    const check = openPostgresStore({ url: db });
    let messagesStored = 0;
    for (const id of await check.userIds()) messagesStored += (await check.listMessages({ userId: id })).length;
    await check.close();

    const round2 = (x: number) => Math.round(x * 100) / 100;
    const errorCount = OPS.reduce((n, op) => n + errors[op], 0);
    const result: PostgresServersResult = {
      processes: servers.length,
      requests: total,
      concurrency: CONCURRENCY,
      seconds: round2(seconds),
      perSecond: Math.round(total / seconds),
      errors: errorCount,
      errorSamples,
      byOp: OPS.map((op) => ({ op, requests: ms[op].length, p50: round2(quantile(ms[op], 0.5)), p95: round2(quantile(ms[op], 0.95)), errors: errors[op] })),
      byProcess,
      messagesSent,
      messagesStored,
    };
    const text = [
      `Two \`engram serve\` processes on one PostgreSQL (loopback, hash embedder, ${USERS} users seeded with ${SEED_PER_USER} memories each); ${total} requests, ${CONCURRENCY} in flight, alternating between the processes; append / search / context in turn, Chinese and English.`,
      '',
      table(
        ['op', 'requests', 'p50 ms', 'p95 ms', 'errors'],
        result.byOp.map((r) => [r.op, String(r.requests), String(r.p50), String(r.p95), String(r.errors)]),
      ),
      '',
      `Throughput: ${result.perSecond} req/s over ${result.seconds} s; requests per process ${byProcess.join(' / ')}; errors ${errorCount}${errorSamples.length ? ` (${errorSamples.join('; ')})` : ''}.`,
      `Messages: ${messagesSent} sent, ${messagesStored} stored.`,
    ].join('\n');
    if (errorCount > 0 || messagesStored !== messagesSent) throw new Error(`postgres-servers: ${errorCount} errors, ${messagesStored}/${messagesSent} messages stored\n${text}`);
    return { result, text };
  } finally {
    agent.destroy();
    await Promise.all(servers.map((s) => s.stop()));
    pg.stop();
  }
}
